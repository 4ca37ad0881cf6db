"""Starting a game and dealing each round: five cards to each seat in seat order, the rest
the draw pile (section 5), from seeded, prepared or computed decks; who deals (section 6).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import Card
from .fields import _BIDDING
from .state import (
    CallableDecks,
    DeckSource,
    FixedDecks,
    GameState,
    RoundRecord,
    SeededDecks,
    check_deck,
)

HAND_SIZE = 5
DEFAULT_TARGET = 110
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_DEALS_IN_A_ROW = 3  # section 6: a dealer deals at most three passed-out rounds in a row


def _deal(
    players: int,
    target: int,
    decks: DeckSource,
    round_index: int,
    dealer: int,
    dealt_in_a_row: int,
    scores: tuple[int, ...],
    history: tuple[RoundRecord, ...],
) -> GameState:
    """The state at the start of a round: five cards each in seat order, whoever deals (5)."""
    deck = decks.deck(round_index)
    hands = tuple(tuple(deck[HAND_SIZE * s : HAND_SIZE * s + HAND_SIZE]) for s in range(players))
    nothing: tuple[None, ...] = (None,) * players
    return GameState(
        players=players,
        target=target,
        decks=decks,
        status=_BIDDING,
        round_index=round_index,
        dealer=dealer,
        dealt_in_a_row=dealt_in_a_row,
        scores=scores,
        history=history,
        winner=None,
        active_seat=(dealer + 1) % players,  # bidding starts left of the dealer (7.1)
        hands=hands,
        dealt=hands,
        pile=tuple(deck[HAND_SIZE * players :]),
        pile_pos=0,
        bids=(),
        high_bid=0,
        holder=None,
        bidder=None,
        passed_mask=0,
        pre_passed_mask=0,
        trump_index=None,
        discards=nothing,
        draws=nothing,
        current_trick=(),
        tricks=(),
    )


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("A game of Hundred and Ten needs 2, 3 or 4 players.")


def new_game_from_source(
    decks: DeckSource, players: int, target: int = DEFAULT_TARGET
) -> GameState:
    """A started game whose round decks come from `decks`; seat 0 deals round 0 (section 6)."""
    _check_players(players)
    if target <= 0:
        raise ValueError("The target score must be positive.")
    return _deal(players, target, decks, 0, 0, 1, (0,) * players, ())


def new_game(seed: str, players: int, target: int = DEFAULT_TARGET) -> GameState:
    """A started game dealt from `seed`: round r uses `Random(f"{seed}:{r}")` to shuffle."""
    return new_game_from_source(SeededDecks(str(seed)), players, target)


def new_game_from_decks(
    decks: Sequence[Sequence[Card]] | Callable[[int], Sequence[Card]],
    players: int,
    target: int = DEFAULT_TARGET,
) -> GameState:
    """A started game with prepared decks: a list (one 53-card order per round) or a function
    of the round index. Seat 0 gets the first five cards, seat 1 the next five, ...; the rest is
    the draw pile, drawn from the front."""
    if callable(decks):
        return new_game_from_source(CallableDecks(decks), players, target)
    fixed = tuple(check_deck(deck, r) for r, deck in enumerate(decks))
    return new_game_from_source(FixedDecks(fixed), players, target)
