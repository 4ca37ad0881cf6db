"""The property every game's `undoable` keeps, checked over random legal play: an action the
rules let a seat take back was that seat's alone to take (sequential, its turn), stayed in
the hand it was taken in and, in a trick game, completed no trick."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def check_undoable_play(
    rules: Any,
    state: Any,
    seats: int,
    rng: random.Random,
    limit: int,
    tricks_done: Callable[[Any], int] | None = None,
) -> tuple[int, Any]:
    """Random legal actions from `state` (at most `limit`, by any seat with a legal action:
    out-of-turn ones too, such as Hundred and Ten's pre-pass), asserting the property for
    every action `rules.undoable` allows: how many it allowed, and the state reached."""
    allowed = 0
    for _ in range(limit):
        if not rules.to_act(state):
            break
        movers = [s for s in range(seats) if rules.legal_actions(state, s)]
        seat = rng.choice(movers)
        action = rng.choice(rules.legal_actions(state, seat))
        after = rules.apply(state, seat, action)
        if rules.undoable(state, seat, action, after):
            allowed += 1
            assert rules.to_act(state) == frozenset({seat}), (seat, action)
            assert rules.hand_number(after) == rules.hand_number(state), (seat, action)
            if tricks_done is not None:
                assert tricks_done(after) == tricks_done(state), (seat, action)
        state = after
    return allowed, state
