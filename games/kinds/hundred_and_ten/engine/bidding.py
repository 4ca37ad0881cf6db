"""Bidding (section 7) and naming trump (section 8): bids and passes, a pass announced in
advance by a seat not on turn (it fires when the bidding reaches that seat) or taken back,
and the bidder naming trump. A round that everybody passed is dealt again (section 6)."""

from __future__ import annotations

from typing import Any

from games.kinds.words import gettext_noop

from .cards import SUITS, Card
from .dealing import MAX_DEALS_IN_A_ROW, _deal
from .fields import (
    _ACTIVE,
    _BIDDER,
    _BIDDING,
    _BIDS,
    _DISCARD,
    _HIGH_BID,
    _HOLDER,
    _PASSED,
    _PRE_PASSED,
    _STATUS,
    _TRUMP,
    _TRUMP_SELECTION,
    _build,
)
from .moves import Bid, IllegalMove, SelectTrump, Unpass
from .queries import _refuse_common, legal_bids
from .scoring import MOON
from .state import GameState, RoundRecord


def _bid_refusal(state: GameState, amount: int) -> IllegalMove:
    high = state.high_bid
    if not high:
        return IllegalMove(
            gettext_noop("You can only bid 15, 20, 25, 30 or 60, or pass."), "bid_not_allowed"
        )
    if state.active_seat == state.dealer:
        if high == MOON:
            return IllegalMove(gettext_noop("You can only bid 60 or pass."), "bid_not_allowed")
        return IllegalMove(
            gettext_noop("You can only bid %(points)s or more."),
            "bid_not_allowed",
            params={"points": high},
        )
    if high == MOON:
        return IllegalMove(
            gettext_noop("Nobody can bid more than 60: you can only pass."), "bid_not_allowed"
        )
    return IllegalMove(
        gettext_noop("You can only bid more than %(points)s."),
        "bid_not_allowed",
        params={"points": high},
    )


def _apply_bid(state: GameState, move: Bid) -> GameState:
    seat = move.seat
    amount = move.amount
    if state.status is not _BIDDING or not 0 <= seat < state.players:
        _refuse_common(state, seat)
        if amount == 0:
            raise IllegalMove(gettext_noop("You can only pass during the bidding."), "wrong_phase")
        raise IllegalMove(gettext_noop("You can only bid during the bidding."), "wrong_phase")
    fields = list(state)
    if seat != state.active_seat:
        if amount != 0:
            raise IllegalMove(gettext_noop("It is not your turn."), "not_your_turn")
        bit = 1 << seat
        if state.passed_mask & bit:
            raise IllegalMove(gettext_noop("You have already passed."), "already_passed")
        if state.pre_passed_mask & bit:
            # Translators: a pass announced before one's turn, which takes effect when the
            # bidding reaches the player.
            raise IllegalMove(gettext_noop("You have already announced a pass."), "already_passed")
        fields[_PRE_PASSED] = state.pre_passed_mask | bit
        return _build(fields)
    if amount not in legal_bids(state, seat):
        raise _bid_refusal(state, amount)
    return _settle_bidding(state, fields, seat, amount)


def _settle_bidding(state: GameState, fields: list[Any], seat: int, amount: int) -> GameState:
    """Record `seat`'s bid or pass, fire pre-passes it reaches, and end the bidding if due."""
    players = state.players
    passed = state.passed_mask
    pre_passed = state.pre_passed_mask
    bids = state.bids + ((seat, amount),)
    high = state.high_bid
    holder = state.holder
    if amount:
        high, holder = amount, seat
    else:
        passed |= 1 << seat
    active = seat
    while True:
        remaining = players - passed.bit_count()
        if remaining == 0:
            fields[_BIDS] = bids
            fields[_PASSED] = passed
            return _close_round_without_bidder(state, fields)
        if remaining == 1 and high:
            # The last one in holds the high bid; any pre-pass of theirs is forgotten (7.4).
            fields[_STATUS] = _TRUMP_SELECTION
            fields[_ACTIVE] = holder
            fields[_BIDDER] = holder
            break
        active = (active + 1) % players
        while passed >> active & 1:
            active = (active + 1) % players
        bit = 1 << active
        if pre_passed & bit:
            pre_passed &= ~bit
            passed |= bit
            bids += ((active, 0),)
            continue
        fields[_ACTIVE] = active
        break
    fields[_BIDS] = bids
    fields[_HIGH_BID] = high
    fields[_HOLDER] = holder
    fields[_PASSED] = passed
    fields[_PRE_PASSED] = 0 if fields[_STATUS] is _TRUMP_SELECTION else pre_passed
    return _build(fields)


def _empty_per_seat(state: GameState) -> tuple[tuple[Card, ...], ...]:
    return ((),) * state.players


def _close_round_without_bidder(state: GameState, fields: list[Any]) -> GameState:
    """Everybody passed: nothing scores; the same dealer deals again, at most three times (6)."""
    record = RoundRecord(
        index=state.round_index,
        dealer=state.dealer,
        hands=state.dealt,
        bids=fields[_BIDS],
        bidder=None,
        bid=None,
        trump=None,
        discards=_empty_per_seat(state),
        draws=_empty_per_seat(state),
        tricks=(),
        bonus_trick=None,
        outcome="no_bidders",
        score_events=(),
        round_scores=(0,) * state.players,
    )
    dealer, in_a_row = state.dealer, state.dealt_in_a_row + 1
    if state.dealt_in_a_row >= MAX_DEALS_IN_A_ROW:
        dealer, in_a_row = (dealer + 1) % state.players, 1
    return _deal(
        state.players,
        state.target,
        state.decks,
        state.round_index + 1,
        dealer,
        in_a_row,
        state.scores,
        state.history + (record,),
    )


def _apply_unpass(state: GameState, move: Unpass) -> GameState:
    seat = move.seat
    _refuse_common(state, seat)
    if not state.pre_passed_mask >> seat & 1:
        raise IllegalMove(gettext_noop("You have no announced pass to take back."), "no_prepass")
    fields = list(state)
    fields[_PRE_PASSED] = state.pre_passed_mask & ~(1 << seat)
    return _build(fields)


def _apply_select_trump(state: GameState, move: SelectTrump) -> GameState:
    seat = move.seat
    _refuse_common(state, seat)
    if state.status is not _TRUMP_SELECTION:
        raise IllegalMove(gettext_noop("Trump can only be named after the bidding."), "wrong_phase")
    if seat != state.bidder:
        raise IllegalMove(gettext_noop("Only the bidder can name trump."), "not_bidder")
    if move.suit not in SUITS:
        raise IllegalMove(
            gettext_noop("Trump must be clubs, diamonds, hearts or spades."), "not_a_suit"
        )
    fields = list(state)
    fields[_STATUS] = _DISCARD
    fields[_TRUMP] = SUITS.index(move.suit)
    fields[_ACTIVE] = (state.dealer + 1) % state.players  # the dealer discards last (9, 17.1)
    return _build(fields)
