"""Moves (the actions a seat can submit), their JSON form, and the error a refused move raises."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kinds.protocol import IllegalAction

from .cards import SUITS, Card, format_card, parse_card

BID_AMOUNTS: tuple[int, ...] = (15, 20, 25, 30, 60)
PASS = 0


class IllegalMove(IllegalAction):
    """A move the rules refuse. `str(error)` is a player-facing sentence; `code` is stable.

    Codes: not_a_player, game_over, wrong_phase, not_your_turn, bid_not_allowed,
    already_passed, no_prepass, not_bidder, not_a_suit, card_not_in_hand, duplicate_card,
    must_play_trump, not_your_seat (the protocol's seat and the move's differ).
    """


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid `amount` (15, 20, 25, 30 or 60), or pass with 0.

    A pass from a seat that is not active, during bidding, is a pre-pass (rules 7.4).
    """

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Unpass:
    """Withdraw a pending pre-pass."""

    seat: int


@dataclass(frozen=True, slots=True)
class SelectTrump:
    """The bidder names the trump suit: "C", "D", "H" or "S"."""

    seat: int
    suit: str


@dataclass(frozen=True, slots=True)
class Discard:
    """Give up `cards` (any subset of the hand, possibly empty) and draw as many."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Play `card` to the current trick."""

    seat: int
    card: Card


Move = Bid | Unpass | SelectTrump | Discard | Play


def move_to_json(move: Move) -> dict[str, Any]:
    """A JSON-able dict for `move`, e.g. {"type": "bid", "seat": 1, "amount": 20}."""
    if isinstance(move, Bid):
        return {"type": "bid", "seat": move.seat, "amount": move.amount}
    if isinstance(move, Unpass):
        return {"type": "unpass", "seat": move.seat}
    if isinstance(move, SelectTrump):
        return {"type": "select_trump", "seat": move.seat, "suit": move.suit}
    if isinstance(move, Discard):
        return {"type": "discard", "seat": move.seat, "cards": [format_card(c) for c in move.cards]}
    return {"type": "play", "seat": move.seat, "card": format_card(move.card)}


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise ValueError(f"Move {data.get('type')!r} is missing {key!r}.")
    value = data[key]
    # bool is an int subclass; a seat or amount of True is a bug upstream, not a number.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"Move field {key!r} must be {kind.__name__}, not {value!r}.")
    return value


def move_from_json(data: Mapping[str, Any]) -> Move:
    """The move described by `data` (as written by `move_to_json`); ValueError if malformed."""
    if not isinstance(data, Mapping):
        raise ValueError(f"A move must be a JSON object, not {data!r}.")
    kind = data.get("type")
    fields = (
        {
            "bid": {"type", "seat", "amount"},
            "unpass": {"type", "seat"},
            "select_trump": {"type", "seat", "suit"},
            "discard": {"type", "seat", "cards"},
            "play": {"type", "seat", "card"},
        }.get(kind)
        if isinstance(kind, str)
        else None
    )
    if fields is None:
        raise ValueError(f"Unknown move type {kind!r}.")
    extra = set(data) - fields
    if extra:
        raise ValueError(f"Move {kind!r} has unexpected fields: {', '.join(sorted(extra))}.")
    seat = _field(data, "seat", int)
    if kind == "bid":
        return Bid(seat, _field(data, "amount", int))
    if kind == "unpass":
        return Unpass(seat)
    if kind == "select_trump":
        suit = _field(data, "suit", str)
        if suit not in SUITS:
            raise ValueError(f"{suit!r} is not a suit (expected one of C, D, H, S).")
        return SelectTrump(seat, suit)
    if kind == "discard":
        cards = _field(data, "cards", list)
        return Discard(seat, tuple(parse_card(c) for c in cards))
    return Play(seat, parse_card(_field(data, "card", str)))
