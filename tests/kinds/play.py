"""Games played for the engines' property and bot tests: a random play checked step by step,
and every choice a bot makes in a set of states."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def checked_play(rules: Any, state: Any, step: Callable[[Any], Any], limit: int) -> Any:
    """`step` (a move that checks every invariant on the way) applied until nobody is to act,
    at most `limit` times; the state reached."""
    for _ in range(limit):
        if not rules.to_act(state):
            break
        state = step(state)
    return state


def choices(rules: Any, bot: Any, states: Iterable[Any]) -> Iterator[tuple[Any, int, Any]]:
    """(state, seat, action) for each seat to act in each of `states`, the action being what
    `bot` chooses there (with one seeded randomness for the whole run)."""
    rng = random.Random(1)
    for state in states:
        for seat in rules.to_act(state):
            yield state, seat, bot.choose(state, seat, rng)
