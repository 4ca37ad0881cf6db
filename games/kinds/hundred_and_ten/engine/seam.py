"""Hundred and Ten behind the rules protocol (`games.kinds.protocol.Rules`).

Plain delegation to the engine's functions, with the protocol's shapes: the seats to act as
a set, the acting seat passed beside the move (our moves also carry it: a move naming
another seat is refused), the outcome as scores and winners, deals as 53-card decks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from games.kinds.protocol import EngineRules, JsonForms, Outcome, target_of, target_option
from games.kinds.words import gettext_noop

from .cards import parse_card
from .moves import IllegalMove, Move, move_from_json, move_to_json
from .perspective import SeatView, perspective_of
from .rules import DEFAULT_TARGET, apply, legal_moves, new_game, new_game_from_source, undoable
from .snapshot import state_from_json, state_to_json
from .state import FixedDecks, GameState, Status, check_deck

SLUG = "hundred-and-ten"
# Translators: the name of a card game (Irish "110"); most languages keep it in English or
# say the number.
NAME = gettext_noop("Hundred and Ten")
SEAT_COUNTS = (2, 3, 4)
OPTIONS = (
    target_option(
        DEFAULT_TARGET,
        60,
        help=gettext_noop("The first player to reach it (as the rules count) wins."),
    ),
)

_NOBODY: frozenset[int] = frozenset()
_ONE = tuple(frozenset({seat}) for seat in range(4))


class HundredAndTenRules(EngineRules[GameState, Move, SeatView]):
    """The engine as a `Rules[GameState, Move, SeatView]`."""

    def initial_state(self, seed: str, seats: int, options: Mapping[str, Any]) -> GameState:
        return new_game(seed, seats, target_of(options, DEFAULT_TARGET))

    def initial_state_from_deals(
        self, deals: Sequence[Any], seats: int, options: Mapping[str, Any]
    ) -> GameState:
        """`deals[r]`: round r's 53 cards as codes ("10H", "JK"): five per seat in seat
        order, then the draw pile."""
        decks = tuple(
            check_deck([parse_card(code) for code in deck], index)
            for index, deck in enumerate(deals)
        )
        return new_game_from_source(FixedDecks(decks), seats, target_of(options, DEFAULT_TARGET))


def _to_act(state: GameState) -> frozenset[int]:
    active = state.active_seat
    return _NOBODY if active is None else _ONE[active]


def _apply(state: GameState, seat: int, action: Move) -> GameState:
    if action.seat != seat:
        raise IllegalMove(gettext_noop("That move belongs to another seat."), "not_your_seat")
    return apply(state, action)


def _outcome(state: GameState) -> Outcome | None:
    if state.status is not Status.WON or state.winner is None:
        return None
    return Outcome(scores=state.scores, winners=(state.winner,))


def _decision_key(state: GameState, seat: int) -> str:
    # A sequential game: every accepted move changes what somebody faces, and a seat may
    # act out of turn (pre-pass), so every move counts (as before the protocol existed).
    return (
        f"{state.round_index}.{state.status.value}.{len(state.bids)}.{state.pre_passed_mask}"
        f".{state.active_seat}.{len(state.tricks)}.{len(state.current_trick)}"
    )


JSON = JsonForms(move_to_json, move_from_json, state_to_json, state_from_json)
RULES = HundredAndTenRules(
    _to_act,
    legal_moves,
    _apply,
    perspective_of,
    _outcome,
    attrgetter("round_index"),
    _decision_key,
    undoable,
    JSON,
)
