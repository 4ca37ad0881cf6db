"""Which seats the server plays now and what their bots choose. The deadline sweep makes
their moves (`services.bot_moves`), in tests too (tests/conftest.py `play_bots`)."""

from __future__ import annotations

from typing import Any

from games.bots import thinking
from games.models import Game, Membership
from games.services.states import kind_of


def bot_action(game: Game, state: Any, seat: int, member: Membership, *, ahead: int = 0) -> Any:
    """What the bot of `member`'s seat plays now (its own level, or the kind's seat bot for
    a human seat handed over), as the next action but `ahead`. Its randomness is seeded by
    the game and the move number; a search runs in a worker process (games/bots/thinking.py)."""
    kind = kind_of(game)
    level = member.bot if member.bot in kind.bots else kind.seat_bot
    seed = f"{game.seed}:{game.action_count + ahead}:{seat}"
    return thinking.decide(kind, level, state, seat, seed)


def bot_seats(game: Game, state: Any, members: dict[int, Membership]) -> list[int]:
    """The seats to act now whose moves the server chooses, lowest first."""
    return [
        seat
        for seat in sorted(kind_of(game).rules.to_act(state))
        if (member := members.get(seat)) is not None and member.plays_itself
    ]
