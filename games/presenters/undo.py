"""What the table says of undo by consent (games/services/undo.py), for one viewer: the
"Take back my move" button for the one who may ask, the question with its answers and its
time for the people asked, and to everybody (spectators too) who asks, who has still to
answer, and how it ended. What is said is public: that a move is being taken back, never
which card (the felt shows what everyone saw)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.models import Game, Membership
from games.services.undo import Undo, may_ask
from games.words import and_list


def taken_back(mover: int, seat: int | None, names: tuple[str, ...]) -> str:
    """Whose move was taken back, as `seat` reads it (the table after the undo, the replay)."""
    if mover == seat:
        return _("You took back your move.")
    return _("%(name)s took back their move.") % {"name": names[mover]}


def undo_context(
    game: Game, seated: Mapping[int, Membership], names: tuple[str, ...], viewer: Membership | None
) -> dict[str, Any]:
    """`undo` for templates/games/_undo.html (empty: nothing to say), and `question`: True
    while the table waits for the answers (then nobody moves, and no seat is shown to act)."""
    undo = Undo.of(game)
    if undo is None or game.status != Game.Status.ACTIVE or undo.seq != game.action_count:
        return {"undo": {}, "question": False}
    seat = viewer.seat if viewer is not None else None
    asker = names[undo.seat]
    if undo.open:
        waiting = undo.waiting_for()
        who = and_list([names[s] for s in waiting])
        if seat == undo.seat:
            text = _("You asked to take back your last move. Waiting for %(names)s to answer.") % {
                "names": who
            }
        elif seat in waiting:
            text = _("%(name)s asks to take back their last move. Do you agree?") % {"name": asker}
        else:
            text = _(
                "%(name)s asks to take back their last move. Waiting for %(names)s to answer."
            ) % {
                "name": asker,
                "names": who,
            }
        until = game.undo_until
        return {
            "undo": {
                "text": text,
                "answer": seat in waiting,
                "asker": seat == undo.seat,  # sees the time left too, without the answers
                "deadline": int(until.timestamp() * 1000) if until is not None else None,
            },
            "question": True,
        }
    if undo.taken:
        return {
            "undo": {"text": taken_back(undo.seat, seat, names), "ended": True},
            "question": False,
        }
    if undo.refused:
        if undo.refused == "declined" and undo.by is not None and undo.by == seat:
            text = _("You declined: the move stands.")
        elif undo.refused == "declined" and undo.by is not None:
            text = _("%(name)s declined: the move stands.") % {"name": names[undo.by]}
        else:
            text = _("Not everyone answered in time: the move stands.")
        return {"undo": {"text": text, "ended": True}, "question": False}
    offer = viewer is not None and not viewer.automated and may_ask(game, seat, seated.values())
    return {"undo": {"offer": True} if offer else {}, "question": False}
