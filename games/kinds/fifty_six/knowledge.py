"""Fifty-Six's hard bot, what a seat can know of the cards it has not seen: `Knowledge`,
computed once from the seat's view (never from the state the platform holds), and its
random deals of those cards, from which `sampling.sample_hands` makes one world. Pure
Python (no Django).

The unseen cards (the other hands, and the face-down card while it is concealed from the
seat) are dealt at random, keeping every count the view shows and what the rules make
certain:
- a seat that did not follow the led suit holds none of it (for the bidder before the
  reveal this is about its hand: the face-down card does not count for following);
- the seat that asked for the trump and then played no trump held none;
- the face-down card came from the bidder's hand; while it is concealed the bidder may not
  lead its suit unless its hand holds nothing else: a suit the bidder led and then did not
  keep to is not the trump, and if the face-down card is of a suit the bidder led, the
  bidder has held nothing else since;
- the defenders held a card of the trump suit when it was chosen (else the hand is void:
  `sampling.py` checks it of each deal in play);
- the bidder knows its own face-down card; once shown everybody does, and it lies in the
  bidder's hand until played. In tani the partners who sit out keep their 8 cards.
What is likely rather than certain is sampled as the medium bot would have made it: each
seat's calls bound its hand's value by the naive estimate (a bid of v: at least v; a pass:
below the lowest bid it could make), and the face-down card is, four times in five
(`sampling.OFF_SUIT_KEEP`), the one the naive bot lays down (the weakest card of its best
suit) from the bidder's dealt hand (`Knowledge.lay_down`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .engine.cards import BIT, DECK_MASKS, SUIT_MASKS, SUIT_OF, Card, cards_of, deck_for
from .engine.state import LOW_BID_TOP, MAX_BID, NO_POINTS, PLAY, FiftySixState, FixedDeals
from .engine.view import FiftySixView
from .policy import estimate, lowest_bid, trump_choice

# A seat's hand is dealt again (up to _SEAT_TRIES times) while the naive bot would not have
# made that seat's calls with it (a bid above its estimate, a pass below), but kept anyway
# with this probability (the players are not all naive bots).
BID_KEEP = 0.05

ALL_SUITS = 0b1111
_SEAT_TRIES = 12


def _dummy_deal(seats: int) -> tuple[tuple[Card, ...], ...]:
    deck = deck_for(seats)
    return tuple(tuple(deck[s::seats]) for s in range(seats))


_DUMMY = {n: _dummy_deal(n) for n in (4, 6)}


def _deals(seats: int, hand_index: int) -> FixedDeals:
    """Deals for a sampled state: a playout stops when its hand ends, so the hands after it
    (one apply may deal the next) only have to exist."""
    return FixedDeals((_DUMMY[seats],) * (hand_index + 2))


# --- What the view shows about the hidden cards -------------------------------------------------


def picked(cards: Sequence[Card], count: int, rng: random.Random) -> int:
    """`count` of `cards` at random, as a mask: the first steps of the same shuffle (at most
    8 of 48 cards need 45 bits of the 128 drawn)."""
    pool = list(cards)
    size = len(pool)
    number = rng.getrandbits(128)
    mask = 0
    for i in range(count):
        number, j = divmod(number, size - i)
        j += i
        pool[i], pool[j] = pool[j], pool[i]
        mask |= BIT[pool[i]]
    return mask


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """`cards` in a random order: a Fisher–Yates shuffle whose indices are the digits of one
    random number in the factorial base (one call to the generator instead of one per card;
    the 256 bits leave a bias below 2**-90 for the at most 48! orders)."""
    out = list(cards)
    number = rng.getrandbits(256)
    for i in range(len(out) - 1, 0, -1):
        number, j = divmod(number, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _call_ranges(view: FiftySixView) -> list[tuple[int, int, int]]:
    """(seat, low, high) for every other seat that chose a call: with the naive bot's
    estimate of its dealt hand in [low, high) it would have made those calls (a bid of v:
    at least v, 4 more over a partner's bid; a pass: below the lowest bid it could make).
    The opener's forced first bid says nothing."""
    low = dict.fromkeys(range(view.seats), 0)
    high = dict.fromkeys(range(view.seats), 1000)
    top, top_bidder, low_bidders = 0, -1, 0
    for index, (seat, bid) in enumerate(view.calls):
        if index and seat != view.seat:
            lowest = lowest_bid(top, top_bidder, low_bidders, seat)
            extra = 4 if top_bidder >= 0 and (top_bidder ^ seat) & 1 == 0 else 0
            if bid is not None:
                low[seat] = max(low[seat], bid + extra)
            elif lowest < MAX_BID:
                high[seat] = min(high[seat], lowest + extra)
        if bid is not None:
            top, top_bidder = bid, seat
            if bid <= LOW_BID_TOP:
                low_bidders |= 1 << seat
    return [(s, low[s], high[s]) for s in range(view.seats) if low[s] or high[s] < 1000]


class Knowledge:
    """What the viewer knows of the hidden cards: computed once per view, then sampled from.

    `pool`: the cards it has not seen; `needs[s]`: cards of the pool seat s holds; `fixed[s]`:
    cards known to be in seat s's hand; `voids[s]`: suits (bits) seat s holds none of, in the
    pool's part of its hand; `face_down`: the face-down card is unknown to the viewer (to be
    sampled); `trump_suits`: the suits it may then have (bits); `bidder_leads`: suits the
    bidder led while it was concealed (if the face-down card is of such a suit, the bidder
    held only that suit since); `held[t]`: cards team t is known to have held this hand;
    `template`: the view's state, the hands and face-down card aside; `ranges`: (seat, low,
    high) for each other seat that chose a call: the naive bot's estimate of the hand it was
    dealt would lie in [low, high)."""

    __slots__ = (
        "view",
        "seats",
        "pool",
        "needs",
        "fixed",
        "voids",
        "face_down",
        "trump_suits",
        "bidder_leads",
        "held",
        "played_by",
        "order",
        "template",
        "ranges",
    )

    def __init__(self, view: FiftySixView) -> None:
        assert view.seat is not None
        self.view = view
        n = self.seats = view.seats
        seat = view.seat
        own = 0
        for card in view.hand:
            own |= BIT[card]
        played_by = [0] * n
        voids = [0] * n
        plays = [t.plays for t in view.tricks]
        if view.trick:
            plays.append(view.trick)
        for trick in plays:
            led = SUIT_OF[trick[0][1]]
            for s, card in trick:
                played_by[s] |= BIT[card]
                if SUIT_OF[card] != led:
                    voids[s] |= 1 << led
        played = 0
        for mask in played_by:
            played |= mask
        bidder = view.bidder if view.bidder is not None else -1
        known = view.trump_card
        pool = DECK_MASKS[n] & ~own & ~played
        needs = list(view.hand_sizes)
        needs[seat] = 0
        fixed = [0] * n
        fixed[seat] = own
        if known is not None:
            pool &= ~BIT[known]
            if view.trump_revealed and not played & BIT[known]:
                fixed[bidder] |= BIT[known]
                needs[bidder] -= 1
            asker = view.revealed_by
            if asker is not None and asker != bidder and asker != seat:
                # The asker had to play a trump if it held one: if none of its discards (one
                # of them followed the ask) is a trump, it held none.
                suit = SUIT_OF[known]
                discards = [
                    card
                    for trick in plays
                    for s, card in trick
                    if s == asker and SUIT_OF[card] != SUIT_OF[trick[0][1]]
                ]
                if discards and all(SUIT_OF[c] != suit for c in discards):
                    voids[asker] |= 1 << suit
        self.face_down = view.trump_down and known is None
        self.trump_suits = ALL_SUITS
        self.bidder_leads = 0
        if self.face_down:
            # Each trick the bidder led (all while concealed): if the face-down card is of
            # the led suit, every card the bidder played from then on is of that suit.
            for index, trick in enumerate(plays):
                if trick[0][0] != bidder:
                    continue
                suit = SUIT_OF[trick[0][1]]
                self.bidder_leads |= 1 << suit
                later = [c for t in plays[index:] for s, c in t if s == bidder]
                if any(SUIT_OF[c] != suit for c in later):
                    self.trump_suits &= ~(1 << suit)
        self.pool = pool
        self.needs = needs
        self.fixed = fixed
        self.voids = voids
        self.played_by = played_by
        held = [0, 0]
        for s in range(n):
            held[s & 1] |= played_by[s]
        held[seat & 1] |= own
        self.held = held
        # Deal the most constrained seats first.
        leads = 3 if self.bidder_leads else 0
        self.ranges = {s: (low, high) for s, low, high in _call_ranges(view)}
        self.order = sorted(
            (s for s in range(n) if needs[s] > 0),
            key=lambda s: (
                -voids[s].bit_count() - (leads if s == bidder else 0),
                s not in self.ranges,
                s,
            ),
        )
        self.template = _build_state(view, [0] * n, -1)

    def deal(self, rng: random.Random, face_down: int) -> list[int] | None:
        """Each seat's hand (the pool dealt by the needs, voids kept), or None if this try
        got stuck. `face_down`: the sampled face-down card (-1: none to sample).

        The constrained seats come first, each dealt from the cards it may hold: a seat whose
        calls say something of its hand is dealt again (up to `_SEAT_TRIES` times) until the
        naive bot would have made those calls with it, or with probability `BID_KEEP` anyway
        (rejection sampling, seat by seat). The others share what is left at random."""
        remaining = self.pool
        extra = -1
        if face_down >= 0:
            remaining &= ~BIT[face_down]
            suit = SUIT_OF[face_down]
            if self.bidder_leads >> suit & 1:
                extra = suit  # the bidder has held only this suit since it led it
        hands = list(self.fixed)
        voids = self.voids
        needs = self.needs
        ranges = self.ranges
        bidder = self.view.bidder
        n = self.seats
        free: list[int] = []  # seats neither void in a suit nor bound by their calls
        bound: list[tuple[int, int, tuple[int, int] | None]] = []
        for s in self.order:
            void = voids[s] if s != bidder or extra < 0 else ALL_SUITS & ~(1 << extra)
            limits = ranges.get(s)
            if void or limits is not None:
                bound.append((s, void, limits))
            else:
                free.append(s)
        for i, (s, void, limits) in enumerate(bound):
            allowed = remaining
            for suit in range(4):
                if void >> suit & 1:
                    allowed &= ~SUIT_MASKS[suit]
            if not free and i == len(bound) - 1:  # the last seat takes what is left
                if allowed != remaining:
                    return None
                hands[s] |= remaining
                return hands
            need = needs[s]
            choices = cards_of(allowed)
            if len(choices) < need:
                return None
            known = self.played_by[s] | (BIT[face_down] if s == bidder and face_down >= 0 else 0)
            for _ in range(_SEAT_TRIES):
                mask = picked(choices, need, rng)
                if limits is None:
                    break
                value = estimate(mask | known, n)
                if limits[0] <= value < limits[1] or rng.random() < BID_KEEP:
                    break
            hands[s] |= mask
            remaining &= ~mask
        cards = shuffled(cards_of(remaining), rng)
        start = 0
        for s in free:
            mask = 0
            for card in cards[start : start + needs[s]]:
                mask |= BIT[card]
            hands[s] |= mask
            start += needs[s]
        return hands

    def lay_down(self, hands: list[int], face_down: int) -> int:
        """The face-down card the naive bot would have chosen from the bidder's dealt hand
        (the dealt face-down card and the bidder's hidden hand swap one card), if that keeps
        what the view shows; else `face_down` as dealt."""
        bidder = self.view.bidder
        assert bidder is not None
        hidden = hands[bidder]
        choice = trump_choice(hidden | self.played_by[bidder] | BIT[face_down])
        if choice == face_down or not hidden & BIT[choice]:
            return face_down
        suit = SUIT_OF[choice]
        if not self.trump_suits >> suit & 1:
            return face_down
        void = self.voids[bidder]
        if self.bidder_leads >> suit & 1:
            void = ALL_SUITS & ~(1 << suit)
        if void >> SUIT_OF[face_down] & 1:
            return face_down
        hands[bidder] = hidden & ~BIT[choice] | BIT[face_down]
        return choice


def _build_state(view: FiftySixView, hands: list[int], trump: int) -> FiftySixState:
    """The state of `view` with the given hands and face-down card (-1: none yet)."""
    n = view.seats
    low_bidders = 0
    passes = 0
    for s, bid in view.calls:
        if bid is None:
            passes += 1
        else:
            passes = 0
            if bid <= LOW_BID_TOP:
                low_bidders |= 1 << s
    played = sum(len(t.plays) for t in view.tricks) + len(view.trick)
    step = len(view.calls) + (1 if view.phase == PLAY else 0) + view.trump_revealed + played
    to_act = view.to_act
    return FiftySixState(
        source=_deals(n, view.hand_index),
        seats=n,
        tables_per_team=view.tables_per_team,
        hand_index=view.hand_index,
        dealer=view.dealer,
        phase=view.phase,
        to_play=min(to_act) if to_act else -1,
        step=step,
        hands=tuple(hands),
        calls=tuple((s, bid or 0) for s, bid in view.calls),
        high_bid=view.high_bid or 0,
        high_bidder=view.high_bidder if view.high_bidder is not None else -1,
        low_bidders=low_bidders,
        passes=passes,
        bidder=view.bidder if view.bidder is not None else -1,
        contract=view.contract or 0,
        trump=trump,
        revealed=view.trump_revealed,
        revealed_by=view.revealed_by if view.revealed_by is not None else -1,
        asked=view.must_play_after_ask,
        reveal_pos=view.trumps_from or 0,
        leader=view.leader if view.leader is not None else -1,
        trick=view.trick,
        tricks=view.tricks,
        points=view.points,
        tables=view.tables if view.tables is not None else NO_POINTS,
        game_points=view.game_points,
        history=view.history,
        winning_team=view.winning_team if view.winning_team is not None else -1,
    )
