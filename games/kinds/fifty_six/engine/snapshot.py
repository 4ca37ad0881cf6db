"""JSON snapshots of a `FiftySixState`: `state_from_json(state_to_json(state)) == state`.

Cards are written in notation, hands sorted. The deal source is part of the snapshot (a seed,
or every given deal in deal order), so later hands can be dealt after a restore. Malformed
snapshots raise ValueError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import CODES, Card, cards_of, mask_of, parse_card
from .state import (
    AUCTION,
    OVER,
    PLAY,
    SEAT_COUNTS,
    TRUMP_CHOICE,
    DealSource,
    FiftySixState,
    FixedDeals,
    HandRecord,
    Outcome,
    Phase,
    SeededDeals,
    Trick,
    check_deal,
)

SNAPSHOT_VERSION = 1
_PHASES: dict[str, Phase] = {p: p for p in (AUCTION, TRUMP_CHOICE, PLAY, OVER)}
_OUTCOMES: dict[str, Outcome] = {"made": "made", "lost": "lost", "void": "void"}


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be an integer, not {value!r}.")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}.")
    return value


def _list(value: Any, what: str = "a list") -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"Expected {what}, not {value!r}.")
    return value


def _pair(value: Any, what: str) -> tuple[int, int]:
    items = _list(value, f"{what} as two numbers")
    if len(items) != 2:
        raise ValueError(f"{what} must be two numbers, not {value!r}.")
    return _int(items[0], what), _int(items[1], what)


def _cards(values: Any) -> tuple[Card, ...]:
    return tuple(parse_card(v) for v in _list(values, "a list of cards"))


def _plays_to_json(plays: tuple[tuple[int, Card], ...]) -> list[list[Any]]:
    return [[seat, CODES[card]] for seat, card in plays]


def _plays_from_json(data: Any) -> tuple[tuple[int, Card], ...]:
    out = []
    for item in _list(data, "a list of plays"):
        pair = _list(item, "a [seat, card] play")
        if len(pair) != 2:
            raise ValueError(f"A play is [seat, card], not {item!r}.")
        out.append((_int(pair[0], "A play's seat"), parse_card(pair[1])))
    return tuple(out)


def _trick_to_json(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "plays": _plays_to_json(trick.plays),
        "winner": trick.winner,
        "points": trick.points,
    }


def _trick_from_json(data: Any) -> Trick:
    if not isinstance(data, Mapping):
        raise ValueError(f"A trick must be an object, not {data!r}.")
    return Trick(
        _int(data.get("leader"), "A trick's leader"),
        _plays_from_json(data.get("plays")),
        _int(data.get("winner"), "A trick's winner"),
        _int(data.get("points"), "A trick's points"),
    )


def _calls_from_json(data: Any) -> tuple[tuple[int, int], ...]:
    out = []
    for item in _list(data, "a list of calls"):
        call = _list(item, "a [seat, bid] call")
        if len(call) != 2:
            raise ValueError(f"A call is [seat, bid], not {item!r}.")
        out.append((_int(call[0], "A call's seat"), _int(call[1], "A call's bid")))
    return tuple(out)


def source_to_json(source: DealSource) -> dict[str, Any]:
    if isinstance(source, SeededDeals):
        return {"seed": source.seed}
    return {"deals": [[[CODES[c] for c in hand] for hand in deal] for deal in source.deals]}


def source_from_json(data: Any, seats: int) -> DealSource:
    if isinstance(data, Mapping) and isinstance(data.get("seed"), str) and len(data) == 1:
        return SeededDeals(data["seed"])
    if isinstance(data, Mapping) and isinstance(data.get("deals"), list) and len(data) == 1:
        return FixedDeals(
            tuple(
                check_deal([_cards(hand) for hand in _list(deal)], seats, index)
                for index, deal in enumerate(data["deals"])
            )
        )
    raise ValueError(f"A deal source is {{'seed': ...}} or {{'deals': [...]}}, not {data!r}.")


def record_to_json(record: HandRecord) -> dict[str, Any]:
    return {
        "index": record.index,
        "dealer": record.dealer,
        "bidder": record.bidder,
        "contract": record.contract,
        "trump": None if record.trump is None else CODES[record.trump],
        "trump_revealed": record.trump_revealed,
        "revealed_by": record.revealed_by,
        "outcome": record.outcome,
        "calls": [list(call) for call in record.calls],
        "tricks": [_trick_to_json(t) for t in record.tricks],
        "points": list(record.points),
        "game_points": record.game_points,
        "tables": None if record.tables is None else list(record.tables),
        "tables_change": list(record.tables_change),
    }


def record_from_json(data: Any) -> HandRecord:
    if not isinstance(data, Mapping):
        raise ValueError(f"A hand record must be an object, not {data!r}.")
    raw = data.get("outcome")
    outcome = _OUTCOMES.get(raw) if isinstance(raw, str) else None
    if outcome is None:
        raise ValueError(f"Unknown hand outcome {data.get('outcome')!r}.")
    trump, by, tables = data.get("trump"), data.get("revealed_by"), data.get("tables")
    return HandRecord(
        index=_int(data.get("index"), "A hand's index"),
        dealer=_int(data.get("dealer"), "A hand's dealer"),
        bidder=_int(data.get("bidder"), "A hand's bidder"),
        contract=_int(data.get("contract"), "A hand's contract"),
        trump=None if trump is None else parse_card(trump),
        trump_revealed=_bool(data.get("trump_revealed"), "trump_revealed"),
        revealed_by=None if by is None else _int(by, "revealed_by"),
        outcome=outcome,
        calls=_calls_from_json(data.get("calls")),
        tricks=tuple(_trick_from_json(t) for t in _list(data.get("tricks"))),
        points=_pair(data.get("points"), "points"),
        game_points=_int(data.get("game_points"), "game_points"),
        tables=None if tables is None else _pair(tables, "tables"),
        tables_change=_pair(data.get("tables_change"), "tables_change"),
    )


def state_to_json(state: FiftySixState) -> dict[str, Any]:
    """A JSON-able dict holding everything in `state`."""
    return {
        "version": SNAPSHOT_VERSION,
        "source": source_to_json(state.source),
        "seats": state.seats,
        "tables_per_team": state.tables_per_team,
        "hand_index": state.hand_index,
        "dealer": state.dealer,
        "phase": state.phase,
        "to_play": state.to_play,
        "step": state.step,
        "hands": [[CODES[c] for c in cards_of(h)] for h in state.hands],
        "calls": [list(call) for call in state.calls],
        "high_bid": state.high_bid,
        "high_bidder": state.high_bidder,
        "low_bidders": state.low_bidders,
        "passes": state.passes,
        "bidder": state.bidder,
        "contract": state.contract,
        "trump": None if state.trump < 0 else CODES[state.trump],
        "revealed": state.revealed,
        "revealed_by": state.revealed_by,
        "asked": state.asked,
        "reveal_pos": state.reveal_pos,
        "leader": state.leader,
        "trick": _plays_to_json(state.trick),
        "tricks": [_trick_to_json(t) for t in state.tricks],
        "points": list(state.points),
        "tables": list(state.tables),
        "game_points": list(state.game_points),
        "history": [record_to_json(r) for r in state.history],
        "winning_team": state.winning_team,
    }


def state_from_json(data: Mapping[str, Any]) -> FiftySixState:
    """The state written by `state_to_json`; ValueError if `data` is not one."""
    if not isinstance(data, Mapping) or data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"Not a Fifty-Six snapshot of version {SNAPSHOT_VERSION}.")
    seats = _int(data.get("seats"), "seats")
    if seats not in SEAT_COUNTS:
        raise ValueError(f"Fifty-Six is played by 4 or 6 players, not {seats}.")
    raw = data.get("phase")
    phase = _PHASES.get(raw) if isinstance(raw, str) else None
    if phase is None:
        raise ValueError(f"Unknown phase {data.get('phase')!r}.")
    tables_per_team = data.get("tables_per_team")
    hands = _list(data.get("hands"), "a list of hands")
    if len(hands) != seats:
        raise ValueError(f"A snapshot of {seats} seats holds {seats} hands.")
    trump = data.get("trump")
    to_play = _int(data.get("to_play"), "to_play")
    if not -1 <= to_play < seats or (to_play < 0) != (phase == OVER):
        raise ValueError(f"to_play {to_play} does not fit phase {phase!r}.")
    return FiftySixState(
        source=source_from_json(data.get("source"), seats),
        seats=seats,
        tables_per_team=None if tables_per_team is None else _int(tables_per_team, "tables"),
        hand_index=_int(data.get("hand_index"), "hand_index"),
        dealer=_int(data.get("dealer"), "dealer") % seats,
        phase=phase,
        to_play=to_play,
        step=_int(data.get("step"), "step"),
        hands=tuple(mask_of(_cards(h)) for h in hands),
        calls=_calls_from_json(data.get("calls")),
        high_bid=_int(data.get("high_bid"), "high_bid"),
        high_bidder=_int(data.get("high_bidder"), "high_bidder"),
        low_bidders=_int(data.get("low_bidders"), "low_bidders"),
        passes=_int(data.get("passes"), "passes"),
        bidder=_int(data.get("bidder"), "bidder"),
        contract=_int(data.get("contract"), "contract"),
        trump=-1 if trump is None else parse_card(trump),
        revealed=_bool(data.get("revealed"), "revealed"),
        revealed_by=_int(data.get("revealed_by"), "revealed_by"),
        asked=_bool(data.get("asked"), "asked"),
        reveal_pos=_int(data.get("reveal_pos"), "reveal_pos"),
        leader=_int(data.get("leader"), "leader"),
        trick=_plays_from_json(data.get("trick")),
        tricks=tuple(_trick_from_json(t) for t in _list(data.get("tricks"))),
        points=_pair(data.get("points"), "points"),
        tables=_pair(data.get("tables"), "tables"),
        game_points=_pair(data.get("game_points"), "game_points"),
        history=tuple(record_from_json(r) for r in _list(data.get("history"))),
        winning_team=_int(data.get("winning_team"), "winning_team"),
    )
