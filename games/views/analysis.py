"""Asking for a finished game's analysis, and its progress (games/services/analysis.py).

The request is a plain form POST from the replay page (it works without scripts): on success
back to the replay, which shows the progress; a refusal is the replay page with the reason.
While the analysis waits or runs, the page's progress bar asks for `progress` every two
seconds (htmx polling: simpler than a socket for a bar that moves every few seconds); once
it is done, the answer reloads the page, which then shows the marks.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from accounts.http import AuthedRequest
from games.access import visible_game_or_404
from games.models import GameAnalysis
from games.presenters.analysis import analysis_context
from games.services import analysis
from games.services.errors import TableError
from games.views.replay import replay_page


@login_required
@require_POST
def request_analysis(request: AuthedRequest, game_id: int) -> HttpResponse:
    try:
        analysis.request(game_id=game_id, user=request.user)
    except TableError as exc:
        game = visible_game_or_404(request.user, game_id)
        return replay_page(request, game, analysis_error=exc.message, status=exc.status)
    return redirect("replay", game_id=game_id)


@login_required
@require_GET
def progress(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The progress bar while the analysis waits or runs; when it has ended, a reload."""
    game = visible_game_or_404(request.user, game_id)
    row = analysis.current(game)
    if row is None or row.status not in (GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING):
        return HttpResponseClientRefresh()
    context = analysis_context(game, -1, (), lambda step, seat: "")
    return render(request, "games/_analysis.html#analysis-progress", context)
