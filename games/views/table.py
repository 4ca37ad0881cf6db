"""The table: the page, moves, hints, handing a seat to the bot and back, and rematches.

Status codes (the same for htmx and plain posts; the table page tells htmx to swap these
error responses, so the message shows in the table): 400 a move that could not be read,
403 a spectator or automated seat trying to act, 404 a private game the user is not in,
409 a stale table (with the fresh table), 422 a move the rules refuse, 503 a database too
busy to take the move in time (hundredten.busy). Every error answer is the `#table` partial
(full page for non-htmx requests) with the message in it, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.db import OperationalError
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthedRequest
from games.access import visible_game_or_404
from games.models import Game
from games.presenters.basis import table_basis
from games.presenters.context import hint_text, table_context
from games.services import rematch as rematches
from games.services import seats
from games.services import table as service
from games.services.errors import TableError, UnreadableMove
from games.services.lobby import LobbyRefused
from games.talk import presenter as talk
from hundredten.busy import BUSY_MESSAGE, busy, database_busy

# A change of who plays the user's seat (games.services.seats).
SeatChange = Callable[..., Game]

# Which side panel (#table-side) the page shows; see static/js/table.js.
SIDE_HEADER = "X-Table-Side"
MAX_TURN_KEY = 200


class BadMove(UnreadableMove):
    """The POST's bookkeeping (table version, decision) could not be read."""


def seen(data: QueryDict) -> tuple[int, str]:
    """The table version and the decision the page showed (ASCII digits only: "１５" is not
    a number here)."""
    raw = data.get("version", "")
    if not (raw.isascii() and raw.isdigit()):
        raise BadMove(_("That move could not be read: the table version is missing."))
    return int(raw), data.get("turn", "")[:MAX_TURN_KEY]


def _render_table(
    request: AuthedRequest, game: Game, *, error: str = "", status: int = 200, fresh: bool = False
) -> HttpResponse:
    if not fresh:  # a move or a bot may have changed it since it was read
        game.refresh_from_db()
    basis = table_basis(game)
    context = table_context(game, request.user, error=error, basis=basis)
    if request.htmx and not request.htmx.boosted:
        # The side panel rides along only when the page's one is out of date (table.js
        # sends the key of the one it shows).
        context["send_side"] = request.headers.get(SIDE_HEADER) != context.get("side_key")
        return render(request, "games/table.html#answer", context, status=status)
    # The chat, outside #table: from the table basis just drawn (its members, whether a
    # hand is being played), so the panel reads only the user's mutes, blocks and lines.
    context.update(talk.panel(game, request.user, at_table=talk.AtTable.of(game, basis)))
    return render(request, "games/table.html", context, status=status)


@login_required
@require_GET
def table(request: AuthedRequest, game_id: int) -> HttpResponse:
    game = visible_game_or_404(request.user, game_id)
    if game.status == Game.Status.WAITING:
        return redirect("waiting-room", game_id=game.pk)
    return _render_table(request, game, fresh=True)


@login_required
@require_POST
def move(request: AuthedRequest, game_id: int) -> HttpResponse:
    # A move the service accepts came from a player seated at the table, who may see it; so
    # the visibility check (a private game's outsiders get a 404) runs only on the way out
    # with an error, and an accepted move costs no queries for it.
    post = request.POST
    try:
        version, turn = seen(post)
        game = service.submit_move(
            game_id=game_id,
            user=request.user,
            choice=lambda kind, seat: kind.table.parse_action(post, seat),
            seen_version=version,
            seen_turn=turn,
        )
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    except (BadMove, TableError) as exc:
        status = 400 if isinstance(exc, BadMove) else exc.status
        game = visible_game_or_404(request.user, game_id)
        return _render_table(request, game, error=str(exc), status=status, fresh=True)
    except OperationalError as exc:
        if not database_busy(exc):
            raise
        game = visible_game_or_404(request.user, game_id)
        return busy(_render_table(request, game, error=str(BUSY_MESSAGE), status=503, fresh=True))
    if not request.htmx:
        return redirect("table", game_id=game.pk)
    return _render_table(request, game, fresh=True)  # as the move left it


@login_required
@require_GET
def hint(request: AuthedRequest, game_id: int) -> HttpResponse:
    game = visible_game_or_404(request.user, game_id)
    text, status = hint_text(game, request.user)
    return render(request, "games/table.html#hint", {"hint": text}, status=status)


def act_at_table(
    request: AuthedRequest, game_id: int, action: Callable[[], object]
) -> HttpResponse:
    """Run a service for the table (absence, undo): the table again, with the refusal if any."""
    game = visible_game_or_404(request.user, game_id)
    try:
        action()
    except (TableError, LobbyRefused) as exc:
        return _render_table(request, game, error=exc.message, status=exc.status)
    if not request.htmx:
        return redirect("table", game_id=game.pk)
    return _render_table(request, game)


def _change_hands(request: AuthedRequest, game_id: int, change: SeatChange) -> HttpResponse:
    game = visible_game_or_404(request.user, game_id)
    try:
        change(game_id=game.pk, user=request.user)
    except TableError as exc:
        return _render_table(request, game, error=exc.message, status=exc.status)
    if not request.htmx:
        return redirect("table", game_id=game.pk)
    return _render_table(request, game)


@login_required
@require_POST
def automate(request: AuthedRequest, game_id: int) -> HttpResponse:
    """Hand the player's seat to a bot (until they take it back)."""
    return _change_hands(request, game_id, seats.automate)


@login_required
@require_POST
def reclaim(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The player takes their seat back from the bot."""
    return _change_hands(request, game_id, seats.reclaim)


@login_required
@require_POST
def rematch(request: AuthedRequest, game_id: int) -> HttpResponse:
    game = visible_game_or_404(request.user, game_id)
    try:
        new = rematches.rematch(game_id=game.pk, user=request.user)
    except TableError as exc:
        return _render_table(request, game, error=exc.message, status=exc.status)
    # The rematch waits for the invited players' answers in its waiting room, unless every
    # other seat was a bot (then it has started).
    waiting = new.status == Game.Status.WAITING
    url = reverse("waiting-room" if waiting else "table", kwargs={"game_id": new.pk})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)
