"""A change at the table as another process needs it to follow without reading the database.

After commit a move's push carries, besides the new version, what that move changed
(`change_of`): the moves themselves, the game row's fields that moves change, and each
member's. A process holding the table of the version before applies it
(`games.presenters.basis.adopt`) instead of reloading. Apart from games/services/recording.py,
which records moves: this is the format both processes agree on (written here, read by
games/presenters/basis.py), and it follows what a table keeps, not how a move is recorded.
"""

from __future__ import annotations

from typing import Any

from games.live.committed import game_identity
from games.models import Game, Membership

Moves = list[tuple[int, Any]]  # (seat, action), in the order they were recorded


def change_of(
    game: Game, rules: Any, moves: Moves, members: tuple[Membership, ...]
) -> dict[str, Any]:
    """What another process needs to go from its table of the version before `moves` to
    this one with no database read (`games.presenters.basis.adopt`): the moves, the game row's
    fields that moves change, and each member's. Plain JSON: it crosses the channel layer.
    The members are as this process's own table has them."""
    finished = game.finished_at.isoformat() if game.finished_at is not None else None
    return {
        "identity": list(game_identity(game)),
        "from": game.version - len(moves),
        "actions": [[seat, rules.action_to_json(action)] for seat, action in moves],
        "row": {
            "action_count": game.action_count,
            "status": game.status,
            "outcome": game.outcome,
            "finished_at": finished,
            # Not changed by moves, but by the organizer at any time (games/talk/): a
            # following process would otherwise keep the setting of its first read.
            "talk_mode": game.talk_mode,
            # Whether the mover may ask to take the move back (games/services/undo.py).
            "undo": game.undo,
        },
        "members": [
            [
                m.pk,
                m.must_act,
                m.deadline.isoformat() if m.deadline is not None else None,
                m.automated,
                m.cover_note,
            ]
            for m in members
        ],
    }
