"""A game's own statistics for its players' pages (pure: no Django).

Each game counts, from a finished game's final state, what its players care about for one
seat (`count`: whole numbers, summed over a player's rated games by games/ratings/), and
says how the sums read (`describe`: (label, value) pairs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Counts = dict[str, int]


@dataclass(frozen=True)
class Statistics:
    count: Callable[[Any, int], Counts]  # (final state, seat) -> counters
    describe: Callable[[Mapping[str, int]], list[tuple[str, str]]]


def per(total: int, count: int) -> str:
    """A mean with one decimal ("–" for none)."""
    return f"{total / count:.1f}" if count else "–"


def summed(before: Mapping[str, int], more: Mapping[str, int]) -> Counts:
    return {key: before.get(key, 0) + more.get(key, 0) for key in {*before, *more}}
