"""Actions (choose a card, take a row), their JSON form, and the refusal codes.

The acting seat is given beside the action (`apply(state, seat, action)`), so an action is
only its card or row. A card or row out of range is an action the rules refuse
(`card_out_of_range`, `row_out_of_range`), not malformed data: `action_from_json` accepts
any int there, and ValueError is for everything that is not an action at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kinds.protocol import IllegalAction

from .cards import DECK, ROW_COUNT

# Refusal codes: the `reason` strings of the conformance traces, plus `not_an_action`.
CARD_NOT_HELD = "card_not_held"
CARD_OUT_OF_RANGE = "card_out_of_range"
ALREADY_CHOSEN = "already_chosen"
NOT_ASKED = "not_asked"
ROW_OUT_OF_RANGE = "row_out_of_range"
CHOOSE_DURING_PAUSE = "choose_during_pause"
SEAT_OUT_OF_RANGE = "seat_out_of_range"
GAME_OVER = "game_over"
NOT_AN_ACTION = "not_an_action"

CODES_OF_REFUSALS: tuple[str, ...] = (
    CARD_NOT_HELD,
    CARD_OUT_OF_RANGE,
    ALREADY_CHOSEN,
    NOT_ASKED,
    ROW_OUT_OF_RANGE,
    CHOOSE_DURING_PAUSE,
    SEAT_OUT_OF_RANGE,
    GAME_OVER,
    NOT_AN_ACTION,
)


class IllegalMove(IllegalAction):
    """An action the rules refuse: `str(error)` is a sentence for the player, `code` one of
    `CODES_OF_REFUSALS` (the traces' `reason` strings)."""


@dataclass(frozen=True, slots=True)
class Choose:
    """Commit `card` (face down) for this turn."""

    card: int


@dataclass(frozen=True, slots=True)
class TakeRow:
    """Take row `row` (0-3) with one's too-low card."""

    row: int


Action = Choose | TakeRow

# One action object per card and per row: legal_actions hands these out without building.
CHOOSES: tuple[Choose, ...] = (Choose(0), *(Choose(c) for c in DECK))
TAKE_ROWS: tuple[TakeRow, ...] = tuple(TakeRow(r) for r in range(ROW_COUNT))


def _int(data: Mapping[str, Any], key: str) -> int:
    if key not in data:
        raise ValueError(f"The action lacks its {key!r}.")
    value = data[key]
    if type(value) is not int:
        raise ValueError(f"{key!r} must be an integer, not {value!r}.")
    return value


def action_to_json(action: Action) -> dict[str, Any]:
    """{"action": "choose", "card": 17} or {"action": "take_row", "row": 2}, as in the
    traces' steps (without the seat)."""
    if isinstance(action, Choose):
        return {"action": "choose", "card": action.card}
    return {"action": "take_row", "row": action.row}


def action_from_json(data: Mapping[str, Any]) -> Action:
    """The action written by `action_to_json`; ValueError if `data` is not one. Other keys
    (a trace step's "seat", "illegal", "reason") are ignored."""
    if not isinstance(data, Mapping):
        raise ValueError(f"An action must be a JSON object, not {data!r}.")
    kind = data.get("action")
    if kind == "choose":
        card = _int(data, "card")
        return CHOOSES[card] if 0 < card < len(CHOOSES) else Choose(card)
    if kind == "take_row":
        row = _int(data, "row")
        return TAKE_ROWS[row] if 0 <= row < ROW_COUNT else TakeRow(row)
    raise ValueError(f"Unknown action {kind!r} (expected 'choose' or 'take_row').")
