"""Builders for engine tests: decks with chosen hands, and short ways to act."""

from __future__ import annotations

from collections.abc import Sequence

from games.kinds.hundred_and_ten.engine import (
    Bid,
    Card,
    GameState,
    apply,
    new_game_from_decks,
    parse_card,
)
from games.kinds.hundred_and_ten.engine.cards import FULL_DECK


def cards(text: str) -> tuple[Card, ...]:
    """Cards from notation separated by spaces: cards("5H JK 10C")."""
    return tuple(parse_card(c) for c in text.split())


def deck(hands: Sequence[str], pile: str = "") -> tuple[Card, ...]:
    """A full deck dealing `hands` (seat order), then `pile` on top of the draw pile."""
    chosen = [c for hand in hands for c in cards(hand)] + list(cards(pile))
    assert len(set(chosen)) == len(chosen), "a card appears twice"
    return tuple(chosen) + tuple(c for c in FULL_DECK if c not in chosen)


def table(hands: Sequence[str], pile: str = "", target: int = 110) -> GameState:
    """A started game whose round 0 deals `hands`; later rounds deal the unshuffled deck."""
    first = deck(hands, pile)
    return new_game_from_decks(
        lambda r: first if r == 0 else FULL_DECK, players=len(hands), target=target
    )


def bids(state: GameState, *amounts: int) -> GameState:
    """The active seats bid `amounts` in turn."""
    for amount in amounts:
        assert state.active_seat is not None
        state = apply(state, Bid(state.active_seat, amount))
    return state


def contract(state: GameState, bidder: int, amount: int, trump: str) -> GameState:
    """Everybody passes but `bidder`, who bids `amount` and names `trump`; no one discards."""
    from games.kinds.hundred_and_ten.engine import Discard, SelectTrump, Status

    while state.status is Status.BIDDING:
        seat = state.active_seat
        assert seat is not None
        state = apply(state, Bid(seat, amount if seat == bidder else 0))
    state = apply(state, SelectTrump(bidder, trump))
    while state.status is Status.DISCARD:
        assert state.active_seat is not None
        state = apply(state, Discard(state.active_seat, ()))
    assert state.status is Status.TRICKS
    return state


def plays(state: GameState, *notations: str) -> GameState:
    """The active seats play the cards written `notations` in turn."""
    from games.kinds.hundred_and_ten.engine import Play

    for text in notations:
        assert state.active_seat is not None
        state = apply(state, Play(state.active_seat, parse_card(text)))
    return state
