"""JSON snapshots of a `HundredAndFourState`: `state_from_json(state_to_json(state)) == state`.

Cards are ints. The deal source is part of the snapshot (a seed, or every given deal), so
later deals of a match can be dealt after a restore. Malformed snapshots raise ValueError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import ROW_COUNT, Rows
from .rules import check_match_to, check_seats
from .state import (
    CHOOSE,
    OVER,
    PAUSE,
    DealRecord,
    DealSource,
    FixedDeals,
    HundredAndFourState,
    LastTurn,
    Phase,
    Placement,
    SeededDeals,
    check_deal,
    deal_to_json,
)

SNAPSHOT_VERSION = 1
_PHASES: dict[str, Phase] = {CHOOSE: CHOOSE, PAUSE: PAUSE, OVER: OVER}


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be an integer, not {value!r}.")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, not {value!r}.")
    return value


def _ints(value: Any, what: str) -> tuple[int, ...]:
    return tuple(_int(v, what) for v in _list(value, what))


def _per_seat(value: Any, seats: int, what: str) -> tuple[int, ...]:
    out = _ints(value, what)
    if len(out) != seats:
        raise ValueError(f"{what} must have one entry per seat.")
    return out


def _rows(value: Any) -> Rows:
    rows = tuple(_ints(row, "A row") for row in _list(value, "rows"))
    if len(rows) != ROW_COUNT or not all(rows):
        raise ValueError(f"There must be {ROW_COUNT} rows of at least one card.")
    return rows


def _plays(value: Any) -> tuple[tuple[int, int], ...]:
    out = []
    for play in _list(value, "plays"):
        seat, card = _ints(play, "A (seat, card) play")
        out.append((seat, card))
    return tuple(out)


def source_to_json(source: DealSource) -> dict[str, Any]:
    if isinstance(source, SeededDeals):
        return {"seed": source.seed}
    return {"deals": [deal_to_json(deal) for deal in source.deals]}


def source_from_json(data: Any, seats: int) -> DealSource:
    if isinstance(data, Mapping) and isinstance(data.get("seed"), str) and len(data) == 1:
        return SeededDeals(data["seed"])
    if isinstance(data, Mapping) and isinstance(data.get("deals"), list) and len(data) == 1:
        return FixedDeals(
            tuple(check_deal(deal, seats, index) for index, deal in enumerate(data["deals"]))
        )
    raise ValueError(f"A deal source is {{'seed': ...}} or {{'deals': [...]}}, not {data!r}.")


def last_turn_to_json(last: LastTurn | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {
        "deal": last.deal,
        "turn": last.turn,
        "choices": [list(play) for play in last.choices],
        "rows_before": [list(row) for row in last.rows_before],
        "placements": [
            {
                "seat": p.seat,
                "card": p.card,
                "row": p.row,
                "took": None if p.took is None else list(p.took),
                "too_low": p.too_low,
            }
            for p in last.placements
        ],
    }


def _placement(data: Any) -> Placement:
    if not isinstance(data, Mapping) or not isinstance(data.get("too_low"), bool):
        raise ValueError(f"A placement must be an object, not {data!r}.")
    took = data.get("took")
    return Placement(
        seat=_int(data.get("seat"), "A placement's seat"),
        card=_int(data.get("card"), "A placement's card"),
        row=_int(data.get("row"), "A placement's row"),
        took=None if took is None else _ints(took, "A placement's cards taken"),
        too_low=data["too_low"],
    )


def last_turn_from_json(data: Any) -> LastTurn | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise ValueError(f"The last turn must be an object, not {data!r}.")
    return LastTurn(
        deal=_int(data.get("deal"), "The last turn's deal"),
        turn=_int(data.get("turn"), "The last turn's index"),
        choices=_plays(data.get("choices")),
        rows_before=_rows(data.get("rows_before")),
        placements=tuple(_placement(p) for p in _list(data.get("placements"), "placements")),
    )


def state_to_json(state: HundredAndFourState) -> dict[str, Any]:
    """A JSON-able dict holding everything in `state`."""
    return {
        "version": SNAPSHOT_VERSION,
        "seats": state.seats,
        "source": source_to_json(state.source),
        "match_to": state.match_to,
        "deal": state.deal,
        "turn": state.turn,
        "phase": state.phase,
        "rows": [list(row) for row in state.rows],
        "hands": [list(hand) for hand in state.hands],
        "choices": list(state.choices),
        "asked": state.asked,
        "penalties": list(state.penalties),
        "piles": [list(pile) for pile in state.piles],
        "totals": list(state.totals),
        "played": [[list(play) for play in turn] for turn in state.played],
        "last_turn": last_turn_to_json(state.last_turn),
        "history": [
            {"index": r.index, "penalties": list(r.penalties), "totals": list(r.totals)}
            for r in state.history
        ],
    }


def _record(data: Any, seats: int) -> DealRecord:
    if not isinstance(data, Mapping):
        raise ValueError(f"A deal record must be an object, not {data!r}.")
    return DealRecord(
        index=_int(data.get("index"), "A deal's index"),
        penalties=_per_seat(data.get("penalties"), seats, "A deal's penalties"),
        totals=_per_seat(data.get("totals"), seats, "A deal's totals"),
    )


def state_from_json(data: Mapping[str, Any]) -> HundredAndFourState:
    """The state written by `state_to_json`; ValueError if `data` is not one."""
    if not isinstance(data, Mapping) or data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"Not a One Hundred and Four snapshot of version {SNAPSHOT_VERSION}.")
    seats = _int(data.get("seats"), "seats")
    check_seats(seats)
    raw_phase = data.get("phase")
    phase = _PHASES.get(raw_phase) if isinstance(raw_phase, str) else None
    if phase is None:
        raise ValueError(f"Unknown phase {raw_phase!r}.")
    match_to = data.get("match_to")
    hands = tuple(tuple(sorted(_ints(h, "A hand"))) for h in _list(data.get("hands"), "hands"))
    piles = tuple(_ints(p, "A pile") for p in _list(data.get("piles"), "piles"))
    if len(hands) != seats or len(piles) != seats:
        raise ValueError("hands and piles must have one entry per seat.")
    asked = _int(data.get("asked"), "asked")
    if (phase == PAUSE) != (0 <= asked < seats) or not -1 <= asked < seats:
        raise ValueError(f"asked {asked} does not fit the phase {phase!r}.")
    return HundredAndFourState(
        seats=seats,
        source=source_from_json(data.get("source"), seats),
        match_to=check_match_to(None if match_to is None else _int(match_to, "match_to")),
        deal=_int(data.get("deal"), "deal"),
        turn=_int(data.get("turn"), "turn"),
        phase=phase,
        rows=_rows(data.get("rows")),
        hands=hands,
        choices=_per_seat(data.get("choices"), seats, "choices"),
        asked=asked,
        penalties=_per_seat(data.get("penalties"), seats, "penalties"),
        piles=piles,
        totals=_per_seat(data.get("totals"), seats, "totals"),
        played=tuple(_plays(turn) for turn in _list(data.get("played"), "played")),
        last_turn=last_turn_from_json(data.get("last_turn")),
        history=tuple(_record(r, seats) for r in _list(data.get("history"), "history")),
    )
