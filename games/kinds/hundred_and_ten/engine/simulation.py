"""Bot-only games, for benchmarks and balance checks (`manage.py simulate`)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .bots import suggestion
from .moves import Discard, Move
from .rules import DEFAULT_TARGET, apply, legal_moves, new_game
from .state import GameState, Status

Policy = Callable[[GameState, random.Random], Move]


def naive_policy(state: GameState, rng: random.Random) -> Move:
    """The reference's naive bot (deterministic)."""
    return suggestion(state)


def random_policy(state: GameState, rng: random.Random) -> Move:
    """A uniformly random legal move; a discard gives up a random subset of the hand."""
    seat = state.active_seat
    assert seat is not None
    if state.status is Status.DISCARD:
        hand = state.hands[seat]
        return Discard(seat, tuple(c for c in hand if rng.random() < 0.5))
    return rng.choice(legal_moves(state, seat))


POLICIES: dict[str, Policy] = {"naive": naive_policy, "random": random_policy}


@dataclass(frozen=True)
class SimulationResult:
    games: int
    actions: int
    rounds: int
    seconds: float
    wins: tuple[int, ...]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def simulate(
    games: int,
    players: int,
    seed: str,
    bots: Sequence[str],
    target: int = DEFAULT_TARGET,
) -> SimulationResult:
    """Play `games` bot-only games; game i is dealt from f"{seed}:{i}". Deterministic."""
    if len(bots) != players:
        raise ValueError(f"Give one bot per seat: {players} names, not {len(bots)}.")
    unknown = [b for b in bots if b not in POLICIES]
    if unknown:
        raise ValueError(f"Unknown bot {unknown[0]!r}; choose from {', '.join(POLICIES)}.")
    policies = [POLICIES[b] for b in bots]
    wins = [0] * players
    actions = rounds = 0
    started = time.perf_counter()
    for index in range(games):
        rng = random.Random(f"{seed}:{index}:bots")
        state = new_game(f"{seed}:{index}", players, target)
        while state.status is not Status.WON:
            state = apply(state, policies[state.active_seat](state, rng))  # type: ignore[index]
            actions += 1
        wins[state.winner] += 1  # type: ignore[index]
        rounds += state.round_index + 1
    seconds = time.perf_counter() - started
    return SimulationResult(games, actions, rounds, seconds, tuple(wins))
