"""Fifty-Six behind the rules protocol (`games.kinds.protocol.Rules`).

Plain delegation to the engine's functions, with the protocol's shapes:

* `to_act`: the one seat to call, choose the trump card or play; nobody once the match is
  over (a void hand or a scored hand deals the next hand at once, so there is no state
  "between hands");
* `legal_actions(state, seat)`: the complete list, in the traces' order (pass, bids, trump
  cards, ask, plays); empty unless `seat` is to act. A table shows the auction with
  `view.bid_options` (every value with the reason it is not allowed), and `view.can_ask_trump`;
* `decision_key`: the hand and the number of actions taken in it;
* deals: `deals[h]` is a trace's `deal` of hand h: one list of 8 card codes per seat, in deal
  order (the dealer of each hand follows from the rules);
* option `tables_per_team` (rules §11): the tables each team starts with; a team that owes
  more than it holds loses. The engine also runs endless sessions (`None`), which the
  platform does not offer: such a match never ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from games.kinds.deck import read_deals
from games.kinds.protocol import EngineRules, JsonForms, Option
from games.kinds.words import gettext_noop

from .actions import Action, action_from_json, action_to_json
from .cards import parse_card
from .rules import apply, decision_key, legal_actions, new_game, outcome, to_act, undoable
from .snapshot import state_from_json, state_to_json
from .state import (
    DEFAULT_TABLES,
    FiftySixState,
    FixedDeals,
    SeededDeals,
    check_deal,
)
from .state import SEAT_COUNTS as SEAT_COUNTS
from .view import FiftySixView, view_of

SLUG = "fifty-six"
# Translators: the name of a card game (Kerala's "56"); most languages keep it or say the
# number.
NAME = gettext_noop("Fifty-Six")
OPTIONS = (
    Option(
        "tables_per_team",
        # Translators: Fifty-Six's "tables": the tokens a team wins and loses.
        gettext_noop("Tables per team"),
        DEFAULT_TABLES,
        (
            (DEFAULT_TABLES, gettext_noop("12 tables (the usual match)")),
            (6, gettext_noop("6 tables (a shorter match)")),
            (3, gettext_noop("3 tables (a short match)")),
            (1, gettext_noop("1 table (the first lost contract decides)")),
        ),
        help=gettext_noop(
            "A made contract wins tables from the other team, a lost one hands tables over; "
            "a team that owes more tables than it holds loses the match."
        ),
    ),
)


def _tables(options: Mapping[str, Any]) -> int | None:
    if "tables_per_team" not in options:
        return DEFAULT_TABLES
    value = options["tables_per_team"]
    if value is not None and (type(value) is not int or value <= 0):
        raise ValueError(f"Tables per team must be a positive number, not {value!r}.")
    return value


def parse_deals(deals: Sequence[Any], seats: int) -> FixedDeals:
    """The deals of the traces' JSON form (hand h: one list of 8 codes per seat), checked."""
    if not isinstance(deals, Sequence) or isinstance(deals, str):
        raise ValueError("The deals must be a list, one deal per hand.")
    read = read_deals(deals, parse_card, f"{seats} hands")
    return FixedDeals(tuple(check_deal(hands, seats, index) for index, hands in enumerate(read)))


class FiftySixRules(EngineRules[FiftySixState, Action, FiftySixView]):
    """The engine as a `Rules[FiftySixState, Action, FiftySixView]`."""

    def initial_state(self, seed: str, seats: int, options: Mapping[str, Any]) -> FiftySixState:
        return new_game(SeededDeals(seed), seats, _tables(options))

    def initial_state_from_deals(
        self, deals: Sequence[Any], seats: int, options: Mapping[str, Any]
    ) -> FiftySixState:
        if seats not in SEAT_COUNTS:
            raise ValueError(f"Fifty-Six is played by 4 or 6 players, not {seats!r}.")
        return new_game(parse_deals(deals, seats), seats, _tables(options))


JSON = JsonForms(action_to_json, action_from_json, state_to_json, state_from_json)
RULES = FiftySixRules(
    to_act,
    legal_actions,
    apply,
    view_of,
    outcome,
    attrgetter("hand_index"),
    decision_key,
    undoable,
    JSON,
)
