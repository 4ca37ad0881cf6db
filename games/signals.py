"""What the table service announces about a change, for the parts that build on it.

The service (`games.services`) imports neither the mail, nor the pushes (`games.live`), nor the
table's rendering (`games.presenters`), nor the deadline sweep that makes bot moves
(`games.clocks.deadlines`): they build on the service, so it tells them through these
signals, connected in `GamesConfig.ready` (in the order they must run).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.dispatch import Signal

if TYPE_CHECKING:
    from games.models import Game, Membership


@dataclass(frozen=True)
class TableChange:
    """A committed (or committing) change of a game: moves, a start, a seat changing hands."""

    game: Game
    members: tuple[Membership, ...]  # every membership, as the change left them
    member_ids: list[int]  # the seated people
    fresh: list[int]  # the people whose turn has just begun
    ended: bool
    turn_changed: bool
    banner_for: list[int] | None  # whose lobby banner may change; None: everybody's
    moves: dict[str, Any] | None  # what another process needs to follow (services/change.py)
    bots_to_move: bool  # a seat the server plays is to act


# Inside the change's transaction, for what must be written with it (the mail rows).
# Argument: change.
table_changed = Signal()

# A game's new version is committed; sent first, so the process can prepare what every
# redraw of that version shares. Arguments: game, members, moves (TableChange.moves).
version_committed = Signal()

# After commit, then: the pushes to every page, and the sweep's wake-up for a bot to move.
# Argument: change.
table_committed = Signal()
