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
from typing import Any

from games.kinds.protocol import Option, Outcome

from .actions import Action, action_from_json, action_to_json
from .cards import parse_card
from .rules import apply, decision_key, legal_actions, new_game, outcome, to_act
from .snapshot import state_from_json, state_to_json
from .state import DEFAULT_TARGET, SEATS, FixedDeals, HeartsState, SeededDeals, check_deal
from .view import HeartsView, view_of

SLUG = "hearts"
NAME = "Hearts"
SEAT_COUNTS = (SEATS,)
OPTIONS = (
    Option(
        "target",
        "Play to",
        DEFAULT_TARGET,
        ((DEFAULT_TARGET, "100 points (the usual game)"), (50, "50 points (a short game)")),
        help="The game ends after a hand in which somebody reaches it; the lowest total wins.",
    ),
)


def _target(options: Mapping[str, Any]) -> int:
    target = options.get("target")
    return DEFAULT_TARGET if target is None else int(target)


def _check_seats(seats: int) -> None:
    if seats != SEATS:
        raise ValueError(f"Hearts is played by {SEATS} players, not {seats}.")


class HeartsRules:
    """The engine as a `Rules[HeartsState, Action, HeartsView]`."""

    def initial_state(self, seed: str, seats: int, options: Mapping[str, Any]) -> HeartsState:
        _check_seats(seats)
        return new_game(SeededDeals(seed), _target(options))

    def initial_state_from_deals(
        self, deals: Sequence[Any], seats: int, options: Mapping[str, Any]
    ) -> HeartsState:
        """`deals[h]`: hand h's deal as in the traces, the 13 card codes of each seat."""
        _check_seats(seats)
        checked = []
        for index, deal in enumerate(deals):
            if not isinstance(deal, Sequence) or isinstance(deal, str):
                raise ValueError(f"The deal of hand {index + 1} is not a list of four hands.")
            hands = []
            for hand in deal:
                if not isinstance(hand, Sequence) or isinstance(hand, str):
                    raise ValueError(f"A hand of deal {index + 1} is not a list of cards.")
                hands.append([parse_card(code) for code in hand])
            checked.append(check_deal(hands, index))
        return new_game(FixedDeals(tuple(checked)), _target(options))

    def to_act(self, state: HeartsState) -> frozenset[int]:
        return to_act(state)

    def legal_actions(self, state: HeartsState, seat: int) -> Sequence[Action]:
        return legal_actions(state, seat)

    def apply(self, state: HeartsState, seat: int, action: Action) -> HeartsState:
        return apply(state, seat, action)

    def view(self, state: HeartsState, seat: int | None) -> HeartsView:
        return view_of(state, seat)

    def outcome(self, state: HeartsState) -> Outcome | None:
        return outcome(state)

    def hand_number(self, state: HeartsState) -> int:
        return state.hand_index

    def decision_key(self, state: HeartsState, seat: int) -> str:
        return decision_key(state, seat)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return action_from_json(data)

    def state_to_json(self, state: HeartsState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> HeartsState:
        return state_from_json(data)


RULES = HeartsRules()
