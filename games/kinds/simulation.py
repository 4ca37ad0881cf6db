"""Bot-only games of any game kind, over the rules protocol (benchmarks, bot strength).

`play(...)` plays one game; `simulate(...)` plays many with the line-up rotated one seat
per game, so every bot sits in every seat equally often, and collects per line-up position:
the share of wins (a shared win counts 1/k to each of the k winners), the final scores, the
number of hands, and the time each bot took per decision. Deterministic for a seed: game `i`
is dealt from f"{seed}:{i}" and its bots draw from their own seeded generators.

`play_rotated` and `run_games` are the parts `manage.py analyse` shares (games/kinds/analysis.py):
the same games, dealt and rotated the same way, with their action logs kept.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .protocol import Bot, Outcome, Rules

T = TypeVar("T")


@dataclass(frozen=True)
class PlayedGame:
    outcome: Outcome
    actions: int
    hands: int
    # Seconds per decision, by seat.
    decisions: tuple[tuple[float, ...], ...]
    # Every (seat, action) in order, when `play` is asked to keep it (the analysis reads it).
    log: tuple[tuple[int, Any], ...] = ()


def play(
    rules: Rules[Any, Any, Any],
    seats: int,
    options: Mapping[str, Any],
    seed: str,
    bots: Sequence[Bot[Any, Any]],
    *,
    max_actions: int = 100_000,
    keep_log: bool = False,
) -> PlayedGame:
    """One game with `bots[s]` playing seat `s`. In a simultaneous phase the lowest waiting
    seat acts first (the others cannot see its choice, so the order changes nothing). With
    `keep_log`, the game's (seat, action) log comes back too."""
    state = rules.initial_state(seed, seats, options)
    rngs = [random.Random(f"{seed}:bot:{seat}") for seat in range(seats)]
    timings: list[list[float]] = [[] for _ in range(seats)]
    log: list[tuple[int, Any]] = []
    actions = 0
    while True:
        waiting = rules.to_act(state)
        if not waiting:
            break
        seat = min(waiting)
        started = time.perf_counter()
        action = bots[seat].choose(state, seat, rngs[seat])
        timings[seat].append(time.perf_counter() - started)
        state = rules.apply(state, seat, action)
        if keep_log:
            log.append((seat, action))
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"game {seed!r} did not end within {max_actions} actions")
    outcome = rules.outcome(state)
    if outcome is None:
        raise RuntimeError(f"game {seed!r} waits for nobody but is not over")
    return PlayedGame(
        outcome, actions, rules.hand_number(state) + 1, tuple(map(tuple, timings)), tuple(log)
    )


@dataclass
class PositionStats:
    """What one line-up position (one bot of the line-up) did over all games."""

    label: str
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    per_hand: list[float] = field(default_factory=list)


@dataclass
class SimulationResult:
    games: int
    seats: int
    actions: int
    seconds: float
    positions: list[PositionStats]
    decisions: dict[str, list[float]]  # bot label -> seconds per decision
    hands: int = 0  # hands (deals) played in all the games
    # Each game in order: the bot of each seat and how it ended (`simulate --rated`).
    played: list[tuple[tuple[str, ...], Outcome]] = field(default_factory=list)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def seats_of(index: int, seats: int) -> list[int]:
    """The seat of each line-up position in game `index` (rotated one seat per game, which
    keeps partners together in a team game seated alternately)."""
    return [(position + index) % seats for position in range(seats)]


def lineup_at(index: int, lineup: Sequence[str]) -> list[str]:
    """The bot of each seat in game `index`: line-up position `p` sits at `seats_of`'s seat."""
    at_seat = [""] * len(lineup)
    for position, seat in enumerate(seats_of(index, len(lineup))):
        at_seat[seat] = lineup[position]
    return at_seat


def play_rotated(
    rules: Rules[Any, Any, Any],
    seats: int,
    options: Mapping[str, Any],
    seed: str,
    lineup: Sequence[str],
    bots: Mapping[str, Bot[Any, Any]],
    index: int,
    *,
    keep_log: bool = False,
) -> PlayedGame:
    """Game `index` of a run: dealt from f"{seed}:{index}", the line-up rotated."""
    at_seat = lineup_at(index, lineup)
    return play(
        rules, seats, options, f"{seed}:{index}", [bots[n] for n in at_seat], keep_log=keep_log
    )


def check_lineup(seats: int, lineup: Sequence[str], bots: Mapping[str, Bot[Any, Any]]) -> None:
    """ValueError unless `lineup` names one known bot per seat."""
    if len(lineup) != seats:
        raise ValueError(f"Give one bot per seat: {seats} names, not {len(lineup)}.")
    unknown = [name for name in lineup if name not in bots]
    if unknown:
        raise ValueError(f"Unknown bot {unknown[0]!r}; choose from {', '.join(bots)}.")


def run_games(one: Callable[[int], T], games: int, jobs: int = 1) -> list[T]:
    """`one(index)` for every game index, in order; with `jobs` > 1 shared out to that many
    worker processes (`one` must pickle: a module-level function or a partial of one)."""
    if jobs > 1:
        # A Pool, not a ProcessPoolExecutor: leaving the block (an error, Ctrl-C, the
        # command's SIGTERM) terminates its workers instead of waiting for their games.
        context = multiprocessing.get_context("spawn")
        with context.Pool(jobs) as pool:
            return pool.map(one, range(games), chunksize=max(1, games // (jobs * 8)))
    return [one(index) for index in range(games)]


def simulate(
    rules: Rules[Any, Any, Any],
    seats: int,
    options: Mapping[str, Any],
    games: int,
    seed: str,
    lineup: Sequence[str],
    bots: Mapping[str, Bot[Any, Any]],
    *,
    jobs: int = 1,
) -> SimulationResult:
    """Play `games` games; in game `g`, line-up position `p` plays seat `(p + g) % seats`.

    With `jobs` > 1 the games are shared out to that many worker processes; each game is
    dealt and played from its own seeds, so the results are the same as with one."""
    check_lineup(seats, lineup, bots)
    positions = [PositionStats(label) for label in lineup]
    decisions: dict[str, list[float]] = {label: [] for label in lineup}
    actions = hands = 0
    started = time.perf_counter()
    one = functools.partial(play_rotated, rules, seats, options, seed, lineup, bots)
    results = run_games(one, games, jobs)
    games_played: list[tuple[tuple[str, ...], Outcome]] = []
    for index, played in enumerate(results):
        seat_of = seats_of(index, seats)
        games_played.append((tuple(lineup_at(index, lineup)), played.outcome))
        actions += played.actions
        hands += played.hands
        winners = played.outcome.winners
        for position, seat in enumerate(seat_of):
            stats = positions[position]
            score = played.outcome.scores[seat]
            stats.scores.append(score)
            stats.per_hand.append(score / played.hands)
            if seat in winners:
                team_game = played.outcome.winning_team is not None
                stats.wins += 1 if team_game else 1 / len(winners)
            decisions[lineup[position]].extend(played.decisions[seat])
    seconds = time.perf_counter() - started
    return SimulationResult(
        games, seats, actions, seconds, positions, decisions, hands, games_played
    )


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    if not values:
        return 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def share_interval(successes: float, trials: int) -> tuple[float, float]:
    """A win share and the half-width of its 95% interval (normal approximation)."""
    if trials <= 0:
        return 0.0, 0.0
    p = successes / trials
    return p, 1.96 * math.sqrt(max(p * (1 - p), 0.0) / trials)


def percentiles(values: Sequence[float], points: Sequence[int] = (50, 95, 99)) -> list[float]:
    """The given percentiles of `values` (nearest rank), 0.0 for none."""
    if not values:
        return [0.0 for _ in points]
    ordered = sorted(values)
    return [ordered[min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1)] for p in points]
