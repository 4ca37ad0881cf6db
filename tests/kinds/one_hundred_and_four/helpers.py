"""Builders for One Hundred and Four tests: tables with chosen rows and hands, turns played
by choosing cards per seat, random play."""

from __future__ import annotations

import random

from games.kinds.one_hundred_and_four.engine import (
    DECK,
    RULES,
    Choose,
    HundredAndFourState,
    TakeRow,
)
from games.kinds.one_hundred_and_four.engine.cards import HAND_SIZE


def deal(seats, rows=(), hands=(), reserved=()):
    """A deal (trace form) for `seats` seats: the rows start with `rows` (4 cards; filled from
    the lowest unused cards), seat s holds `hands[s]` first, filled from the highest unused
    cards, the rest left over (`reserved` cards too)."""
    used = set(rows) | {c for hand in hands for c in hand} | set(reserved)
    free = [c for c in DECK if c not in used]
    starters = list(rows)
    while len(starters) < 4:
        starters.append(free.pop(0))
    out = []
    for seat in range(seats):
        hand = list(hands[seat]) if seat < len(hands) else []
        while len(hand) < HAND_SIZE:
            hand.append(free.pop())
        out.append(hand)
    return {"rows": starters, "hands": out, "rest": free + sorted(set(reserved) - set(starters))}


def table(rows, hands, match_to=None, seats=None):
    """A game whose rows are exactly `rows` (tuples of cards) and whose seat s holds
    `hands[s]` (filled to 10 cards). Cards must not repeat; the cards of the rows past their
    first are left out of the deal (they are in the `rest`)."""
    seats = seats or len(hands)
    in_rows = {c for row in rows for c in row}
    starters = [row[0] for row in rows]
    given = deal(seats, starters, hands, reserved=in_rows)
    state = RULES.initial_state_from_deals([given], seats, {"match_to": match_to})
    return state._replace(rows=tuple(tuple(row) for row in rows))


def choose(state: HundredAndFourState, *cards: int) -> HundredAndFourState:
    """Seat s chooses `cards[s]`, in seat order."""
    for seat, card in enumerate(cards):
        state = RULES.apply(state, seat, Choose(card))
    return state


def take(state: HundredAndFourState, row: int) -> HundredAndFourState:
    (seat,) = RULES.to_act(state)
    return RULES.apply(state, seat, TakeRow(row))


def random_step(state, rng):
    """One random legal action of a random waiting seat: (seat, action, next state)."""
    seat = rng.choice(sorted(RULES.to_act(state)))
    action = rng.choice(RULES.legal_actions(state, seat))
    return seat, action, RULES.apply(state, seat, action)


def play_out(state, rng: random.Random, limit: int = 10_000):
    """Random legal play to the end of the game."""
    for _ in range(limit):
        if not RULES.to_act(state):
            return state
        _, _, state = random_step(state, rng)
    raise AssertionError("the game did not end")
