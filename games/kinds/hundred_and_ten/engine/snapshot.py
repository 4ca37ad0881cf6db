"""JSON snapshots of a `GameState`, so a stored game need not be replayed from its first move.

`state_from_json(state_to_json(state)) == state` exactly. Cards are written in notation, seats
as ints. The deck source is part of the snapshot: a seed (later rounds are dealt from it) or
the list of prepared decks; a function deck source cannot be written and raises ValueError.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Card, format_card, parse_card
from .state import (
    DeckSource,
    FixedDecks,
    GameState,
    RoundRecord,
    SeededDecks,
    Status,
    Trick,
    check_deck,
)

SNAPSHOT_VERSION = 1


def _cards(cards: Iterable[Card]) -> list[str]:
    return [format_card(c) for c in cards]


def _parse_cards(values: Iterable[str]) -> tuple[Card, ...]:
    return tuple(parse_card(v) for v in values)


def _plays(plays: Iterable[tuple[int, Card]]) -> list[list[Any]]:
    return [[seat, format_card(card)] for seat, card in plays]


def _parse_plays(values: Iterable[list[Any]]) -> tuple[tuple[int, Card], ...]:
    return tuple((int(seat), parse_card(card)) for seat, card in values)


def _trick(trick: Trick) -> dict[str, Any]:
    return {"leader": trick.leader, "plays": _plays(trick.plays), "winner": trick.winner}


def _parse_trick(data: Mapping[str, Any]) -> Trick:
    return Trick(int(data["leader"]), _parse_plays(data["plays"]), int(data["winner"]))


def _pairs(pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    return [[a, b] for a, b in pairs]


def _parse_pairs(values: Iterable[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in values)


def record_to_json(record: RoundRecord) -> dict[str, Any]:
    """A finished round as a JSON-able dict."""
    return {
        "index": record.index,
        "dealer": record.dealer,
        "hands": [_cards(h) for h in record.hands],
        "bids": _pairs(record.bids),
        "bidder": record.bidder,
        "bid": record.bid,
        "trump": record.trump,
        "discards": [_cards(d) for d in record.discards],
        "draws": [_cards(d) for d in record.draws],
        "tricks": [_trick(t) for t in record.tricks],
        "bonus_trick": record.bonus_trick,
        "outcome": record.outcome,
        "score_events": _pairs(record.score_events),
        "round_scores": list(record.round_scores),
    }


def record_from_json(data: Mapping[str, Any]) -> RoundRecord:
    return RoundRecord(
        index=int(data["index"]),
        dealer=int(data["dealer"]),
        hands=tuple(_parse_cards(h) for h in data["hands"]),
        bids=_parse_pairs(data["bids"]),
        bidder=data["bidder"],
        bid=data["bid"],
        trump=data["trump"],
        discards=tuple(_parse_cards(d) for d in data["discards"]),
        draws=tuple(_parse_cards(d) for d in data["draws"]),
        tricks=tuple(_parse_trick(t) for t in data["tricks"]),
        bonus_trick=data["bonus_trick"],
        outcome=str(data["outcome"]),
        score_events=_parse_pairs(data["score_events"]),
        round_scores=tuple(int(v) for v in data["round_scores"]),
    )


def _decks_to_json(decks: DeckSource) -> dict[str, Any]:
    if isinstance(decks, SeededDecks):
        return {"kind": "seed", "seed": decks.seed}
    if isinstance(decks, FixedDecks):
        return {"kind": "fixed", "decks": [_cards(d) for d in decks.decks]}
    raise ValueError("Only seeded or prepared decks can be written to a snapshot.")


def _decks_from_json(data: Mapping[str, Any]) -> DeckSource:
    if data["kind"] == "seed":
        return SeededDecks(str(data["seed"]))
    if data["kind"] == "fixed":
        return FixedDecks(
            tuple(check_deck(_parse_cards(d), r) for r, d in enumerate(data["decks"]))
        )
    raise ValueError(f"Unknown deck source {data['kind']!r}.")


def _optional_cards(values: Iterable[Card] | None) -> list[str] | None:
    return None if values is None else _cards(values)


def state_to_json(state: GameState) -> dict[str, Any]:
    """A JSON-able snapshot of `state` (see module docstring)."""
    return {
        "version": SNAPSHOT_VERSION,
        "players": state.players,
        "target": state.target,
        "decks": _decks_to_json(state.decks),
        "status": state.status.value,
        "round_index": state.round_index,
        "dealer": state.dealer,
        "dealt_in_a_row": state.dealt_in_a_row,
        "scores": list(state.scores),
        "history": [record_to_json(r) for r in state.history],
        "winner": state.winner,
        "active_seat": state.active_seat,
        "hands": [_cards(h) for h in state.hands],
        "dealt": [_cards(h) for h in state.dealt],
        "pile": _cards(state.pile),
        "pile_pos": state.pile_pos,
        "bids": _pairs(state.bids),
        "high_bid": state.high_bid,
        "holder": state.holder,
        "bidder": state.bidder,
        "passed_mask": state.passed_mask,
        "pre_passed_mask": state.pre_passed_mask,
        "trump_index": state.trump_index,
        "discards": [_optional_cards(d) for d in state.discards],
        "draws": [_optional_cards(d) for d in state.draws],
        "current_trick": _plays(state.current_trick),
        "tricks": [_trick(t) for t in state.tricks],
    }


def state_from_json(data: Mapping[str, Any]) -> GameState:
    """The state written by `state_to_json`; ValueError for another snapshot version."""
    if data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"Unsupported snapshot version {data.get('version')!r}.")

    def optional(values: Iterable[str] | None) -> tuple[Card, ...] | None:
        return None if values is None else _parse_cards(values)

    return GameState(
        players=int(data["players"]),
        target=int(data["target"]),
        decks=_decks_from_json(data["decks"]),
        status=Status(data["status"]),
        round_index=int(data["round_index"]),
        dealer=int(data["dealer"]),
        dealt_in_a_row=int(data["dealt_in_a_row"]),
        scores=tuple(int(v) for v in data["scores"]),
        history=tuple(record_from_json(r) for r in data["history"]),
        winner=data["winner"],
        active_seat=data["active_seat"],
        hands=tuple(_parse_cards(h) for h in data["hands"]),
        dealt=tuple(_parse_cards(h) for h in data["dealt"]),
        pile=_parse_cards(data["pile"]),
        pile_pos=int(data["pile_pos"]),
        bids=_parse_pairs(data["bids"]),
        high_bid=int(data["high_bid"]),
        holder=data["holder"],
        bidder=data["bidder"],
        passed_mask=int(data["passed_mask"]),
        pre_passed_mask=int(data["pre_passed_mask"]),
        trump_index=data["trump_index"],
        discards=tuple(optional(d) for d in data["discards"]),
        draws=tuple(optional(d) for d in data["draws"]),
        current_trick=_parse_plays(data["current_trick"]),
        tricks=tuple(_parse_trick(t) for t in data["tricks"]),
    )
