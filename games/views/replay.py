"""The replay page: a game stepped through from its action log (games/presenters/replay.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from accounts.http import AuthedRequest
from games.access import visible_game_or_404
from games.models import Game
from games.presenters.replay import ReplayError, replay_context
from games.talk import presenter as talk


@login_required
@require_GET
def replay(request: AuthedRequest, game_id: int) -> HttpResponse:
    """`?at=N` (actions applied; default the latest) and `?seat=K|spectator`. htmx requests
    (the page's own step links) get the `#replay` part alone."""
    game = visible_game_or_404(request.user, game_id)
    if game.status == Game.Status.WAITING:
        return redirect("waiting-room", game_id=game.pk)
    return replay_page(request, game)


def replay_page(
    request: AuthedRequest, game: Game, *, analysis_error: str = "", status: int = 200
) -> HttpResponse:
    """The replay of `game` at the request's `?at=` and `?seat=`; `analysis_error`: why
    the analysis asked for was refused (games/views/analysis.py), answered with `status`."""
    try:
        context = replay_context(
            game, request.user, request.GET.get("at", ""), request.GET.get("seat", "")
        )
    except ReplayError as exc:
        return render(
            request, "games/replay.html", {"game": game, "error": exc.message}, status=exc.status
        )
    # What was said by this move, as the viewer may read it (docs/talk.md).
    context.update(talk.panel(game, request.user, upto=context["step_number"]))
    context["analysis_error"] = analysis_error
    template = "games/replay.html#replay" if request.htmx else "games/replay.html"
    return render(request, template, context, status=status)
