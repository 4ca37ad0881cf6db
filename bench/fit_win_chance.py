"""Fit Hundred and Ten's win-chance model (the hard bot's value of a round: search.py).

    .venv/bin/python bench/fit_win_chance.py [--games 40000]

Plays `--games` games with the medium bot in every seat of four, notes the scores at the
start of every round and who won in the end, and finds the (power, scale) that give those
round starts the highest likelihood under `search.win_chance`:

    chance of seat i = exp(-need_i ** power / scale) / sum over seats of the same,

need_i being the points seat i still needs to reach the target. It prints the fit and how
well calibrated it is; `search.py` keeps the constants (NEED_POWER, NEED_SCALE) it found.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.hundred_and_ten.engine.bots import suggestion  # noqa: E402
from games.kinds.hundred_and_ten.engine.seam import RULES  # noqa: E402
from games.kinds.hundred_and_ten.engine.state import Status  # noqa: E402
from games.kinds.hundred_and_ten.search import win_chance  # noqa: E402

TARGET = 110


def round_starts(games: int) -> list[tuple[tuple[int, ...], frozenset[int]]]:
    """(scores at a round's start, the game's winners) for every round of `games` games."""
    rows = []
    for game in range(games):
        state = RULES.initial_state(f"fit:{game}", 4, {})
        starts: list[tuple[int, ...]] = []
        seen = -1
        while waiting := RULES.to_act(state):
            if state.status is Status.BIDDING and not state.bids and state.round_index != seen:
                seen = state.round_index
                starts.append(tuple(state.scores))
            state = RULES.apply(state, min(waiting), suggestion(state))
        outcome = RULES.outcome(state)
        assert outcome is not None
        rows += [(scores, outcome.winners) for scores in starts]
    return rows


def tally(rows: list[tuple[tuple[int, ...], frozenset[int]]]) -> dict[tuple[int, ...], list[float]]:
    """Wins per seat by scores at a round's start (a shared win counts as a share)."""
    found: dict[tuple[int, ...], list[float]] = {}
    for scores, winners in rows:
        wins = found.setdefault(scores, [0.0] * len(scores))
        for seat in winners:
            wins[seat] += 1 / len(winners)
    return found


def log_likelihood(
    tallied: dict[tuple[int, ...], list[float]], power: float, scale: float
) -> float:
    total = count = 0.0
    for scores, wins in tallied.items():
        p = win_chance(scores, TARGET, power, scale)
        total += sum(w * math.log(max(q, 1e-12)) for w, q in zip(wins, p, strict=True))
        count += sum(wins)
    return total / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000)
    games = parser.parse_args().games
    rows = round_starts(games)
    print(f"{len(rows)} round starts from {games} games")
    print(f"no model (a quarter each): log-likelihood {math.log(0.25):.4f}")
    tallied = tally(rows)
    fits = [
        (log_likelihood(tallied, power / 100, scale / 4), power / 100, scale / 4)
        for power in range(50, 91, 5)
        for scale in range(6, 29)
    ]
    best, power, scale = max(fits)
    print(f"best: power {power:.2f}, scale {scale:.2f}, log-likelihood {best:.4f}")
    print("calibration (seat 0): predicted band, round starts, predicted mean, won")
    for band in range(10):
        low, high = band / 10, (band + 1) / 10
        picked = [
            (p, (0 in winners) / len(winners))
            for scores, winners in rows
            if low <= (p := win_chance(scores, TARGET, power, scale)[0]) < high
        ]
        if picked:
            predicted = sum(p for p, _ in picked) / len(picked)
            won = sum(w for _, w in picked) / len(picked)
            print(f"  {low:.1f}-{high:.1f}  {len(picked):6d}  {predicted:.3f}  {won:.3f}")


if __name__ == "__main__":
    main()
