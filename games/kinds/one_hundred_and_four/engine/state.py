"""The game state value, the records of turns and deals, and where each deal comes from.

`HundredAndFourState` is an immutable value (a NamedTuple: cheap to copy with a few fields
changed, which keeps `apply` fast). Hands are sorted tuples of cards; rows are tuples of
cards, oldest first. Use the functions of `rules` and `view` rather than reading fields
directly where one exists.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from .cards import DECK, HAND_SIZE, HIGHEST, ROW_COUNT, Rows, is_card

Phase = Literal["choose", "pause", "over"]
CHOOSE: Phase = "choose"
PAUSE: Phase = "pause"
OVER: Phase = "over"


# --- Deals -------------------------------------------------------------------------------------


class Deal(NamedTuple):
    """One deal as in the traces: the 4 row starters, each seat's 10 cards in deal order and
    the cards nobody gets (deck order)."""

    rows: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    rest: tuple[int, ...]


def _cards(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise ValueError(f"{what} must be a list of cards, not {value!r}.")
    cards = tuple(value)
    if not all(is_card(c) for c in cards):
        raise ValueError(f"{what} must hold cards 1 … {HIGHEST}, not {value!r}.")
    return cards


def check_deal(data: Any, seats: int, index: int = 0) -> Deal:
    """The deal written `data` ({"rows": [4 cards], "hands": [[10 cards] per seat],
    "rest": [...]} as in the traces) for `seats` seats; ValueError unless it is one. Without
    "rest", the cards left over are the rest, ascending."""
    label = f"The deal of game {index + 1}"
    if not isinstance(data, Mapping):
        raise ValueError(f"{label} must be an object with rows and hands, not {data!r}.")
    rows = _cards(data.get("rows"), f"{label}: rows")
    if len(rows) != ROW_COUNT:
        raise ValueError(f"{label} must start {ROW_COUNT} rows, not {len(rows)}.")
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, Sequence) or isinstance(raw_hands, str):
        raise ValueError(f"{label}: hands must be a list of hands.")
    hands = tuple(_cards(hand, f"{label}: a hand") for hand in raw_hands)
    if len(hands) != seats or any(len(hand) != HAND_SIZE for hand in hands):
        raise ValueError(f"{label} must give {HAND_SIZE} cards to each of {seats} seats.")
    dealt = [*rows, *(c for hand in hands for c in hand)]
    if "rest" in data:
        rest = _cards(data["rest"], f"{label}: rest")
        if len(set(dealt).union(rest)) != len(DECK) or len(dealt) + len(rest) != len(DECK):
            raise ValueError(f"{label} must hold each of the {len(DECK)} cards exactly once.")
    else:
        if len(set(dealt)) != len(dealt):
            raise ValueError(f"{label} gives a card twice.")
        used = set(dealt)
        rest = tuple(c for c in DECK if c not in used)
    return Deal(rows, hands, rest)


def deal_to_json(deal: Deal) -> dict[str, Any]:
    return {
        "rows": list(deal.rows),
        "hands": [list(hand) for hand in deal.hands],
        "rest": list(deal.rest),
    }


@lru_cache(maxsize=1024)
def _seeded_deal(seed: str, index: int, seats: int) -> Deal:
    deck = list(DECK)
    random.Random(f"{seed}:{index}").shuffle(deck)
    start = ROW_COUNT
    hands = tuple(
        tuple(deck[start + HAND_SIZE * p : start + HAND_SIZE * (p + 1)]) for p in range(seats)
    )
    return Deal(tuple(deck[:start]), hands, tuple(deck[start + HAND_SIZE * seats :]))


@dataclass(frozen=True, slots=True)
class SeededDeals:
    """Deals shuffled from (seed, deal index) (C-104-03): the cards 1 … 104 shuffled by
    `random.Random(f"{seed}:{index}")`; deck positions 0-3 start the rows, then seat p gets
    positions 4 + 10p … 13 + 10p (rules §2)."""

    seed: str

    def deal(self, index: int, seats: int) -> Deal:
        return _seeded_deal(self.seed, index, seats)


@dataclass(frozen=True, slots=True)
class FixedDeals:
    """Deals given one per deal index (traces, tests). Needing a deal past the last one (or
    one made for another number of seats) is a ValueError."""

    deals: tuple[Deal, ...]

    def deal(self, index: int, seats: int) -> Deal:
        if index >= len(self.deals):
            raise ValueError(f"No deal was given for deal {index + 1}.")
        deal = self.deals[index]
        if len(deal.hands) != seats:
            raise ValueError(f"Deal {index + 1} was made for {len(deal.hands)} seats.")
        return deal


DealSource = SeededDeals | FixedDeals


# --- Records -----------------------------------------------------------------------------------


class Placement(NamedTuple):
    """One card placed during a turn's resolution: its owner, the row it went to, the cards
    its owner took (None when it was simply added to the row) and whether it was too low
    (the owner chose the row)."""

    seat: int
    card: int
    row: int
    took: tuple[int, ...] | None
    too_low: bool


@dataclass(frozen=True, slots=True)
class LastTurn:
    """A resolved turn, public: what each seat revealed ((seat, card), by card), the rows
    before the placements, and the placements in the order they happened. A table animates
    step k with `rows_after_steps(last_turn, k)`."""

    deal: int
    turn: int
    choices: tuple[tuple[int, int], ...]
    rows_before: Rows
    placements: tuple[Placement, ...]

    @property
    def rows_after(self) -> Rows:
        """The rows once every card of the turn is placed."""
        return rows_after_steps(self, len(self.placements))


def rows_after_steps(last_turn: LastTurn, steps: int) -> Rows:
    """The rows of `last_turn` after its first `steps` placements (0: the rows before it;
    `len(placements)` or more: the rows after it)."""
    rows = list(last_turn.rows_before)
    for placement in last_turn.placements[: max(steps, 0)]:
        if placement.took is None:
            rows[placement.row] = (*rows[placement.row], placement.card)
        else:
            rows[placement.row] = (placement.card,)
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal: the points each seat took in it and the running totals after it."""

    index: int
    penalties: tuple[int, ...]
    totals: tuple[int, ...]


# --- The state ---------------------------------------------------------------------------------


class HundredAndFourState(NamedTuple):
    """A game of One Hundred and Four between two actions.

    * `seats`; `source`: where the deals come from; `match_to`: None for the one-deal game,
      else the match limit (rules §5); `deal`: 0-based deal in progress; `turn`: 0-based
      turn of the deal (it stays 9 once the deal is over);
    * `phase`: "choose" (seats committing cards), "pause" (a too-low card's owner must take
      a row) or "over";
    * `rows`: the four rows; `hands`: each seat's cards, sorted (a committed card has left
      the hand); `choices`: each seat's committed card this turn, 0 for none yet;
      `asked`: the seat asked for a row during a pause (else -1);
    * `penalties` and `piles`: the points and cards each seat took in this deal;
      `totals`: the running totals of the finished deals (`history`);
    * `played`: the earlier turns of this deal, each the (seat, card) revealed, by card;
      `last_turn`: the last resolved turn (kept across a new deal of a match).
    """

    seats: int
    source: DealSource
    match_to: int | None
    deal: int
    turn: int
    phase: Phase
    rows: Rows
    hands: tuple[tuple[int, ...], ...]
    choices: tuple[int, ...]
    asked: int
    penalties: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    played: tuple[tuple[tuple[int, int], ...], ...]
    last_turn: LastTurn | None
    history: tuple[DealRecord, ...]


def running_totals(state: HundredAndFourState) -> tuple[int, ...]:
    """The match totals including the points taken so far in the deal in progress (once the
    game is over, the final totals)."""
    if state.phase == OVER:
        return state.totals
    return tuple(t + p for t, p in zip(state.totals, state.penalties, strict=True))
