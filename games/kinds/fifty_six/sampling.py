"""Fifty-Six's hard bot, one world of the cards a seat has not seen: `sample_hands` deals
them at random from the seat's `Knowledge` (knowledge.py), never from the state the platform
holds. Pure Python (no Django).

Each try is a random deal that keeps what the view shows (`Knowledge.deal`); four times in
five the face-down card is then the one the naive bot lays down from the bidder's dealt hand
(`Knowledge.lay_down`); in play a deal where the defenders held no card of the trump suit is
dealt again. When random tries keep getting stuck, a deal that keeps every void is found by
augmenting paths over (suit, seat) counts.
"""

from __future__ import annotations

import random

from .engine.cards import BIT, SUIT_MASKS, SUIT_OF, cards_of
from .engine.state import PLAY
from .knowledge import ALL_SUITS, Knowledge

# How often the face-down card is any card of the bidder's (unless the naive bot's choice
# from its dealt hand: the weakest card of its best suit).
OFF_SUIT_KEEP = 0.2
_ATTEMPTS = 24


def _flow_deal(know: Knowledge, rng: random.Random, face_down: int) -> list[int] | None:
    """A deal that keeps every void, found by augmenting paths over (suit, seat) counts: the
    fallback when random tries keep getting stuck. None if there is none."""
    remaining = know.pool & ~BIT[face_down] if face_down >= 0 else know.pool
    voids = list(know.voids)
    bidder = know.view.bidder
    if face_down >= 0 and know.bidder_leads >> SUIT_OF[face_down] & 1 and bidder is not None:
        voids[bidder] = ALL_SUITS & ~(1 << SUIT_OF[face_down])
    seats = list(know.order)
    supply = [(remaining & SUIT_MASKS[s]).bit_count() for s in range(4)]
    need = {s: know.needs[s] for s in seats}
    counts = {(suit, s): 0 for suit in range(4) for s in seats}

    def augment(suit: int, seen: set[int]) -> bool:
        # Give one more card of `suit` to some seat, moving other cards along if needed.
        for s in seats:
            if voids[s] >> suit & 1 or s in seen:
                continue
            seen.add(s)
            if sum(counts[(x, s)] for x in range(4)) < need[s]:
                counts[(suit, s)] += 1
                return True
            for other in range(4):
                if counts[(other, s)] and augment(other, seen):
                    counts[(other, s)] -= 1
                    counts[(suit, s)] += 1
                    return True
        return False

    rng.shuffle(seats)
    for suit in range(4):
        for _ in range(supply[suit]):
            if not augment(suit, set()):
                return None
    hands = list(know.fixed)
    for suit in range(4):
        cards = list(cards_of(remaining & SUIT_MASKS[suit]))
        rng.shuffle(cards)
        for s in seats:
            for _ in range(counts[(suit, s)]):
                hands[s] |= BIT[cards.pop()]
    return hands


def _trump_plausible(know: Knowledge, hands: list[int], face_down: int) -> bool:
    """The defenders held a card of the trump suit (else the hand would have been void)."""
    view = know.view
    assert view.bidder is not None
    defenders = 1 - (view.bidder & 1)
    mask = SUIT_MASKS[SUIT_OF[face_down]]
    if know.held[defenders] & mask:
        return True
    return any(hands[s] & mask for s in range(defenders, view.seats, 2))


def sample_hands(know: Knowledge, rng: random.Random) -> tuple[list[int], int]:
    """The hidden hands and the face-down card (-1 unless it is sampled) for one world."""
    view = know.view
    trump = view.trump_card if view.trump_card is not None else -1
    pool_cards = cards_of(know.pool)
    candidates = [c for c in pool_cards if know.trump_suits >> SUIT_OF[c] & 1] or list(pool_cards)
    for _ in range(_ATTEMPTS):
        face_down = rng.choice(candidates) if know.face_down else -1
        hands = know.deal(rng, face_down)
        if hands is None:
            continue
        if face_down >= 0 and rng.random() >= OFF_SUIT_KEEP:
            face_down = know.lay_down(hands, face_down)
        if view.phase == PLAY:
            card = face_down if face_down >= 0 else trump
            if card >= 0 and not _trump_plausible(know, hands, card):
                continue
        return hands, face_down
    face_down = rng.choice(candidates) if know.face_down else -1
    hands_or_none = _flow_deal(know, rng, face_down)
    if hands_or_none is None:  # not reached for a consistent view: ignore the voids
        hands_or_none = list(know.fixed)
        cards = list(cards_of(know.pool & ~(BIT[face_down] if face_down >= 0 else 0)))
        rng.shuffle(cards)
        for s in know.order:
            for _ in range(know.needs[s]):
                hands_or_none[s] |= BIT[cards.pop()]
    return hands_or_none, face_down
