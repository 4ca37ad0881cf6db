"""Where each field sits in a `GameState`, for the move handlers' hot path.

Speed matters here (bots run whole rounds in search), so the hot path copies the state's
fields into a list, edits the few that change and builds the new tuple in one call
(`_build`), instead of `_replace`, which is several times slower. `build_state` does the same
by field name for the other engine modules. The statuses have short names here too.
"""

from __future__ import annotations

from typing import Any

from .state import GameState, Status

_I = {name: i for i, name in enumerate(GameState._fields)}
_STATUS = _I["status"]
_ROUND = _I["round_index"]
_SCORES = _I["scores"]
_HISTORY = _I["history"]
_WINNER = _I["winner"]
_ACTIVE = _I["active_seat"]
_HANDS = _I["hands"]
_PILE_POS = _I["pile_pos"]
_BIDS = _I["bids"]
_HIGH_BID = _I["high_bid"]
_HOLDER = _I["holder"]
_BIDDER = _I["bidder"]
_PASSED = _I["passed_mask"]
_PRE_PASSED = _I["pre_passed_mask"]
_TRUMP = _I["trump_index"]
_DISCARDS = _I["discards"]
_DRAWS = _I["draws"]
_TRICK = _I["current_trick"]
_TRICKS = _I["tricks"]

_BIDDING = Status.BIDDING
_TRUMP_SELECTION = Status.TRUMP_SELECTION
_DISCARD = Status.DISCARD
_PLAYING = Status.TRICKS
_WON = Status.WON

_new_tuple = tuple.__new__


def _build(fields: list[Any]) -> GameState:
    return _new_tuple(GameState, fields)


def build_state(state: GameState, **changes: Any) -> GameState:
    """`state` with some fields replaced (like `_replace`, for engine modules only)."""
    fields = list(state)
    for name, value in changes.items():
        fields[_I[name]] = value
    return _build(fields)
