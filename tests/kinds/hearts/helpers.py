"""Builders for Hearts tests: deals with chosen hands, hands started at any index, random play."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.kinds.hearts.engine import (
    RULES,
    Card,
    FixedDeals,
    HeartsState,
    Play,
    parse_card,
)
from games.kinds.hearts.engine.cards import CODES, DECK
from games.kinds.hearts.engine.rules import start_hand
from games.kinds.hearts.engine.state import check_deal

HOLD_INDEX = 3  # hand 3 (and 7, 11, ...) is a hold hand: no passing

# A plain valid deal: seat s holds the cards s, s + 4, s + 8, ... of the canonical deck.
PLAIN_DEAL = [[CODES[c] for c in DECK[seat::4]] for seat in range(4)]


def cards(text: str) -> tuple[Card, ...]:
    """Cards from notation separated by spaces: cards("2C 10H QS")."""
    return tuple(parse_card(c) for c in text.split())


def deal(*hands: str) -> list[list[str]]:
    """A deal (trace form) giving seat s the cards `hands[s]`; seats given fewer than 13
    cards (or not given) are filled with the remaining cards in canonical order."""
    chosen = [list(cards(text)) for text in hands] + [[] for _ in range(4 - len(hands))]
    used = {c for hand in chosen for c in hand}
    assert len(used) == sum(len(hand) for hand in chosen), "a card appears twice"
    rest = [c for c in DECK if c not in used]
    for hand in chosen:
        while len(hand) < 13:
            hand.append(rest.pop(0))
    return [[CODES[c] for c in hand] for hand in chosen]


def fixed(deals: Sequence[list[list[str]]]) -> FixedDeals:
    return FixedDeals(
        tuple(
            check_deal([[parse_card(c) for c in hand] for hand in d], index)
            for index, d in enumerate(deals)
        )
    )


def hand_at(
    index: int,
    dealt: list[list[str]],
    totals: tuple[int, int, int, int] = (0, 0, 0, 0),
    target: int = 100,
    later: int = 1,
) -> HeartsState:
    """A game at the start of hand `index` dealt `dealt`, with running `totals`; `later`
    plain deals follow it (so the game can go on)."""
    deals = [PLAIN_DEAL] * index + [dealt] + [PLAIN_DEAL] * later
    return start_hand(fixed(deals), target, index, totals, ())


def play(state: HeartsState, *plays: str) -> HeartsState:
    """The seats to play play `plays` (card codes) in turn."""
    for code in plays:
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, seat, Play(parse_card(code)))
    return state


def random_step(state: HeartsState, rng: random.Random) -> tuple[int, object, HeartsState]:
    """One random legal action of a random waiting seat: (seat, action, next state)."""
    seat = rng.choice(sorted(RULES.to_act(state)))
    action = rng.choice(RULES.legal_actions(state, seat))
    return seat, action, RULES.apply(state, seat, action)


def play_out(state: HeartsState, rng: random.Random, hands: int = 1) -> HeartsState:
    """Random legal play until `hands` more hands are finished (or the game is over)."""
    goal = len(state.history) + hands
    while len(state.history) < goal and RULES.to_act(state):
        _, _, state = random_step(state, rng)
    return state
