"""JSON snapshots of a `HeartsState`: `state_from_json(state_to_json(state)) == state`.

Cards are written in notation, sets of cards sorted. The deal source is part of the snapshot
(a seed, or every given deal in deal order), so later hands can be dealt after a restore.
Malformed snapshots raise ValueError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import Card, cards_of, codes, mask_of, parse_card
from .state import (
    OVER,
    PASS,
    PLAY,
    SEATS,
    DealSource,
    FixedDeals,
    HandRecord,
    HeartsState,
    Phase,
    SeededDeals,
    Trick,
    check_deal,
    make_trick,
)

SNAPSHOT_VERSION = 1


def _cards(values: Any) -> tuple[Card, ...]:
    if not isinstance(values, list):
        raise ValueError(f"Expected a list of cards, not {values!r}.")
    return tuple(parse_card(v) for v in values)


def _four(values: Any, what: str) -> tuple[int, int, int, int]:
    if not isinstance(values, list) or len(values) != SEATS:
        raise ValueError(f"{what} must be a list of {SEATS} numbers, not {values!r}.")
    a, b, c, d = (_int(v, what) for v in values)
    return (a, b, c, d)


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be an integer, not {value!r}.")
    return value


def _masks(values: Any, what: str) -> tuple[int, int, int, int]:
    if not isinstance(values, list) or len(values) != SEATS:
        raise ValueError(f"{what} must be a list of {SEATS} card lists.")
    a, b, c, d = (mask_of(_cards(v)) for v in values)
    return (a, b, c, d)


def _trick_to_json(trick: Trick) -> dict[str, Any]:
    return {"leader": trick.leader, "cards": codes(trick.cards)}


def _trick_from_json(data: Any) -> Trick:
    if not isinstance(data, Mapping):
        raise ValueError(f"A trick must be an object, not {data!r}.")
    cards = _cards(data.get("cards"))
    if len(cards) != SEATS:
        raise ValueError(f"A completed trick has {SEATS} cards, not {len(cards)}.")
    return make_trick(_int(data.get("leader"), "A trick's leader") % SEATS, cards)


def source_to_json(source: DealSource) -> dict[str, Any]:
    if isinstance(source, SeededDeals):
        return {"seed": source.seed}
    return {"deals": [[codes(hand) for hand in deal] for deal in source.deals]}


def source_from_json(data: Any) -> DealSource:
    if isinstance(data, Mapping) and isinstance(data.get("seed"), str) and len(data) == 1:
        return SeededDeals(data["seed"])
    if isinstance(data, Mapping) and isinstance(data.get("deals"), list) and len(data) == 1:
        deals = data["deals"]
        return FixedDeals(
            tuple(
                check_deal([_cards(hand) for hand in _list(deal)], index)
                for index, deal in enumerate(deals)
            )
        )
    raise ValueError(f"A deal source is {{'seed': ...}} or {{'deals': [...]}}, not {data!r}.")


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"Expected a list, not {value!r}.")
    return value


def record_to_json(record: HandRecord) -> dict[str, Any]:
    return {
        "index": record.index,
        "pass_direction": record.pass_direction,
        "tricks": [_trick_to_json(t) for t in record.tricks],
        "taken": list(record.taken),
        "points": list(record.points),
        "totals": list(record.totals),
        "moon_shooter": record.moon_shooter,
    }


def record_from_json(data: Any) -> HandRecord:
    if not isinstance(data, Mapping):
        raise ValueError(f"A hand record must be an object, not {data!r}.")
    shooter = data.get("moon_shooter")
    return HandRecord(
        index=_int(data.get("index"), "A hand's index"),
        pass_direction=str(data.get("pass_direction")),
        tricks=tuple(_trick_from_json(t) for t in _list(data.get("tricks"))),
        taken=_four(data.get("taken"), "taken"),
        points=_four(data.get("points"), "points"),
        totals=_four(data.get("totals"), "totals"),
        moon_shooter=None if shooter is None else _int(shooter, "moon_shooter"),
    )


def state_to_json(state: HeartsState) -> dict[str, Any]:
    """A JSON-able dict holding everything in `state`."""
    return {
        "version": SNAPSHOT_VERSION,
        "source": source_to_json(state.source),
        "target": state.target,
        "hand_index": state.hand_index,
        "phase": state.phase,
        "hands": [codes(cards_of(h)) for h in state.hands],
        "passes": [codes(cards_of(p)) for p in state.passes],
        "to_play": state.to_play,
        "leader": state.leader,
        "trick": codes(state.trick),
        "tricks": [_trick_to_json(t) for t in state.tricks],
        "hearts_broken": state.hearts_broken,
        "taken": list(state.taken),
        "totals": list(state.totals),
        "history": [record_to_json(r) for r in state.history],
    }


def state_from_json(data: Mapping[str, Any]) -> HeartsState:
    """The state written by `state_to_json`; ValueError if `data` is not one."""
    if not isinstance(data, Mapping) or data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"Not a Hearts snapshot of version {SNAPSHOT_VERSION}.")
    phase = data.get("phase")
    if phase not in (PASS, PLAY, OVER):
        raise ValueError(f"Unknown phase {phase!r}.")
    checked: Phase = PASS if phase == PASS else PLAY if phase == PLAY else OVER
    to_play = _int(data.get("to_play"), "to_play")
    leader = _int(data.get("leader"), "leader")
    if not -1 <= to_play < SEATS or not -1 <= leader < SEATS:
        raise ValueError("to_play and leader must be seats (or -1).")
    broken = data.get("hearts_broken")
    if not isinstance(broken, bool):
        raise ValueError(f"hearts_broken must be true or false, not {broken!r}.")
    return HeartsState(
        source=source_from_json(data.get("source")),
        target=_int(data.get("target"), "target"),
        hand_index=_int(data.get("hand_index"), "hand_index"),
        phase=checked,
        hands=_masks(data.get("hands"), "hands"),
        passes=_masks(data.get("passes"), "passes"),
        to_play=to_play,
        leader=leader,
        trick=_cards(data.get("trick")),
        tricks=tuple(_trick_from_json(t) for t in _list(data.get("tricks"))),
        hearts_broken=broken,
        taken=_four(data.get("taken"), "taken"),
        totals=_four(data.get("totals"), "totals"),
        history=tuple(record_from_json(r) for r in _list(data.get("history"))),
    )
