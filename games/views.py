from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from accounts.http import AuthedRequest


@login_required
def lobby(request: AuthedRequest) -> HttpResponse:
    return render(request, "games/lobby.html", {})
