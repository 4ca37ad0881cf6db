"""The naive bot's play on card masks, for the hard bot's playouts (pure: no Django).

`bots.choose_play` decides from a full `HeartsView`, which the engine builds by sorting and
copying: fine once per move, far too slow for the thousands of cards a search plays per
decision. `naive_card` makes the same choice from the bare facts (the hand as a mask, the
trick's cards, whether it is the first trick, whether hearts are broken), and `finish_hand`
plays a hand to its end with it for every seat, keeping only masks and counters. A test
(tests/kinds/hearts/test_search.py) checks `naive_card` against `choose_play` on many
positions.

Masks: bit `card` is set for each card held (see `engine.cards`); within one suit a higher
bit is a higher card, so the lowest card of a suit mask `m` is bit `(m & -m)`, the highest
bit `m.bit_length() - 1`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine.cards import (
    HEARTS_MASK,
    NON_HEARTS_MASK,
    NON_POINTS_MASK,
    POINTS,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
)
from .engine.state import PASS, SEATS, TRICKS_PER_HAND, HeartsState, pass_offset

QS = int(QUEEN_OF_SPADES)
QS_BIT = 1 << QS
SPADES_MASK = SUIT_MASKS[3]
NON_SPADES_MASK = ((1 << 52) - 1) & ~SPADES_MASK
TWO_OF_CLUBS = 0
_SUIT_OF = tuple(c // 13 for c in range(52))
_IS_HEART = tuple(c // 13 == 2 for c in range(52))
BIT_OF: tuple[int, ...] = tuple(1 << c for c in range(52))
# Leading the lowest card, at equal rank a non-heart first, then clubs, diamonds, spades.
_LEAD_ORDER = (0, 1, 3, 2)
# Discarding the highest card (no heart, no Q♠ left to shed), at equal rank the higher suit.
_DISCARD_ORDER = (3, 2, 1, 0)


def _lowest_led(legal: int, hand: int) -> int:
    """The naive lead: the lowest card (a non-heart first at equal rank, then clubs,
    diamonds, spades), never a spade while holding the Q♠ if anything else is legal."""
    if hand & QS_BIT and legal & NON_SPADES_MASK:
        legal &= NON_SPADES_MASK
    best = -1
    best_rank = 13
    for suit in _LEAD_ORDER:
        m = legal >> (13 * suit) & 8191
        if m:
            rank = (m & -m).bit_length() - 1
            if rank < best_rank:
                best_rank = rank
                best = suit * 13 + rank
    return best


def _discard(legal: int) -> int:
    """The naive discard: the Q♠, else the highest heart, else the highest card (the higher
    suit at equal rank)."""
    if legal & QS_BIT:
        return QS
    hearts = legal & HEARTS_MASK
    if hearts:
        return hearts.bit_length() - 1
    best = -1
    best_rank = -1
    for suit in _DISCARD_ORDER:
        m = legal >> (13 * suit) & 8191
        if m:
            rank = m.bit_length() - 1
            if rank > best_rank:
                best_rank = rank
                best = suit * 13 + rank
    return best


def _follow(follow: int, best: int, last: bool, points: int) -> int:
    """The naive follow from `follow` (the held cards of the led suit) under `best`, the
    trick's highest card of that suit; `last`: the fourth card; `points` in the trick."""
    if follow & QS_BIT and best > QS:
        return QS  # under the A♠ or K♠
    not_queen = follow & ~QS_BIT or follow
    if last and not points:
        return not_queen.bit_length() - 1  # a clean trick: take it with the highest card
    losing = follow & ((1 << best) - 1)
    if losing:
        return losing.bit_length() - 1
    return not_queen.bit_length() - 1


def naive_card(hand: int, trick: Sequence[int], first_trick: bool, broken: bool) -> int:
    """The card `bots.choose_play` picks holding `hand` (a mask) with `trick` (the current
    trick's cards in play order) on the table, in the first trick or not, hearts broken or
    not. The seat must hold a card."""
    if not trick:
        if first_trick:
            return TWO_OF_CLUBS
        legal = hand if broken else (hand & NON_HEARTS_MASK or hand)
        return _lowest_led(legal, hand)
    led = trick[0]
    suit = _SUIT_OF[led]
    follow = hand & SUIT_MASKS[suit]
    if follow:
        best = led
        points = POINTS[led]
        for card in trick[1:]:
            points += POINTS[card]
            if _SUIT_OF[card] == suit and card > best:
                best = card
        return _follow(follow, best, len(trick) == 3, points)
    if first_trick:
        return _discard(hand & NON_POINTS_MASK or hand)
    return _discard(hand)


def state_card(state: HeartsState, seat: int) -> int:
    """`naive_card` for `seat` (the seat to play) in `state`."""
    return naive_card(state.hands[seat], state.trick, not state.tricks, state.hearts_broken)


def finish_hand(
    hands: list[int],
    leader: int,
    trick: Sequence[int],
    done: int,
    broken: bool,
    taken: list[int],
) -> list[int]:
    """Play the hand to its end with the naive policy for every seat: `hands` (masks, changed
    in place), the current trick's `leader` and cards, `done` tricks completed, hearts
    `broken`; `taken` (changed in place, returned): the penalty points each seat won, before
    the moon rule."""
    cards = list(trick)
    count = len(cards)
    seat = (leader + count) % SEATS
    # The running trick: led suit's mask, highest card of it and who played it, points.
    if count:
        led = cards[0]
        led_mask = SUIT_MASKS[_SUIT_OF[led]]
        best, winner, points, hearts = led, leader, POINTS[led], _IS_HEART[led]
        for i in range(1, count):
            card = cards[i]
            points += POINTS[card]
            hearts = hearts or _IS_HEART[card]
            if card > best and BIT_OF[card] & led_mask:
                best, winner = card, (leader + i) % SEATS
    else:
        led_mask = best = winner = points = 0
        hearts = False
    while done < TRICKS_PER_HAND:
        hand = hands[seat]
        if not count:
            if not done:
                card = TWO_OF_CLUBS
            else:
                card = _lowest_led(
                    hand if broken else (hand & NON_HEARTS_MASK or hand),
                    hand,
                )
            led_mask = SUIT_MASKS[_SUIT_OF[card]]
            best, winner, points, hearts = card, seat, POINTS[card], _IS_HEART[card]
        else:
            follow = hand & led_mask
            if follow:
                card = _follow(follow, best, count == 3, points)
                if card > best:
                    best, winner = card, seat
            else:
                card = _discard(hand if done else (hand & NON_POINTS_MASK or hand))
                hearts = hearts or _IS_HEART[card]
            points += POINTS[card]
        hands[seat] = hand ^ (1 << card)
        count += 1
        if count == SEATS:
            taken[winner] += points
            broken = broken or hearts
            done += 1
            count = 0
            seat = winner
        else:
            seat = (seat + 1) % SEATS
    return taken


# The naive pass order: the Q♠, A♠, K♠, then by rank from the ace down, at equal rank a
# heart first, then clubs, diamonds, spades (`bots.choose_pass`).
_PASS_ORDER: tuple[int, ...] = (QS, QS + 2, QS + 1) + tuple(
    suit * 13 + rank
    for rank in range(12, -1, -1)
    for suit in (2, 0, 1, 3)
    if suit * 13 + rank not in (QS, QS + 1, QS + 2)
)


def naive_pass(hand: int) -> int:
    """The mask of the three cards `bots.choose_pass` passes from `hand` (a mask)."""
    out = 0
    count = 0
    for card in _PASS_ORDER:
        bit = BIT_OF[card]
        if hand & bit:
            out |= bit
            count += 1
            if count == 3:
                break
    return out


def naive_passes(state: HeartsState) -> tuple[int, int, int, int]:
    """Every seat's pass mask, the seats yet to pass choosing as the naive bot does."""
    p0, p1, p2, p3 = (p or naive_pass(h) for p, h in zip(state.passes, state.hands, strict=True))
    return p0, p1, p2, p3


def hand_points(state: HeartsState) -> list[int]:
    """The penalty points each seat takes in the hand in progress (passes and play finished
    with the naive policy), before the moon rule."""
    hands = list(state.hands)
    if state.phase == PASS:
        passes = naive_passes(state)
        offset = pass_offset(state.hand_index)
        hands = [hands[s] & ~passes[s] | passes[(s - offset) % SEATS] for s in range(SEATS)]
        leader = next(s for s in range(SEATS) if hands[s] & 1)
        return finish_hand(hands, leader, (), 0, False, [0, 0, 0, 0])
    return finish_hand(
        hands,
        state.leader,
        state.trick,
        len(state.tricks),
        state.hearts_broken,
        list(state.taken),
    )
