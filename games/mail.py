"""Word by email (issue 20): being-built stub; the functions below are the API the rest of
the platform calls. See the module's final docstring once written."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from games.models import Game


def turn_began(game: Game, user_ids: Iterable[int]) -> None:
    """It has just become these users' turn in `game` (called inside the move's
    transaction): queue one turn email each, sent after a short delay unless they have the
    game open by then or their turn has passed."""


def game_ended(game: Game) -> None:
    """`game` has just ended (inside the transaction): queue a word to each human player."""


def send_due(now: datetime | None = None) -> int:
    """Send (or drop) every queued email that is due; called by the deadline sweep of each
    server process (games/deadlines.py). Returns how many were handled."""
    return 0
