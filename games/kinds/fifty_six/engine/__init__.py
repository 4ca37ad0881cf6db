"""Fifty-Six rules engine (shared rules/fifty-six.md): pure Python, no Django, no I/O.

Seats are ints 0 … n-1 (n = 4 or 6), teams alternate (team 0 = even seats); states are
immutable values; `apply(state, seat, action)` returns a new state or raises `IllegalMove`
(an `IllegalAction`: a sentence for the player and a `code`, the traces' `reason`). Modules:

* `cards`: `Card` (a small int, canonical order = int order), `parse_card` / `card_code`,
  `card_name`, `card_rank`, `card_suit`, `card_face`, `card_points`, masks, `POINTS`;
* `state`: `FiftySixState`, `Trick`, `HandRecord`, deal sources (`SeededDeals`,
  `FixedDeals`), `team_of`, `game_points_for`;
* `actions`: `Bid`, `Pass`, `ChooseTrump`, `AskTrump`, `Play`, JSON forms, `IllegalMove`
  and its codes;
* `auction`: dealing (`start_hand`), `bid_problem`, `legal_bids`, `bid_options`
  (`BidOption`: value, allowed, reason), `may_pass`, the trump card and void hands;
* `play`: `legal_play_mask`, `can_ask_trump`, `must_reveal`, `trick_winner_index`,
  `current_winner`, scoring;
* `rules`: `new_game`, `apply`, `to_act`, `legal_actions`, `outcome`, `decision_key`;
* `view`: `view_of(state, seat) -> FiftySixView` (what a seat may see);
* `snapshot`: `state_to_json` / `state_from_json`;
* `seam`: the engine behind the platform's rules protocol (`RULES`, `SLUG`, `OPTIONS`).

The variants of the rules' §13 (`open_trump`, `doubling`, `four_player_full_deck`,
`early_trumps_count`, `thani_partners_play`) are not implemented: the game is the default one.
"""

from __future__ import annotations

from .actions import (
    ASK_TRUMP,
    CODES_OF_REFUSALS,
    PASS,
    PLAYS,
    Action,
    AskTrump,
    Bid,
    ChooseTrump,
    IllegalMove,
    Pass,
    Play,
    action_from_json,
    action_to_json,
    make_bid,
    make_play,
    make_trump,
)
from .auction import BidOption, bid_options, bid_problem, legal_bids, may_pass
from .cards import (
    CODES,
    POINTS,
    Card,
    card_code,
    card_face,
    card_name,
    card_points,
    card_rank,
    card_rank_label,
    card_suit,
    cards_of,
    parse_card,
    sort_cards,
)
from .play import can_ask_trump, current_winner, legal_play_mask, must_reveal
from .rules import apply, decision_key, legal_actions, new_game, outcome, to_act
from .seam import NAME, OPTIONS, RULES, SEAT_COUNTS, SLUG, FiftySixRules
from .snapshot import state_from_json, state_to_json
from .state import (
    DEFAULT_TABLES,
    FiftySixState,
    FixedDeals,
    HandRecord,
    SeededDeals,
    Trick,
    team_of,
)
from .view import FiftySixView, view_of

__all__ = [
    "ASK_TRUMP",
    "CODES",
    "CODES_OF_REFUSALS",
    "DEFAULT_TABLES",
    "NAME",
    "OPTIONS",
    "PASS",
    "PLAYS",
    "POINTS",
    "RULES",
    "SEAT_COUNTS",
    "SLUG",
    "Action",
    "AskTrump",
    "Bid",
    "BidOption",
    "Card",
    "ChooseTrump",
    "FiftySixRules",
    "FiftySixState",
    "FiftySixView",
    "FixedDeals",
    "HandRecord",
    "IllegalMove",
    "Pass",
    "Play",
    "SeededDeals",
    "Trick",
    "action_from_json",
    "action_to_json",
    "apply",
    "bid_options",
    "bid_problem",
    "can_ask_trump",
    "card_code",
    "card_face",
    "card_name",
    "card_points",
    "card_rank",
    "card_rank_label",
    "card_suit",
    "cards_of",
    "current_winner",
    "decision_key",
    "legal_actions",
    "legal_bids",
    "legal_play_mask",
    "make_bid",
    "make_play",
    "make_trump",
    "may_pass",
    "must_reveal",
    "new_game",
    "outcome",
    "parse_card",
    "sort_cards",
    "state_from_json",
    "state_to_json",
    "team_of",
    "to_act",
    "view_of",
]
