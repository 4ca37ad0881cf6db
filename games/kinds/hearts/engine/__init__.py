"""Hearts rules engine (shared rules/hearts.md): pure Python, no Django, no I/O.

Seats are ints 0-3; states are immutable values; `apply(state, seat, action)` returns a new
state or raises `IllegalMove` (an `IllegalAction`: a sentence for the player and a `code`,
the conformance traces' `reason`). Modules:

* `cards`: `Card` (a small int, canonical order = int order), `parse_card` / `card_code`,
  `card_name`, `card_suit`, `card_rank` (alias `card_rank_label`), masks, `POINTS`;
* `state`: `HeartsState`, `Trick`, `HandRecord`, `trick_winner(plays)`, deal sources
  (`SeededDeals`, `FixedDeals`);
* `actions`: `Pass`, `Play`, `make_pass(codes)`, JSON forms, `IllegalMove` and its codes;
* `rules`: `new_game`, `apply`, `to_act`, `legal_plays`, `legal_actions`, `outcome`,
  `decision_key`;
* `passing`: `can_pass`, `has_passed`, `pass_candidates`, `representative_passes`,
  `all_passes`;
* `view`: `view_of(state, seat) -> HeartsView` (what a seat may see);
* `snapshot`: `state_to_json` / `state_from_json`;
* `seam`: the engine behind the platform's rules protocol (`RULES`, `SLUG`, `OPTIONS`).

The variants of the rules (`qs_breaks_hearts`, `moon_subtracts`, `break_ties_by_playing_on`)
are not implemented: the game is the default one of the rules.
"""

from __future__ import annotations

from .actions import (
    CODES_OF_REFUSALS,
    PLAYS,
    Action,
    IllegalMove,
    Pass,
    Play,
    action_from_json,
    action_to_json,
    make_pass,
    make_play,
)
from .cards import (
    CODES,
    POINTS,
    Card,
    card_code,
    card_name,
    card_rank,
    card_rank_label,
    card_suit,
    cards_of,
    parse_card,
    sort_cards,
)
from .passing import (
    all_passes,
    can_pass,
    has_passed,
    pass_candidates,
    representative_passes,
)
from .rules import (
    apply,
    decision_key,
    legal_actions,
    legal_plays,
    new_game,
    outcome,
    to_act,
)
from .seam import NAME, OPTIONS, RULES, SEAT_COUNTS, SLUG, HeartsRules
from .snapshot import state_from_json, state_to_json
from .state import (
    DEFAULT_TARGET,
    FixedDeals,
    HandRecord,
    HeartsState,
    SeededDeals,
    Trick,
    pass_direction,
    trick_winner,
)
from .view import HeartsView, view_of

__all__ = [
    "CODES",
    "CODES_OF_REFUSALS",
    "DEFAULT_TARGET",
    "NAME",
    "OPTIONS",
    "PLAYS",
    "POINTS",
    "RULES",
    "SEAT_COUNTS",
    "SLUG",
    "Action",
    "Card",
    "FixedDeals",
    "HandRecord",
    "HeartsRules",
    "HeartsState",
    "HeartsView",
    "IllegalMove",
    "Pass",
    "Play",
    "SeededDeals",
    "Trick",
    "action_from_json",
    "action_to_json",
    "all_passes",
    "apply",
    "can_pass",
    "card_code",
    "card_name",
    "card_rank",
    "card_rank_label",
    "card_suit",
    "cards_of",
    "decision_key",
    "has_passed",
    "legal_actions",
    "legal_plays",
    "make_pass",
    "make_play",
    "new_game",
    "outcome",
    "parse_card",
    "pass_candidates",
    "pass_direction",
    "representative_passes",
    "sort_cards",
    "state_from_json",
    "state_to_json",
    "to_act",
    "trick_winner",
    "view_of",
]
