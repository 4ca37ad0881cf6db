"""A finished game as a file: its log written in its game's conformance trace format.

The game's kind writes the trace (`GameKind.export`, pure, `games/kinds/<game>/export.py`)
from what we store: seed, seat count, options and the action log. The file replays through
`manage.py conformance`, so anyone can check our engine's every step on a game played here.

Only a finished game: every trace format records how the game ended, and a game still being
played would show its hidden cards. An abandoned game never ended, so it is refused too.
Exporting reads; it changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import registry
from games.kinds.conformance import NotExportable
from games.models import Game, GameAction

# Why a game that is not finished cannot be exported, by status (in English: translated
# when raised).
NOT_FINISHED: dict[str, str] = {
    Game.Status.WAITING: gettext_noop(
        "This game has not started yet: only a finished game can be exported."
    ),
    Game.Status.ACTIVE: gettext_noop(
        "This game is still being played: it can be exported once it is over."
    ),
    Game.Status.ABANDONED: gettext_noop(
        "This game was abandoned before its end: a trace records a whole game, "
        "so only a finished game can be exported."
    ),
}


class ExportRefused(Exception):
    """A game that cannot be exported; `str(error)` is a sentence for the user and `status`
    the HTTP status of the answer (409: not finished; 422: its format cannot express it)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def file_name(game: Game) -> str:
    """The export's file name: the game's kind and id, e.g. "hearts-42.json"."""
    return f"{game.kind}-{game.pk}.json"


def export(game: Game) -> dict[str, Any]:
    """The trace of the finished `game` in its kind's conformance format (a JSON object).

    ExportRefused unless the game is finished, or when its format cannot express it (a
    Hundred and Ten game to 60 points).
    """
    if game.status != Game.Status.FINISHED:
        refusal = NOT_FINISHED.get(game.status)
        raise ExportRefused(_(refusal) if refusal else _("Only a finished game can be exported."))
    kind = registry.kind(game.kind)
    rules = kind.rules
    seats = game.memberships.filter(seat__isnull=False).count()
    # The oracles' formats have no undo: a move taken back and its undo are left out.
    kept = GameAction.objects.filter(game=game, undone=False, undoes__isnull=True)
    moves = kept.order_by("seq").values_list("seat", "move")
    log = [(seat, rules.action_from_json(move)) for seat, move in moves]
    # Dealt as `table.begin` dealt it: the stored seed and options, the seated players.
    initial = rules.initial_state(game.seed, seats, game.options)
    try:
        return kind.export(initial, log, name=f"{kind.slug}-{game.pk}")
    except NotExportable as error:
        raise ExportRefused(str(error), status=422) from None
