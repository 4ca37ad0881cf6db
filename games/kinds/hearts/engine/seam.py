"""Hearts behind the rules protocol (`games.kinds.protocol.Rules`).

Plain delegation to the engine's functions, with the protocol's shapes:

* `to_act`: every seat yet to pass in a passing hand (after the fourth pass the exchange
  happens at once and the 2♣ holder is to play), the seat to play, nobody once over;
* `legal_actions(state, seat)`: in the play, every legal `Play` of `seat` (empty when it is
  not their turn). In the pass phase a documented set of representatives, non-empty while
  `seat` has to pass (`passing.representative_passes`: the three highest, the three lowest,
  and every three cards in a row of the sorted hand); `apply` accepts every pass of three
  held cards. A table should offer `pass_candidates(state, seat)` (the seat's own cards) and
  build `make_pass(codes)` from the posted card codes; `passing.all_passes` lists all 286;
* `decision_key`: the hand and whether `seat` has passed during the pass (another seat's pass
  never makes a seat's submission stale), the number of cards played during the play;
* deals: `deals[h]` is a trace's `deal` of hand h, four lists of 13 codes in deal order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from games.kinds.deck import read_deals
from games.kinds.protocol import EngineRules, JsonForms, target_of, target_option
from games.kinds.words import gettext_noop

from .actions import Action, action_from_json, action_to_json
from .cards import parse_card
from .rules import apply, decision_key, legal_actions, new_game, outcome, to_act, undoable
from .snapshot import state_from_json, state_to_json
from .state import DEFAULT_TARGET, SEATS, FixedDeals, HeartsState, SeededDeals, check_deal
from .view import HeartsView, view_of

SLUG = "hearts"
# Translators: the name of a card game, "Hearts" (as in "Hearts is played by 4 players").
NAME = gettext_noop("Hearts")
SEAT_COUNTS = (SEATS,)
OPTIONS = (
    target_option(
        DEFAULT_TARGET,
        50,
        help=gettext_noop(
            "The game ends after a hand in which somebody reaches it; the lowest total wins."
        ),
    ),
)


def _check_seats(seats: int) -> None:
    if seats != SEATS:
        raise ValueError(f"Hearts is played by {SEATS} players, not {seats}.")


class HeartsRules(EngineRules[HeartsState, Action, HeartsView]):
    """The engine as a `Rules[HeartsState, Action, HeartsView]`."""

    def initial_state(self, seed: str, seats: int, options: Mapping[str, Any]) -> HeartsState:
        _check_seats(seats)
        return new_game(SeededDeals(seed), target_of(options, DEFAULT_TARGET))

    def initial_state_from_deals(
        self, deals: Sequence[Any], seats: int, options: Mapping[str, Any]
    ) -> HeartsState:
        """`deals[h]`: hand h's deal as in the traces, the 13 card codes of each seat."""
        _check_seats(seats)
        read = read_deals(deals, parse_card, "four hands")
        checked = tuple(check_deal(hands, index) for index, hands in enumerate(read))
        return new_game(FixedDeals(checked), target_of(options, DEFAULT_TARGET))


JSON = JsonForms(action_to_json, action_from_json, state_to_json, state_from_json)
RULES = HeartsRules(
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
