"""The pass phase's questions: who must pass, from which cards, and sample passes.

A pass is three distinct cards of one's own hand; there are C(13, 3) = 286 of them. The
protocol's `legal_actions` offers `representative_passes` (a handful), a table offers the
hand (`pass_candidates`) and lets the player pick three.
"""

from __future__ import annotations

from itertools import combinations

from .actions import Pass
from .cards import Card, cards_of
from .state import PASS, SEATS, HeartsState


def has_passed(state: HeartsState, seat: int) -> bool:
    """Whether `seat` has submitted its pass this hand."""
    return state.passes[seat] != 0


def can_pass(state: HeartsState, seat: int) -> bool:
    """Whether `seat` must still choose its pass."""
    return state.phase == PASS and 0 <= seat < SEATS and state.passes[seat] == 0


def pass_candidates(state: HeartsState, seat: int) -> tuple[Card, ...]:
    """The cards `seat` may choose its pass from (its hand), or () when it cannot pass."""
    return cards_of(state.hands[seat]) if can_pass(state, seat) else ()


def representative_passes(state: HeartsState, seat: int) -> tuple[Pass, ...]:
    """A few legal passes for `seat` (empty when it cannot pass): the three highest cards,
    the three lowest, and every three cards in a row of the sorted hand, so every card of
    the hand appears in at least one. `apply` accepts all 286 passes of three held cards."""
    if not can_pass(state, seat):
        return ()
    hand = cards_of(state.hands[seat])
    by_rank = sorted(hand, key=lambda c: (c % 13, c // 13))
    chosen = [tuple(sorted(by_rank[-3:])), tuple(sorted(by_rank[:3]))]
    chosen += [hand[i : i + 3] for i in range(len(hand) - 2)]
    return tuple(Pass(cards) for cards in dict.fromkeys(chosen))


def all_passes(state: HeartsState, seat: int) -> tuple[Pass, ...]:
    """Every legal pass of `seat` (286 of them in a passing hand, else none)."""
    if not can_pass(state, seat):
        return ()
    return tuple(Pass(cards) for cards in combinations(cards_of(state.hands[seat]), 3))
