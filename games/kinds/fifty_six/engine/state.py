"""The game state value, the records of tricks and hands, and where each hand's deal comes from.

`FiftySixState` is an immutable value (a NamedTuple: really immutable, and cheap to copy with
a few fields changed, which keeps `apply` fast). Hands are card masks (see `cards`); the
bidder's face-down trump card is *not* in its hand mask until it is revealed (rules §6).
Use the functions of `rules`, `play` and `view` rather than reading masks directly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from .cards import BIT, DECK_MASKS, Card, deck_for

SEAT_COUNTS: tuple[int, ...] = (4, 6)
CARDS_PER_HAND = 8
TRICKS_PER_HAND = 8
MIN_BID = 28
MAX_BID = 56
LOW_BID_TOP = 39  # bids 28 … 39 are "low" for the restrictions R1 and R2 (rules §5)
DEFAULT_TABLES = 12

Phase = Literal["auction", "trump_choice", "play", "match_over"]
AUCTION: Phase = "auction"
TRUMP_CHOICE: Phase = "trump_choice"
PLAY: Phase = "play"
OVER: Phase = "match_over"

Outcome = Literal["made", "lost", "void"]
Deal = tuple[tuple[Card, ...], ...]  # each seat's cards in deal order


def team_of(seat: int) -> int:
    """Team 0 holds the even seats, team 1 the odd ones (rules §2)."""
    return seat & 1


def game_points_for(contract: int, made: bool, seats: int) -> int:
    """The bidding team's game points for a hand (rules §9): 28–39 +1/−2, 40–55 +2/−3,
    56 (tani) +n/−(n+1)."""
    if contract >= MAX_BID:
        return seats if made else -(seats + 1)
    if contract >= 40:
        return 2 if made else -3
    return 1 if made else -2


# --- Deal sources ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeededDeals:
    """Deals shuffled from (seed, hand index) as the reference did (rules §12, READING-1): a
    Fisher–Yates over the canonical deck with ``j = SHA-256("56|seed|h|i") mod (i+1)``, then
    packets of 4 from the seat after the dealer (rules §4)."""

    seed: str

    def deal(self, hand_index: int, dealer: int, seats: int) -> Deal:
        return _seeded_deal(self.seed, hand_index, dealer, seats)


def shuffled_deck(seed: str, hand_index: int, seats: int) -> list[Card]:
    """The deck of hand `hand_index` after the seeded shuffle."""
    deck = list(deck_for(seats))
    for i in range(len(deck) - 1, 0, -1):
        digest = hashlib.sha256(f"56|{seed}|{hand_index}|{i}".encode()).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_packets(deck: Sequence[Card], dealer: int, seats: int) -> Deal:
    """Packet k (deck positions 4k … 4k+3) goes to seat (dealer + 1 + k) mod n (rules §4)."""
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for k in range(2 * seats):
        hands[(dealer + 1 + k) % seats].extend(deck[4 * k : 4 * k + 4])
    return tuple(tuple(hand) for hand in hands)


@lru_cache(maxsize=1024)
def _seeded_deal(seed: str, hand_index: int, dealer: int, seats: int) -> Deal:
    return deal_packets(shuffled_deck(seed, hand_index, seats), dealer, seats)


@dataclass(frozen=True, slots=True)
class FixedDeals:
    """Deals given one per hand (traces, tests): `deals[h][s]` is seat s's 8 cards in deal
    order. Needing a deal past the last one is a ValueError."""

    deals: tuple[Deal, ...]

    def deal(self, hand_index: int, dealer: int, seats: int) -> Deal:
        if hand_index >= len(self.deals):
            raise ValueError(f"No deal was given for hand {hand_index + 1}.")
        return self.deals[hand_index]


DealSource = SeededDeals | FixedDeals


def check_deal(hands: Sequence[Sequence[Card]], seats: int, hand_index: int) -> Deal:
    """`hands` as tuples, if they are `seats` hands of 8 cards of the game's deck, each card
    once; else ValueError."""
    out = tuple(tuple(hand) for hand in hands)
    if len(out) != seats or any(len(hand) != CARDS_PER_HAND for hand in out):
        raise ValueError(
            f"The deal of hand {hand_index + 1} is not {seats} hands of {CARDS_PER_HAND} cards."
        )
    mask = 0
    for hand in out:
        for card in hand:
            mask |= BIT[card]
    if mask != DECK_MASKS[seats]:
        raise ValueError(
            f"The deal of hand {hand_index + 1} does not hold each card of the deck once."
        )
    return out


# --- Records -----------------------------------------------------------------------------------


class Trick(NamedTuple):
    """A completed trick: who led, the (seat, card) plays in play order, who won it and the
    card points in it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand (scored or void).

    `trump` is the face-down card; in the record a seat or spectator is shown it is None
    when the trump was never revealed and the viewer is not the bidder (rules C-56-23).
    `points` are card points by team, `game_points` the bidding team's (0 for a void hand),
    `tables` each team's tables after the hand (None in an endless session) and
    `tables_change` what each team gained (+) or handed over (−).
    """

    index: int
    dealer: int
    bidder: int
    contract: int
    trump: Card | None
    trump_revealed: bool
    revealed_by: int | None
    outcome: Outcome
    calls: tuple[tuple[int, int], ...]  # (seat, bid), 0 for a pass
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    game_points: int
    tables: tuple[int, int] | None
    tables_change: tuple[int, int]

    @property
    def made(self) -> bool:
        return self.outcome == "made"

    @property
    def bidding_team(self) -> int:
        return self.bidder & 1


# --- The state ---------------------------------------------------------------------------------


class FiftySixState(NamedTuple):
    """A match of Fifty-Six between two actions.

    * `source`: where the deals come from; `seats`: 4 or 6; `tables_per_team`: tables each
      team starts with (None: an endless session); `hand_index`: 0-based hand (void hands
      count), `dealer`;
    * `phase`: "auction", "trump_choice", "play" or "match_over"; `to_play`: the seat to
      act (-1 once over); `step`: accepted actions so far in this hand;
    * `hands`: the cards each seat holds (masks; the face-down card excluded);
    * auction: `calls` ((seat, bid), 0 for a pass), `high_bid` (0: none yet), `high_bidder`
      (-1), `low_bidders` (mask of seats that made a 28–39 bid: R2), `passes` (passes in a
      row since the high bid);
    * `bidder` (-1 until the auction ends), `contract` (0);
    * trump: `trump` (the face-down card, -1 before it is chosen), `revealed`, `revealed_by`
      (the seat that asked, -1), `asked` (the seat to play has just asked and must play),
      `reveal_pos` (how many cards of the current trick were played before the reveal: later
      trump-suit cards count as trumps, rules §8.4);
    * play: `leader`, `trick` ((seat, card) in play order), `tricks` (completed, this hand),
      `points` (card points by team, this hand);
    * match: `tables` by team, `game_points` (running totals by team), `history`,
      `winning_team` (-1 until over).
    """

    source: DealSource
    seats: int
    tables_per_team: int | None
    hand_index: int
    dealer: int
    phase: Phase
    to_play: int
    step: int
    hands: tuple[int, ...]
    calls: tuple[tuple[int, int], ...]
    high_bid: int
    high_bidder: int
    low_bidders: int
    passes: int
    bidder: int
    contract: int
    trump: int
    revealed: bool
    revealed_by: int
    asked: bool
    reveal_pos: int
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    tables: tuple[int, int]
    game_points: tuple[int, int]
    history: tuple[HandRecord, ...]
    winning_team: int

    @property
    def tani(self) -> bool:
        """The contract is 56: the bidder plays alone (rules §7)."""
        return self.contract >= MAX_BID

    def sits_out(self, seat: int) -> bool:
        """Whether `seat` takes no part in this hand's play (a tani bidder's partner)."""
        return self.contract >= MAX_BID and seat != self.bidder and (seat - self.bidder) % 2 == 0

    def next_to_play(self, seat: int) -> int:
        """The seat after `seat` in play order (a tani bidder's partners are skipped)."""
        nxt = (seat + 1) % self.seats
        if self.contract >= MAX_BID and nxt != self.bidder and (nxt - self.bidder) % 2 == 0:
            nxt = (nxt + 1) % self.seats
        return nxt

    def trick_size(self) -> int:
        """Cards in a complete trick: n, or n/2 + 1 in tani."""
        return self.seats // 2 + 1 if self.contract >= MAX_BID else self.seats


NO_POINTS: tuple[int, int] = (0, 0)
