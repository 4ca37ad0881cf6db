"""Lobby, new game, waiting room and invitations. (Being built: placeholders raise 404.)"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.http import AuthedRequest


@login_required
def lobby(request: AuthedRequest) -> HttpResponse:
    return render(request, "games/lobby.html", {})


def _todo(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise Http404("Not built yet.")


lobby_lists = new_game = waiting_room = user_search = invite = invite_link = _todo
revoke_invitation = accept = decline = join = leave = add_bot = remove = start = _todo
follow_invite_link = _todo
