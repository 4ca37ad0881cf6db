"""Builders for Fifty-Six tests: deals with chosen hands, auctions and plays in notation."""

from __future__ import annotations

import random

from games.kinds.fifty_six.engine import (
    RULES,
    Action,
    AskTrump,
    Card,
    FiftySixState,
    IllegalMove,
    Play,
    make_bid,
    make_play,
    make_trump,
    parse_card,
)
from games.kinds.fifty_six.engine.actions import PASS
from games.kinds.fifty_six.engine.cards import CODES, deck_for
from tests.kinds.refusals import refused_by


def cards(text: str) -> tuple[Card, ...]:
    """Cards from notation separated by spaces: cards("JC0 10H1")."""
    return tuple(parse_card(c) for c in text.split())


def deal(seats: int, *hands: str) -> list[list[str]]:
    """A deal (trace form) giving seat s the cards `hands[s]`; seats given fewer than 8
    cards (or not given) are filled with the remaining cards in canonical order."""
    chosen = [list(cards(text)) for text in hands] + [[] for _ in range(seats - len(hands))]
    used = {c for hand in chosen for c in hand}
    assert len(used) == sum(len(hand) for hand in chosen), "a card appears twice"
    rest = [c for c in deck_for(seats) if c not in used]
    for hand in chosen:
        while len(hand) < 8:
            hand.append(rest.pop(0))
    return [[CODES[c] for c in hand] for hand in chosen]


def plain_deal(seats: int) -> list[list[str]]:
    """A valid deal: seat s holds cards s, s + n, s + 2n, … of the canonical deck."""
    deck = deck_for(seats)
    return [[CODES[c] for c in deck[seat::seats]] for seat in range(seats)]


def start(dealt: list[list[str]], seats: int = 4, tables: int | None = 12, later: int = 3):
    """A match whose first hand is `dealt`; `later` plain deals follow it."""
    deals = [dealt] + [plain_deal(seats)] * later
    return RULES.initial_state_from_deals(deals, seats, {"tables_per_team": tables})


def act(state: FiftySixState, *moves: str) -> FiftySixState:
    """The seat to act takes each move in turn: "28" (a bid), "pass", "trump:AS0", "ask",
    or a card code (a play)."""
    for move in moves:
        (seat,) = RULES.to_act(state)
        action: Action
        if move == "pass":
            action = PASS
        elif move == "ask":
            action = AskTrump()
        elif move.startswith("trump:"):
            action = make_trump(move[6:])
        elif move.isdigit():
            action = make_bid(int(move))
        else:
            action = make_play(move)
        state = RULES.apply(state, seat, action)
    return state


def first_plays(state: FiftySixState, count: int) -> FiftySixState:
    """The seats to act play their first legal card, `count` times (never asking, but for
    the forced reveal of the bidder's last card, which takes one more action)."""
    for _ in range(count):
        (seat,) = RULES.to_act(state)
        legal = RULES.legal_actions(state, seat)
        if not any(isinstance(a, Play) for a in legal):
            state = RULES.apply(state, seat, legal[0])
            legal = RULES.legal_actions(state, seat)
        action = next(a for a in legal if isinstance(a, Play))
        state = RULES.apply(state, seat, action)
    return state


def random_step(state: FiftySixState, rng: random.Random) -> FiftySixState:
    (seat,) = RULES.to_act(state)
    return RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))


def codes_of(values) -> list[str]:
    return [CODES[c] for c in values]


def refused(state, seat, action, code):
    """Assert `action` is refused with `code`, in a sentence that ends with a full stop, and
    leaves `state` as it was."""
    error = refused_by(RULES, IllegalMove, state, seat, action, code)
    assert str(error).endswith(".")
    return error


# Seats 2 and 3 hold no heart; seat 1 holds the 10♥s and two spades (the trump card).
REVEAL = deal(
    4,
    "JH0 JH1 9H0 9H1 AH0 AH1 JD0 JD1",
    "10H0 10H1 AS0 AS1 JC0 JC1 9C0 9C1",
    "9S0 AC0 AC1 10C0 10C1 9D0 9D1 AD0",
    "10S0 10S1 JS0 JS1 9S1 AD1 10D0 10D1",
)
