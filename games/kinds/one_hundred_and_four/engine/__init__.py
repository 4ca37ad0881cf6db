"""One Hundred and Four rules engine (shared rules/one-hundred-and-four.md): pure Python, no
Django, no I/O.

Seats are ints 0 … n-1 (2 ≤ n ≤ 10); cards are ints 1 … 104; states are immutable values;
`apply(state, seat, action)` returns a new state or raises `IllegalMove` (an `IllegalAction`:
a sentence for the player and a `code`, the conformance traces' `reason`). Modules:

* `cards`: `bullheads(card)`, `BULLHEADS`, `row_cost(cards)`, `target_row(rows, card)`,
  `is_card`, the constants (`ROW_COUNT`, `ROW_LIMIT`, `HAND_SIZE`, seat counts);
* `state`: `HundredAndFourState`, `Deal` and deal sources (`SeededDeals`, `FixedDeals`,
  `check_deal`), `Placement`, `LastTurn`, `rows_after_steps(last_turn, k)`, `DealRecord`;
* `actions`: `Choose`, `TakeRow`, JSON forms, `IllegalMove` and its codes;
* `rules`: `new_game`, `apply`, `to_act`, `legal_actions`, `outcome`, `decision_key`;
* `view`: `view_of(state, seat) -> HundredAndFourView` (what a seat may see);
* `snapshot`: `state_to_json` / `state_from_json`;
* `seam`: the engine behind the platform's rules protocol (`RULES`, `SLUG`, `OPTIONS`).
"""

from __future__ import annotations

from .actions import (
    CODES_OF_REFUSALS,
    Action,
    Choose,
    IllegalMove,
    TakeRow,
    action_from_json,
    action_to_json,
)
from .cards import BULLHEADS, DECK, bullheads, is_card, row_cost, target_row
from .rules import apply, decision_key, legal_actions, new_game, outcome, to_act
from .seam import MATCH_TO, NAME, OPTIONS, RULES, SEAT_COUNTS, SLUG, HundredAndFourRules
from .snapshot import state_from_json, state_to_json
from .state import (
    Deal,
    DealRecord,
    FixedDeals,
    HundredAndFourState,
    LastTurn,
    Placement,
    SeededDeals,
    check_deal,
    rows_after_steps,
)
from .view import HundredAndFourView, view_of

__all__ = [
    "BULLHEADS",
    "CODES_OF_REFUSALS",
    "DECK",
    "MATCH_TO",
    "NAME",
    "OPTIONS",
    "RULES",
    "SEAT_COUNTS",
    "SLUG",
    "Action",
    "Choose",
    "Deal",
    "DealRecord",
    "FixedDeals",
    "HundredAndFourRules",
    "HundredAndFourState",
    "HundredAndFourView",
    "IllegalMove",
    "LastTurn",
    "Placement",
    "SeededDeals",
    "TakeRow",
    "action_from_json",
    "action_to_json",
    "apply",
    "bullheads",
    "check_deal",
    "decision_key",
    "is_card",
    "legal_actions",
    "new_game",
    "outcome",
    "row_cost",
    "rows_after_steps",
    "state_from_json",
    "state_to_json",
    "target_row",
    "to_act",
    "view_of",
]
