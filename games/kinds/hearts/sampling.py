"""Hearts' hard bot, what a seat can know of the cards it has not seen: pure Python, no
Django (the search: search.py).

`Sampler(view).draw(rng)`: a full state the seat's view could have come from. The seat's own
hand, every card played, the points and the history are copied; the cards it cannot see
are dealt at random to the other seats, each getting as many as it holds, under what the
play has shown: a seat that did not follow the led suit holds none of it, a seat that
threw a point card on the first trick (void in clubs) held nothing but points, a seat that
led a heart before hearts were broken held nothing but hearts. After the exchange, the
three cards the seat passed are in the receiver's hand unless played since, and the three
it received were the passer's pass; the other two passes (which the seat never sees) are
three cards the receiver held. During the passing, a seat the view shows as passed has
passed what the naive bot would pass from its sampled hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .engine.cards import (
    BIT,
    FULL_MASK,
    HEARTS_MASK,
    POINTS,
    POINTS_MASK,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    cards_of,
    mask_of,
)
from .engine.state import (
    NO_PASSES,
    PASS,
    PLAY,
    SEATS,
    HeartsState,
    SeededDeals,
    Trick,
    pass_offset,
)
from .engine.view import HeartsView
from .playout import naive_pass

# Where a sampled state's later deals come from: never used by the search (its playouts end
# with the hand), but a state needs one, and it must not depend on anything hidden.
_SOURCE = SeededDeals("hearts-search")
_QS = int(QUEEN_OF_SPADES)
_ACE_OF_SPADES = _QS + 2
_KING_OF_SPADES = _QS + 1
_SPADES = 3


# --- What the play has shown -------------------------------------------------------------------


def _learn(
    plays: Sequence[tuple[int, int]],
    first: bool,
    broken: bool,
    allowed: list[int],
    played_by: list[int],
) -> None:
    """Narrow `allowed` (the cards each seat may still hold) by one trick's `plays`, and
    record who played what in `played_by`."""
    leader, led = plays[0]
    played_by[leader] |= BIT[led]
    suit = led // 13
    if suit == 2 and not broken:
        allowed[leader] &= HEARTS_MASK  # a heart led before hearts broke: nothing else held
    for seat, card in plays[1:]:
        played_by[seat] |= BIT[card]
        if card // 13 != suit:
            allowed[seat] &= ~SUIT_MASKS[suit]
            if first and POINTS[card]:
                allowed[seat] &= POINTS_MASK  # points on the first trick: nothing else held


def constraints(view: HeartsView) -> tuple[list[int], list[int]]:
    """(allowed, played_by): per seat, the mask of cards it may still hold as far as the play
    shows, and the mask of the cards it played this hand."""
    allowed = [FULL_MASK] * SEATS
    played_by = [0] * SEATS
    broken = False
    tricks: tuple[Trick, ...] = view.tricks
    for index, trick in enumerate(tricks):
        _learn(trick.plays, index == 0, broken, allowed, played_by)
        broken = broken or any(c // 13 == 2 for c in trick.cards)
    if view.trick:
        _learn(view.trick, not tricks, broken, allowed, played_by)
    return allowed, played_by


# --- Dealing the unseen cards ------------------------------------------------------------------


def _mask(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _feasible(count: list[int], cap: list[int]) -> bool:
    """Hall's condition: the cards left, counted by the set of seats (3 bits) that may take
    them, fit into the seats' remaining room (`cap`)."""
    c0, c1, c2 = cap
    return (
        count[1] <= c0
        and count[2] <= c1
        and count[4] <= c2
        and count[1] + count[2] + count[3] <= c0 + c1
        and count[1] + count[4] + count[5] <= c0 + c2
        and count[2] + count[4] + count[6] <= c1 + c2
    )


class Dealer:
    """Deals the cards of `unseen` (a mask) at random to three seats: `need[i]` cards to seat
    i, each card to a seat whose `allowed[i]` mask holds it (ValueError if that cannot be
    done). In `deal(rng)` the constrained cards go first, in random order, each to a seat
    drawn in proportion to its remaining room among those that keep the rest dealable
    (Hall's condition); the free cards then fill the remaining room at random."""

    def __init__(self, unseen: int, need: Sequence[int], allowed: Sequence[int]) -> None:
        a0, a1, a2 = allowed
        self.need = list(need)
        self.free: list[int] = []
        self.bound: list[tuple[int, int]] = []
        count = [0] * 8
        for card in cards_of(unseen):
            kind = (a0 >> card & 1) | (a1 >> card & 1) << 1 | (a2 >> card & 1) << 2
            if kind == 7:
                self.free.append(card)
            else:
                self.bound.append((card, kind))
                count[kind] += 1
        if count[0] or not _feasible(count, self.need) or sum(need) != unseen.bit_count():
            raise ValueError("No deal fits what the play has shown.")
        self.count = count

    def deal(self, rng: random.Random) -> list[int]:
        """The three hands (masks) of one random deal."""
        draw = rng.random
        cap = list(self.need)
        out = [0, 0, 0]
        if self.bound:
            count = list(self.count)
            for card, kind in sorted(self.bound, key=lambda _: draw()):
                count[kind] -= 1
                options = [i for i in range(3) if kind >> i & 1 and cap[i]]
                while True:
                    if not options:
                        raise ValueError("No deal fits what the play has shown.")
                    x = int(draw() * sum(cap[i] for i in options))
                    for chosen in options:
                        x -= cap[chosen]
                        if x < 0:
                            break
                    cap[chosen] -= 1
                    if _feasible(count, cap):
                        out[chosen] |= BIT[card]
                        break
                    cap[chosen] += 1
                    options.remove(chosen)
        free = sorted(self.free, key=lambda _: draw())
        n0, n1 = cap[0], cap[0] + cap[1]
        out[0] |= _mask(free[:n0])
        out[1] |= _mask(free[n0:n1])
        out[2] |= _mask(free[n1:])
        return out


def _pick3(pool: int, rng: random.Random) -> int:
    """Three cards of `pool` (a mask of at least three) drawn at random, as a mask."""
    cards = cards_of(pool)
    picked = 0
    while picked.bit_count() < 3:
        picked |= BIT[cards[int(rng.random() * len(cards))]]
    return picked


class Sampler:
    """Samples of one view: what the view tells is worked out once (`Sampler(view)`), then
    each `draw(rng)` deals the unseen cards anew (see the module docstring)."""

    def __init__(self, view: HeartsView) -> None:
        me = view.seat
        if me is None:
            raise ValueError("A spectator has no hand to search from.")
        self.view = view
        self.me = me
        offset = pass_offset(view.hand_index)
        self.offset = offset
        mine = mask_of(view.hand)
        allowed, played_by = constraints(view)
        self.played_by = played_by
        played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
        known = [0] * SEATS
        # After the exchange (in a passing hand) the passes are known or to be made up.
        self.exchanged = view.phase != PASS and offset != 0
        my_pass = mask_of(view.my_pass) if view.my_pass else 0
        if self.exchanged:
            known[(me + offset) % SEATS] = my_pass & ~played
        self.known = known
        self.others = [s for s in range(SEATS) if s != me]
        unseen = FULL_MASK & ~mine & ~played & ~(known[0] | known[1] | known[2] | known[3])
        need = [view.hand_sizes[s] - known[s].bit_count() for s in self.others]
        self.dealer = Dealer(unseen, need, [allowed[s] for s in self.others])
        passes = [0] * SEATS
        passes[me] = my_pass
        self.giver = (me - offset) % SEATS
        if self.exchanged:
            passes[self.giver] = mask_of(view.received or ())
        self.passes = passes
        # The seats whose pass (made but unseen) the sample makes up.
        if self.exchanged:
            self.made_up = [s for s in self.others if s != self.giver]
        elif view.phase == PASS:
            self.made_up = [s for s in self.others if view.passed[s]]
        else:
            self.made_up = []
        if view.phase == PLAY:
            (to_play,) = view.to_act
            leader = view.trick_leader if view.trick_leader is not None else to_play
        else:
            to_play = leader = -1
        hands = [0] * SEATS
        hands[me] = mine
        self.hands = hands
        t0, t1, t2, t3 = view.taken
        s0, s1, s2, s3 = view.totals
        self.template = HeartsState(
            source=_SOURCE,
            target=view.target,
            hand_index=view.hand_index,
            phase=view.phase,
            hands=NO_PASSES,
            passes=NO_PASSES,
            to_play=to_play,
            leader=leader,
            trick=tuple(card for _, card in view.trick),
            tricks=view.tricks,
            hearts_broken=view.hearts_broken,
            taken=(t0, t1, t2, t3),
            totals=(s0, s1, s2, s3),
            history=view.history,
        )

    def draw(self, rng: random.Random) -> HeartsState:
        """A state of the view with the unseen cards dealt at random."""
        dealt = self.dealer.deal(rng)
        hands = list(self.hands)
        known = self.known
        for i, s in enumerate(self.others):
            hands[s] = known[s] | dealt[i]
        passes = self.passes
        if self.made_up:
            passes = list(passes)
            for s in self.made_up:
                if self.exchanged:
                    receiver = (s + self.offset) % SEATS
                    passes[s] = _pick3(hands[receiver] | self.played_by[receiver], rng)
                else:
                    passes[s] = naive_pass(hands[s])
        h0, h1, h2, h3 = hands
        p0, p1, p2, p3 = passes
        return self.template._replace(hands=(h0, h1, h2, h3), passes=(p0, p1, p2, p3))
