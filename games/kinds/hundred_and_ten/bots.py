"""Hundred and Ten's machine players behind the protocol's `Bot` (pure: no Django).

"naive" is the reference's naive bot (rules section 16, `engine.bots.suggestion`): it reads
only the active seat's own hand and public facts. "random" plays a uniformly random legal
move (a discard gives up a random subset of the hand): for tests and benchmarks.
"""

from __future__ import annotations

import random

from games.kinds.levels import EasyBot
from games.kinds.protocol import Bot
from games.kinds.search import SearchBot

from .engine.bots import suggestion
from .engine.moves import Discard, Move
from .engine.rules import legal_moves
from .engine.seam import RULES
from .engine.state import GameState, Status
from .search import HundredAndTenSearch


class NaiveBot:
    def choose(self, state: GameState, seat: int, rng: random.Random) -> Move:
        if seat != state.active_seat:
            raise ValueError(f"Seat {seat} is not the seat to act.")
        return suggestion(state)


class RandomBot:
    def choose(self, state: GameState, seat: int, rng: random.Random) -> Move:
        if state.status is Status.DISCARD and seat == state.active_seat:
            hand = state.hands[seat]
            return Discard(seat, tuple(card for card in hand if rng.random() < 0.5))
        return rng.choice(legal_moves(state, seat))


NAIVE = NaiveBot()

BOTS: dict[str, Bot[GameState, Move]] = {
    "easy": EasyBot(RULES, NAIVE),
    "hard": SearchBot(RULES, HundredAndTenSearch(), playouts=240, min_samples=8),
    "medium": NAIVE,
    "naive": NAIVE,
    "random": RandomBot(),
}
