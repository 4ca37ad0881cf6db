"""One Hundred and Four behind the rules protocol (`games.kinds.protocol.Rules`).

Plain delegation to the engine's functions, with the protocol's shapes:

* `to_act`: every seat yet to commit its card while choosing (simultaneous and secret), the
  owner of a too-low card during the pause, nobody once over;
* `legal_actions(state, seat)`: a `Choose` of each held card for a seat yet to commit, the
  four `TakeRow` for the seat asked in a pause, else nothing;
* `decision_key`: the deal, the turn and whether `seat` has committed (another seat's
  commitment never makes a seat's submission stale), or the row choice of a pause;
* `hand_number`: the 0-based deal (a match deals again);
* deals: `deals[i]` is a trace's `deal` object, {"rows": [4 cards], "hands": [[10 cards]
  per seat], "rest": [...]}; `initial_state` shuffles deal i from (seed, i) (rules §2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from games.kinds.protocol import EngineRules, JsonForms, Option
from games.kinds.words import Phrase, gettext_noop

from .actions import Action, action_from_json, action_to_json
from .cards import MAX_SEATS, MIN_SEATS
from .rules import (
    apply,
    check_seats,
    decision_key,
    legal_actions,
    new_game,
    outcome,
    to_act,
    undoable,
)
from .snapshot import state_from_json, state_to_json
from .state import FixedDeals, HundredAndFourState, SeededDeals, check_deal
from .view import HundredAndFourView, view_of

SLUG = "one-hundred-and-four"
# Translators: the name of a card game played with cards numbered 1 to 104.
NAME = gettext_noop("One Hundred and Four")
SEAT_COUNTS = tuple(range(MIN_SEATS, MAX_SEATS + 1))
MATCH_TO = 66
OPTIONS = (
    Option(
        "match_to",
        # Translators: the option of how long a game of One Hundred and Four lasts.
        gettext_noop("Length"),
        None,
        (
            (None, gettext_noop("One deal (the usual game)")),
            (
                MATCH_TO,
                Phrase(
                    gettext_noop("Deal again until someone reaches %(points)s"),
                    {"points": MATCH_TO},
                ),
            ),
        ),
        help=gettext_noop(
            "In a match the lowest running total wins once a deal ends with someone at the limit."
        ),
    ),
)


def _match_to(options: Mapping[str, Any]) -> int | None:
    value = options.get("match_to")
    if value is not None and (type(value) is not int or value <= 0):
        raise ValueError(f"match_to must be None or a positive number, not {value!r}.")
    return value


class HundredAndFourRules(EngineRules[HundredAndFourState, Action, HundredAndFourView]):
    """The engine as a `Rules[HundredAndFourState, Action, HundredAndFourView]`."""

    def initial_state(
        self, seed: str, seats: int, options: Mapping[str, Any]
    ) -> HundredAndFourState:
        return new_game(SeededDeals(str(seed)), seats, _match_to(options))

    def initial_state_from_deals(
        self, deals: Sequence[Any], seats: int, options: Mapping[str, Any]
    ) -> HundredAndFourState:
        """`deals[i]`: deal i as in the traces (rows, hands, rest)."""
        check_seats(seats)
        if not isinstance(deals, Sequence) or isinstance(deals, str):
            raise ValueError("The deals must be a list of deals.")
        checked = tuple(check_deal(deal, seats, index) for index, deal in enumerate(deals))
        return new_game(FixedDeals(checked), seats, _match_to(options))


JSON = JsonForms(action_to_json, action_from_json, state_to_json, state_from_json)
RULES = HundredAndFourRules(
    to_act,
    legal_actions,
    apply,
    view_of,
    outcome,
    attrgetter("deal"),
    decision_key,
    undoable,
    JSON,
)
