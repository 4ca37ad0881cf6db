"""Actions (a pass of three cards, a card played), their JSON form, and the refusal codes.

The acting seat is given beside the action (`apply(state, seat, action)`), so an action is
only its cards. A `Pass` may hold any number of cards, repeated or not: such a pass is an
action the rules refuse (`pass_wrong_count`, `pass_duplicate_card`), not malformed data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.kinds.protocol import IllegalAction

from .cards import CODES, DECK, Card, parse_card

# Refusal codes: the `reason` strings of the conformance traces, plus the engine's own.
PLAY_NOT_IN_HAND = "play_not_in_hand"
PLAY_OUT_OF_TURN = "play_out_of_turn"
PLAY_MUST_FOLLOW_SUIT = "play_must_follow_suit"
PLAY_HEART_NOT_BROKEN = "play_heart_not_broken"
PLAY_POINTS_ON_FIRST_TRICK = "play_points_on_first_trick"
PLAY_FIRST_LEAD_NOT_2C = "play_first_lead_not_2c"
PLAY_WRONG_PHASE = "play_wrong_phase"
PASS_NOT_IN_HAND = "pass_not_in_hand"
PASS_DUPLICATE_CARD = "pass_duplicate_card"
PASS_WRONG_COUNT = "pass_wrong_count"
PASS_ALREADY_SUBMITTED = "pass_already_submitted"
PASS_WRONG_PHASE = "pass_wrong_phase"
GAME_OVER = "game_over"
NOT_A_SEAT = "not_a_seat"
NOT_AN_ACTION = "not_an_action"

CODES_OF_REFUSALS: tuple[str, ...] = (
    PLAY_NOT_IN_HAND,
    PLAY_OUT_OF_TURN,
    PLAY_MUST_FOLLOW_SUIT,
    PLAY_HEART_NOT_BROKEN,
    PLAY_POINTS_ON_FIRST_TRICK,
    PLAY_FIRST_LEAD_NOT_2C,
    PLAY_WRONG_PHASE,
    PASS_NOT_IN_HAND,
    PASS_DUPLICATE_CARD,
    PASS_WRONG_COUNT,
    PASS_ALREADY_SUBMITTED,
    PASS_WRONG_PHASE,
    GAME_OVER,
    NOT_A_SEAT,
    NOT_AN_ACTION,
)


class IllegalMove(IllegalAction):
    """An action the rules refuse: `str(error)` is a sentence for the player, `code` one of
    `CODES_OF_REFUSALS` (the traces' `reason` strings for the rules' refusals)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Give `cards` (three distinct cards of one's hand, for a legal pass) to the receiver."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Play `card` to the current trick."""

    card: Card


Action = Pass | Play

# One Play per card: legal_actions hands these out without building new objects.
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in DECK)


def make_pass(codes: Iterable[str]) -> Pass:
    """The Pass of the cards written `codes` (e.g. posted by a form), in the given order;
    ValueError for an unknown code. Count and duplicates are checked by `apply`."""
    return Pass(tuple(parse_card(code) for code in codes))


def make_play(code: str) -> Play:
    """The Play of the card written `code`; ValueError for an unknown code."""
    return PLAYS[parse_card(code)]


def action_to_json(action: Action) -> dict[str, Any]:
    """{"pass": ["4C", "7S", "8S"]} or {"play": "2C"}, as in the traces."""
    if isinstance(action, Play):
        return {"play": CODES[action.card]}
    return {"pass": [CODES[c] for c in action.cards]}


def action_from_json(data: Mapping[str, Any]) -> Action:
    """The action written by `action_to_json`; ValueError if `data` is not one."""
    if not isinstance(data, Mapping):
        raise ValueError(f"An action must be a JSON object, not {data!r}.")
    if len(data) != 1:
        raise ValueError(f"An action has exactly one key, 'pass' or 'play', not {sorted(data)}.")
    if "play" in data:
        code = data["play"]
        if not isinstance(code, str):
            raise ValueError(f"'play' must be a card code, not {code!r}.")
        return make_play(code)
    if "pass" in data:
        values = data["pass"]
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise ValueError(f"'pass' must be a list of card codes, not {values!r}.")
        return make_pass(values)
    raise ValueError(f"Unknown action {sorted(data)} (expected 'pass' or 'play').")
