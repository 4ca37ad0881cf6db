"""Actions (a bid, a pass, the trump card laid down, asking for the trump, a card played),
their JSON form as in the traces, and the refusal codes.

The acting seat is given beside the action (`apply(state, seat, action)`). A `Bid` may hold
any int and a card any `Card`: a bid of 57 or a card one does not hold is an action the rules
refuse (`bid_above_maximum`, `play_not_in_hand`), not malformed data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kinds.protocol import IllegalAction

from .cards import CODES, DECK, Card, parse_card

# Refusal codes: the `reason` strings of the conformance traces, plus the engine's own.
AFTER_MATCH_OVER = "after_match_over"
OPENER_MUST_BID = "opener_must_bid"
BID_BELOW_MINIMUM = "bid_below_minimum"
BID_ABOVE_MAXIMUM = "bid_above_maximum"
BID_NOT_HIGHER = "bid_not_higher"
BID_R1_TEAMMATE_LOW_BID = "bid_r1_teammate_low_bid"
BID_R2_SECOND_LOW_BID = "bid_r2_second_low_bid"
BID_OUT_OF_TURN = "bid_out_of_turn"
BID_WRONG_PHASE = "bid_wrong_phase"
PASS_OUT_OF_TURN = "pass_out_of_turn"
PASS_WRONG_PHASE = "pass_wrong_phase"
CHOOSE_TRUMP_WRONG_PHASE = "choose_trump_wrong_phase"
CHOOSE_TRUMP_NOT_BIDDER = "choose_trump_not_bidder"
CHOOSE_TRUMP_NOT_IN_HAND = "choose_trump_not_in_hand"
ASK_TRUMP_WRONG_PHASE = "ask_trump_wrong_phase"
ASK_TRUMP_OUT_OF_TURN = "ask_trump_out_of_turn"
ASK_TRUMP_ALREADY_REVEALED = "ask_trump_already_revealed"
ASK_TRUMP_WHEN_LEADING = "ask_trump_when_leading"
ASK_TRUMP_CAN_FOLLOW = "ask_trump_can_follow"
PLAY_WRONG_PHASE = "play_wrong_phase"
PLAY_OUT_OF_TURN = "play_out_of_turn"
PLAY_NOT_IN_HAND = "play_not_in_hand"
PLAY_CONCEALED_TRUMP_CARD = "play_concealed_trump_card"
PLAY_BIDDER_LEADS_CONCEALED_TRUMP = "play_bidder_leads_concealed_trump"
PLAY_REVOKE = "play_revoke"
PLAY_MUST_TRUMP_AFTER_ASK = "play_must_trump_after_ask"
NOT_A_SEAT = "not_a_seat"
NOT_AN_ACTION = "not_an_action"

CODES_OF_REFUSALS: tuple[str, ...] = (
    AFTER_MATCH_OVER,
    OPENER_MUST_BID,
    BID_BELOW_MINIMUM,
    BID_ABOVE_MAXIMUM,
    BID_NOT_HIGHER,
    BID_R1_TEAMMATE_LOW_BID,
    BID_R2_SECOND_LOW_BID,
    BID_OUT_OF_TURN,
    BID_WRONG_PHASE,
    PASS_OUT_OF_TURN,
    PASS_WRONG_PHASE,
    CHOOSE_TRUMP_WRONG_PHASE,
    CHOOSE_TRUMP_NOT_BIDDER,
    CHOOSE_TRUMP_NOT_IN_HAND,
    ASK_TRUMP_WRONG_PHASE,
    ASK_TRUMP_OUT_OF_TURN,
    ASK_TRUMP_ALREADY_REVEALED,
    ASK_TRUMP_WHEN_LEADING,
    ASK_TRUMP_CAN_FOLLOW,
    PLAY_WRONG_PHASE,
    PLAY_OUT_OF_TURN,
    PLAY_NOT_IN_HAND,
    PLAY_CONCEALED_TRUMP_CARD,
    PLAY_BIDDER_LEADS_CONCEALED_TRUMP,
    PLAY_REVOKE,
    PLAY_MUST_TRUMP_AFTER_ASK,
    NOT_A_SEAT,
    NOT_AN_ACTION,
)


class IllegalMove(IllegalAction):
    """An action the rules refuse: `str(error)` is a sentence for the player, `code` one of
    `CODES_OF_REFUSALS` (the traces' `reason` strings for the rules' refusals)."""


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid `value` (28 … 56 for a legal bid) in the auction."""

    value: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass this turn of the auction (a pass is not final: one may bid again later)."""


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The bidder lays `card` from its hand face down: its suit is the trump suit."""

    card: Card


@dataclass(frozen=True, slots=True)
class AskTrump:
    """Ask for the trump to be shown (unable to follow, trump concealed); then play."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play `card` to the current trick."""

    card: Card


Action = Bid | Pass | ChooseTrump | AskTrump | Play

# Shared instances: legal_actions hands these out without building new objects.
PASS = Pass()
ASK_TRUMP = AskTrump()
BIDS: dict[int, Bid] = {v: Bid(v) for v in range(28, 57)}
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in DECK)
TRUMPS: tuple[ChooseTrump, ...] = tuple(ChooseTrump(c) for c in DECK)

# The traces' order of legal lists: pass < bid < trump < ask_trump < play.
KIND_ORDER: dict[type, int] = {Pass: 0, Bid: 1, ChooseTrump: 2, AskTrump: 3, Play: 4}


def make_bid(value: int) -> Bid:
    """The Bid of `value` (shared for 28 … 56)."""
    return BIDS.get(value) or Bid(value)


def make_play(code: str) -> Play:
    """The Play of the card written `code`; ValueError for an unknown code."""
    return PLAYS[parse_card(code)]


def make_trump(code: str) -> ChooseTrump:
    """The ChooseTrump of the card written `code`; ValueError for an unknown code."""
    return TRUMPS[parse_card(code)]


def action_to_json(action: Action) -> dict[str, Any]:
    """{"bid": 41}, {"pass": true}, {"trump": "10C0"}, {"ask_trump": true}, {"play": "JD1"}."""
    if isinstance(action, Play):
        return {"play": CODES[action.card]}
    if isinstance(action, Bid):
        return {"bid": action.value}
    if isinstance(action, Pass):
        return {"pass": True}
    if isinstance(action, AskTrump):
        return {"ask_trump": True}
    return {"trump": CODES[action.card]}


def _card_code(data: Mapping[str, Any], key: str) -> str:
    code = data[key]
    if not isinstance(code, str):
        raise ValueError(f"{key!r} must be a card code, not {code!r}.")
    return code


def _true(data: Mapping[str, Any], key: str) -> None:
    if data[key] is not True:
        raise ValueError(f"{key!r} must be true, not {data[key]!r}.")


def action_from_json(data: Mapping[str, Any]) -> Action:
    """The action written by `action_to_json`; ValueError if `data` is not one."""
    if not isinstance(data, Mapping):
        raise ValueError(f"An action must be a JSON object, not {data!r}.")
    if len(data) != 1:
        raise ValueError(f"An action has exactly one key, not {sorted(map(str, data))}.")
    if "play" in data:
        return make_play(_card_code(data, "play"))
    if "bid" in data:
        value = data["bid"]
        if type(value) is not int:
            raise ValueError(f"'bid' must be an integer, not {value!r}.")
        return make_bid(value)
    if "pass" in data:
        _true(data, "pass")
        return PASS
    if "ask_trump" in data:
        _true(data, "ask_trump")
        return ASK_TRUMP
    if "trump" in data:
        return make_trump(_card_code(data, "trump"))
    raise ValueError(
        f"Unknown action {sorted(map(str, data))} "
        "(expected 'bid', 'pass', 'trump', 'ask_trump' or 'play')."
    )


def action_sort_key(action: Action) -> tuple[int, int]:
    """The traces' order of legal lists: by kind, then bid value or card."""
    if isinstance(action, Bid):
        return 1, action.value
    if isinstance(action, ChooseTrump | Play):
        return KIND_ORDER[type(action)], action.card
    return KIND_ORDER[type(action)], 0
