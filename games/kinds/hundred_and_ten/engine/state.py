"""The game state value, the records of tricks and rounds, and where each round's deck comes from.

`GameState` is an immutable value (a NamedTuple: really immutable, and cheap to copy with one
field changed, which keeps `apply` fast). Its fields are the stored facts; the properties below
them derive the public views (`bid`, `trump`, `passed`, ...). Treat field names that end in
`_mask` or `_index` and the `pile*` fields as internal: use the properties and the functions in
`rules` instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple, Protocol

from .cards import DECK_SIZE, FULL_DECK, IS_TRUMP, SUITS, Card


class Status(StrEnum):
    """Phase of a game (rules section 14). The two COMPLETED ones are never seen between moves."""

    WAITING_FOR_PLAYERS = "WAITING_FOR_PLAYERS"
    BIDDING = "BIDDING"
    TRUMP_SELECTION = "TRUMP_SELECTION"
    DISCARD = "DISCARD"
    TRICKS = "TRICKS"
    COMPLETED = "COMPLETED"
    COMPLETED_NO_BIDDERS = "COMPLETED_NO_BIDDERS"
    WON = "WON"


# --- Deck sources ------------------------------------------------------------------------------


class DeckSource(Protocol):
    """Where the deck of each round comes from: `deck(round_index)` is the full 53-card order."""

    def deck(self, round_index: int) -> tuple[Card, ...]: ...


@dataclass(frozen=True, slots=True)
class SeededDecks:
    """Decks shuffled from (seed, round index): the same seed always gives the same game."""

    seed: str

    def deck(self, round_index: int) -> tuple[Card, ...]:
        return _seeded_deck(self.seed, round_index)


@lru_cache(maxsize=4096)
def _seeded_deck(seed: str, round_index: int) -> tuple[Card, ...]:
    # Cached because search bots play the same round out many times, and every playout deals
    # the next round: the deck is a pure function of its arguments.
    cards = list(FULL_DECK)
    random.Random(f"{seed}:{round_index}").shuffle(cards)
    return tuple(cards)


def check_deck(deck: Sequence[Card], round_index: int) -> tuple[Card, ...]:
    """`deck` as a tuple, if it holds each of the 53 cards exactly once; else ValueError."""
    cards = tuple(deck)
    if len(cards) != DECK_SIZE or set(cards) != set(FULL_DECK):
        raise ValueError(f"The deck of round {round_index} is not a full 53-card deck.")
    return cards


@dataclass(frozen=True, slots=True)
class FixedDecks:
    """Prepared decks, one per round (traces, tests). Dealing past the last one is an error."""

    decks: tuple[tuple[Card, ...], ...]

    def deck(self, round_index: int) -> tuple[Card, ...]:
        if round_index >= len(self.decks):
            raise ValueError(f"No deck was prepared for round {round_index}.")
        return self.decks[round_index]


@dataclass(frozen=True, slots=True)
class CallableDecks:
    """Decks produced by a function of the round index (not serializable to JSON)."""

    function: Callable[[int], Sequence[Card]]

    def deck(self, round_index: int) -> tuple[Card, ...]:
        return check_deck(self.function(round_index), round_index)


# --- Records -----------------------------------------------------------------------------------


class Trick(NamedTuple):
    """A completed trick: who led, the (seat, card) plays in order, and who won it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    @property
    def winning_card(self) -> Card:
        return next(card for seat, card in self.plays if seat == self.winner)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """Everything that happened in one finished round (also the passed-out ones).

    `bids` are (seat, amount) in the order they took effect (0 = pass, fired pre-passes
    included). `discards`/`draws` hold one tuple per seat (empty in a passed-out round).
    `outcome` is "no_bidders", "made", "failed" or "moon"; `score_events` are the ordered
    (seat, points) credits that decide ties at 110 (rules 13); `round_scores` one int per seat.
    """

    index: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    bids: tuple[tuple[int, int], ...]
    bidder: int | None
    bid: int | None
    trump: str | None
    discards: tuple[tuple[Card, ...], ...]
    draws: tuple[tuple[Card, ...], ...]
    tricks: tuple[Trick, ...]
    bonus_trick: int | None
    outcome: str
    score_events: tuple[tuple[int, int], ...]
    round_scores: tuple[int, ...]


# --- The state ---------------------------------------------------------------------------------


class GameState(NamedTuple):
    """One moment of a game. Build it with `rules.new_game`; change it only with `rules.apply`.

    Public fields: `players` (count), `target` (winning score), `status`, `round_index`,
    `dealer`, `scores` (one per seat, completed rounds), `history` (finished rounds, see
    `rules.round_history`), `winner`, `active_seat` (None once WON), `hands` (per seat, hand
    order), `bidder` (None during bidding), `current_trick` ((seat, card) pairs), `tricks`
    (completed tricks of this round), `discards`/`draws` (per seat, None before their turn).
    Properties: `bid`, `trump`, `passed`, `pre_passed`, `bleeding`, `draw_pile_size`.
    """

    players: int
    target: int
    decks: DeckSource
    status: Status
    round_index: int
    dealer: int
    dealt_in_a_row: int  # rounds dealt in a row by `dealer`, this one included
    scores: tuple[int, ...]
    history: tuple[RoundRecord, ...]
    winner: int | None
    active_seat: int | None
    hands: tuple[tuple[Card, ...], ...]
    dealt: tuple[tuple[Card, ...], ...]  # the hands as dealt this round
    pile: tuple[Card, ...]  # this round's draw pile, whole; cards before pile_pos are drawn
    pile_pos: int
    bids: tuple[tuple[int, int], ...]  # (seat, amount) of this round, in order
    high_bid: int  # 0 while nobody has bid
    holder: int | None  # who made the high bid
    bidder: int | None
    passed_mask: int  # bit s: seat s has passed this round
    pre_passed_mask: int  # bit s: seat s has a pending pre-pass
    trump_index: int | None
    discards: tuple[tuple[Card, ...] | None, ...]
    draws: tuple[tuple[Card, ...] | None, ...]
    current_trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]

    @property
    def bid(self) -> int | None:
        """The high bid of this round (the contract once bidding is over), None before any."""
        return self.high_bid or None

    @property
    def trump(self) -> str | None:
        """Trump suit letter, None until named."""
        return None if self.trump_index is None else SUITS[self.trump_index]

    @property
    def passed(self) -> tuple[int, ...]:
        """Seats that have passed in this round's bidding (seat order)."""
        return tuple(s for s in range(self.players) if self.passed_mask >> s & 1)

    @property
    def pre_passed(self) -> tuple[int, ...]:
        """Seats with a pending pre-pass (seat order). Private to each maker in seat views."""
        return tuple(s for s in range(self.players) if self.pre_passed_mask >> s & 1)

    @property
    def bleeding(self) -> bool:
        """Whether the card led to the current trick is a trump (others must follow trump)."""
        trick = self.current_trick
        return (
            bool(trick) and self.trump_index is not None and IS_TRUMP[self.trump_index][trick[0][1]]
        )

    @property
    def draw_pile_size(self) -> int:
        return len(self.pile) - self.pile_pos
