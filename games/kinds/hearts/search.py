"""Hearts' part of the hard bot (`games.kinds.search.SearchBot`): pure Python, no Django.

* `sample(view, rng)` (a `Sampler`, sampling.py): a full state the seat's view could have
  come from, the cards it cannot see dealt at random under what the play has shown.
* `candidates(view)`: the naive (medium) bot's choice first, then one card of every other
  group of equivalent legal cards (cards of a suit with no card between them that another
  seat may hold or that lies on the table, the Q♠ apart, play out alike). Passing, a few
  sensible passes of three cards (`pass_candidates`).
* `playout(state, seat, rng)`: the passes still to make and the rest of the hand played by
  the naive policy on card masks (`playout.py`, many times faster than building views), to
  the end of the hand; the value is the other seats' mean points minus the seat's own, after
  the moon rule (so shooting the moon is worth 26 and suffering one -8.7).
* `budget(view, playouts)`: more playouts when fewer cards remain to play (a playout is
  cheaper), so that every decision takes about the same time; the pass, whose playouts are
  the dearest, gets the usual budget because it matters most.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .engine.actions import PLAYS, Action, Pass
from .engine.cards import BIT, FULL_MASK, QUEEN_OF_SPADES, Card, mask_of
from .engine.state import NO_PASSES, OVER, PASS, HeartsState
from .engine.view import HeartsView
from .playout import hand_points, naive_card
from .sampling import Sampler

_QS = int(QUEEN_OF_SPADES)
_ACE_OF_SPADES = _QS + 2
_KING_OF_SPADES = _QS + 1
_SPADES = 3


# --- Candidates --------------------------------------------------------------------------------


def play_candidates(view: HeartsView) -> list[Action]:
    """The naive card first, then one card of every other group of equivalent legal cards."""
    mine = mask_of(view.hand)
    first = naive_card(mine, [c for _, c in view.trick], view.first_trick, view.hearts_broken)
    done = 0
    for trick in view.tricks:
        done |= mask_of(trick.cards)
    # Cards another seat may hold or that lie on the current trick: they tell cards apart.
    outside = FULL_MASK & ~mine & ~done
    groups: list[list[int]] = []
    previous = -1
    for card in view.legal_plays:
        if (
            previous >= 0
            and card != _QS
            and previous != _QS
            and card // 13 == previous // 13
            and not outside & (BIT[card] - 1) & ~(BIT[previous + 1] - 1)
        ):
            groups[-1].append(card)
        else:
            groups.append([card])
        if card != _QS:
            previous = card
    out: list[Action] = [PLAYS[first]]
    for group in groups:
        if first not in group:
            out.append(PLAYS[group[-1]])
    return out


def pass_candidates(hand: Sequence[Card]) -> list[Pass]:
    """A handful of sensible passes from a 13-card `hand`, the naive bot's first:

    * the naive pass (Q♠, A♠, K♠, then the highest cards);
    * holding the Q♠ with three or more lower spades (it is guarded): the naive order
      without the Q♠, and the three highest cards that are not spades;
    * voiding clubs or diamonds when three or fewer are held: that suit, filled up in the
      naive order (without a guarded Q♠);
    * the A♠ and K♠ (and the Q♠ unless guarded), then the highest hearts;
    * the three highest cards whatever their suit."""
    order = _naive_order(hand)
    low_spades = sum(1 for c in hand if c // 13 == _SPADES and c < _QS)
    guarded = _QS in hand and low_spades >= 3
    fill = [c for c in order if c != _QS] if guarded else order
    chosen: list[Sequence[Card]] = [order[:3]]
    if guarded:
        chosen.append(fill[:3])
        chosen.append([c for c in order if c // 13 != _SPADES][:3])
    for suit in sorted((0, 1), key=lambda s: sum(1 for c in hand if c // 13 == s)):
        cards = [c for c in hand if c // 13 == suit]
        if 0 < len(cards) <= 3:
            chosen.append(cards + [c for c in fill if c not in cards][: 3 - len(cards)])
    danger = [c for c in fill if c in (_QS, _ACE_OF_SPADES, _KING_OF_SPADES)]
    hearts = sorted((c for c in hand if c // 13 == 2), reverse=True)
    chosen.append(list(dict.fromkeys(danger + hearts + fill))[:3])
    chosen.append(sorted(hand, key=lambda c: (-(c % 13), c // 13 != 2, c // 13))[:3])
    out: list[Pass] = []
    for three in chosen:
        action = Pass(tuple(sorted(three)))
        if len(set(three)) == 3 and action not in out:
            out.append(action)
    return out


def _naive_order(hand: Sequence[Card]) -> list[Card]:
    """`hand` in the naive bot's pass order (the first three are its pass)."""

    def priority(card: Card) -> tuple[int, int, int, int]:
        danger = (_QS, _ACE_OF_SPADES, _KING_OF_SPADES)
        first = danger.index(card) if card in danger else 3
        return (first, -(card % 13), 0 if card // 13 == 2 else 1, card // 13)

    return sorted(hand, key=priority)


# --- Playouts ----------------------------------------------------------------------------------


def value(taken: Sequence[int], seat: int) -> float:
    """How good a hand's penalty points `taken` (before the moon rule) are for `seat`: the
    other seats' mean points minus its own, after the moon rule."""
    if 26 in taken:
        return 26.0 if taken[seat] == 26 else -26.0 + 52.0 / 3
    mine = taken[seat]
    return (sum(taken) - mine) / 3 - mine


def _hand_over(state: HeartsState) -> bool:
    """Whether `state` is past the hand being searched (the next hand dealt, or the end)."""
    return state.phase == OVER or (
        not state.trick and not state.tricks and state.passes == NO_PASSES
    )


class HeartsSearch:
    """Hearts' `Searchable` (see the module docstring)."""

    def __init__(self) -> None:
        self._sampler: Sampler | None = None

    def candidates(self, view: HeartsView) -> Sequence[Action]:
        if view.can_pass:
            return pass_candidates(view.hand)
        if view.legal_plays:
            return play_candidates(view)
        return ()

    def sample(self, view: HeartsView, rng: random.Random) -> HeartsState:
        # The search samples one view many times: work out what it tells once.
        sampler = self._sampler
        if sampler is None or sampler.view is not view:
            sampler = self._sampler = Sampler(view)
        return sampler.draw(rng)

    def playout(self, state: HeartsState, seat: int, rng: random.Random) -> float:
        if _hand_over(state):
            return value(state.history[-1].taken, seat)
        return value(hand_points(state), seat)

    def budget(self, view: HeartsView, playouts: int) -> int:
        # About the same time for every decision: a playout costs a fixed part (the sample's
        # share, the candidate applied) and a part per card left to play. One from the pass
        # plays the passes and the whole hand, but the pass matters most: the usual budget.
        if view.phase == PASS:
            return playouts
        return playouts * 78 // (26 + sum(view.hand_sizes))
