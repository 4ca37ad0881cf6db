"""Hundred and Ten rules engine: pure Python, no Django, no I/O.

Seats are 0-based ints. States are immutable values: `apply(state, move)` returns a new state
or raises `IllegalMove` (a player-facing message and a `.code`). Modules:

* `cards`: `Card` (a small int), notation, names, rank tables, `sort_hand`;
* `moves`: `Bid`, `Unpass`, `SelectTrump`, `Discard`, `Play`, JSON forms, `IllegalMove`;
* `state`: `GameState`, `Status`, `Trick`, `RoundRecord`, deck sources;
* `rules`: `new_game`, `apply`, `replay`, `legal_*`, `round_history` (from `dealing`,
  `queries`, `bidding`, `playing`, `scoring` and `fields`, one part of the rules each);
* `perspective`: `perspective_of(state, seat) -> SeatView` (what a seat may see);
* `snapshot`: `state_to_json` / `state_from_json`;
* `bots`: the reference's naive bot (`suggestion`), `determinize`, `playout`;
* `lobby`, `game`: the seed library's lobby rules and a `Game` facade with automation;
* `conformance`: the trace replayer; `seam`: the engine behind the platform's rules protocol
  (`RULES`).

Queries on a state are attributes (`state.status`, `state.active_seat`, `state.dealer`,
`state.round_index`, `state.scores`, `state.winner`, `state.hands`, `state.bid`,
`state.bidder`, `state.trump`, `state.passed`, `state.pre_passed`, `state.current_trick`,
`state.tricks`, `state.bleeding`) and functions taking a seat (`legal_bids`, `legal_plays`,
`can_prepass`, `can_unpass`, `legal_moves`).
"""

from __future__ import annotations

from games.kinds.lobby import (
    Lobby,
    LobbyError,
    Person,
    Role,
    add_bot,
    decline,
    invite,
    join,
    leave,
    new_lobby,
    players,
    remove,
    start,
)

from .bots import determinize, playout, suggestion
from .cards import (
    SUIT_NAMES,
    SUITS,
    Card,
    card_name,
    card_rank,
    card_suit,
    format_card,
    is_trump,
    parse_card,
    sort_hand,
)
from .game import Game, StepEvents, Transition, events_of
from .moves import (
    BID_AMOUNTS,
    Bid,
    Discard,
    IllegalMove,
    Move,
    Play,
    SelectTrump,
    Unpass,
    move_from_json,
    move_to_json,
)
from .perspective import SeatView, perspective_of
from .rules import (
    DEFAULT_TARGET,
    apply,
    can_prepass,
    can_unpass,
    is_legal,
    legal_bids,
    legal_moves,
    legal_plays,
    new_game,
    new_game_from_decks,
    replay,
    round_history,
)
from .seam import RULES, HundredAndTenRules
from .snapshot import state_from_json, state_to_json
from .state import GameState, RoundRecord, Status, Trick

__all__ = [
    "BID_AMOUNTS",
    "DEFAULT_TARGET",
    "SUITS",
    "SUIT_NAMES",
    "Bid",
    "Card",
    "Discard",
    "Game",
    "GameState",
    "IllegalMove",
    "Lobby",
    "LobbyError",
    "Move",
    "Person",
    "Play",
    "RULES",
    "Role",
    "RoundRecord",
    "SeatView",
    "SelectTrump",
    "Status",
    "StepEvents",
    "Transition",
    "Trick",
    "HundredAndTenRules",
    "Unpass",
    "add_bot",
    "apply",
    "can_prepass",
    "can_unpass",
    "card_name",
    "card_rank",
    "card_suit",
    "decline",
    "determinize",
    "events_of",
    "format_card",
    "invite",
    "is_legal",
    "is_trump",
    "join",
    "leave",
    "legal_bids",
    "legal_moves",
    "legal_plays",
    "move_from_json",
    "move_to_json",
    "new_game",
    "new_game_from_decks",
    "new_lobby",
    "parse_card",
    "perspective_of",
    "players",
    "playout",
    "remove",
    "replay",
    "round_history",
    "sort_hand",
    "start",
    "state_from_json",
    "state_to_json",
    "suggestion",
]
