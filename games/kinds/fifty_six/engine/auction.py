"""Dealing a hand, the auction (rules §5, restrictions R1 and R2) and the trump card (§6, §10).

`bid_problem` is the one place that says whether a bid is allowed, and if not why, in a
sentence the table shows beside the bid (the same sentence `apply` refuses it with). Legal
bid lists and the per-value options a view shows are cached by the few facts they depend on.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from games.kinds.words import Phrase, gettext_noop

from .actions import (
    BID_ABOVE_MAXIMUM,
    BID_BELOW_MINIMUM,
    BID_NOT_HIGHER,
    BID_R1_TEAMMATE_LOW_BID,
    BID_R2_SECOND_LOW_BID,
    BIDS,
    Bid,
)
from .cards import BIT, SUIT_MASK_OF, Card
from .state import (
    AUCTION,
    LOW_BID_TOP,
    MAX_BID,
    MIN_BID,
    NO_POINTS,
    PLAY,
    TRUMP_CHOICE,
    DealSource,
    FiftySixState,
    HandRecord,
)


class BidOption(NamedTuple):
    """One value of the auction as a table offers it: `allowed`, or `reason` why not (a
    `Phrase`, "" if allowed: the Django side translates it)."""

    value: int
    allowed: bool
    reason: str


# --- Dealing -----------------------------------------------------------------------------------


def start_hand(
    source: DealSource,
    seats: int,
    tables_per_team: int | None,
    hand_index: int,
    dealer: int,
    tables: tuple[int, int],
    game_points: tuple[int, int],
    history: tuple[HandRecord, ...],
) -> FiftySixState:
    """Hand `hand_index` dealt by `dealer`: the auction, opened by the seat after the dealer."""
    deal = source.deal(hand_index, dealer, seats)
    hands = []
    for cards in deal:
        mask = 0
        for card in cards:
            mask |= BIT[card]
        hands.append(mask)
    opener = (dealer + 1) % seats
    return FiftySixState(
        source=source,
        seats=seats,
        tables_per_team=tables_per_team,
        hand_index=hand_index,
        dealer=dealer,
        phase=AUCTION,
        to_play=opener,
        step=0,
        hands=tuple(hands),
        calls=(),
        high_bid=0,
        high_bidder=-1,
        low_bidders=0,
        passes=0,
        bidder=-1,
        contract=0,
        trump=-1,
        revealed=False,
        revealed_by=-1,
        asked=False,
        reveal_pos=0,
        leader=-1,
        trick=(),
        tricks=(),
        points=NO_POINTS,
        tables=tables,
        game_points=game_points,
        history=history,
        winning_team=-1,
    )


# --- Bids --------------------------------------------------------------------------------------


def r1_applies(state: FiftySixState, seat: int) -> bool:
    """R1: the high bid is a partner's and at most 39 (so `seat` may only bid 40+)."""
    high_bidder = state.high_bidder
    return (
        high_bidder >= 0
        and high_bidder != seat
        and (high_bidder - seat) % 2 == 0
        and state.high_bid <= LOW_BID_TOP
    )


def r2_applies(state: FiftySixState, seat: int) -> bool:
    """R2: `seat` has already bid in the range 28–39 in this auction."""
    return bool(state.low_bidders >> seat & 1)


def bid_problem(state: FiftySixState, seat: int, value: int) -> tuple[Phrase, str] | None:
    """Why `seat` may not bid `value` now, as (sentence, code), or None if it may (turn and
    phase are checked by the caller)."""
    if value < MIN_BID:
        return (
            Phrase(gettext_noop("The lowest bid is %(points)s."), {"points": MIN_BID}),
            BID_BELOW_MINIMUM,
        )
    if value > MAX_BID:
        return (
            Phrase(gettext_noop("The highest bid is %(points)s."), {"points": MAX_BID}),
            BID_ABOVE_MAXIMUM,
        )
    high = state.high_bid
    if value <= high:
        return _not_higher(high), BID_NOT_HIGHER
    return _low_bid_problem(value, r1_applies(state, seat), r2_applies(state, seat), high)


def _not_higher(high: int) -> Phrase:
    return Phrase(
        gettext_noop("The bid stands at %(high)s: bid at least %(least)s."),
        {"high": high, "least": high + 1},
    )


def _low_bid_problem(value: int, r1: bool, r2: bool, high: int) -> tuple[Phrase, str] | None:
    if value > LOW_BID_TOP:
        return None
    if r1:
        return (
            Phrase(
                gettext_noop(
                    "Your partner holds the high bid of %(high)s: "
                    "over a partner's bid below 40 you may only bid 40 or more."
                ),
                {"high": high},
            ),
            BID_R1_TEAMMATE_LOW_BID,
        )
    if r2:
        return (
            Phrase(
                gettext_noop(
                    "You have already bid between 28 and 39 in this auction: "
                    "any further bid of yours must be 40 or more."
                )
            ),
            BID_R2_SECOND_LOW_BID,
        )
    return None


@lru_cache(maxsize=512)
def _legal_bids(high: int, r1: bool, r2: bool) -> tuple[Bid, ...]:
    low = max(MIN_BID, high + 1)
    if r1 or r2:
        low = max(low, LOW_BID_TOP + 1)
    return tuple(BIDS[v] for v in range(low, MAX_BID + 1))


def legal_bids(state: FiftySixState, seat: int) -> tuple[Bid, ...]:
    """The bids `seat` may make now (empty unless it is `seat`'s call)."""
    if state.phase != AUCTION or seat != state.to_play:
        return ()
    return _legal_bids(state.high_bid, r1_applies(state, seat), r2_applies(state, seat))


@lru_cache(maxsize=512)
def _bid_options(high: int, r1: bool, r2: bool) -> tuple[BidOption, ...]:
    out = []
    for value in range(MIN_BID, MAX_BID + 1):
        if value <= high:
            problem: tuple[Phrase, str] | None = (_not_higher(high), BID_NOT_HIGHER)
        else:
            problem = _low_bid_problem(value, r1, r2, high)
        out.append(BidOption(value, problem is None, problem[0] if problem else ""))
    return tuple(out)


def bid_options(state: FiftySixState, seat: int) -> tuple[BidOption, ...]:
    """Every value 28 … 56 with whether `seat` may bid it now and, if not, why (empty
    unless it is `seat`'s call)."""
    if state.phase != AUCTION or seat != state.to_play:
        return ()
    return _bid_options(state.high_bid, r1_applies(state, seat), r2_applies(state, seat))


def may_pass(state: FiftySixState, seat: int) -> bool:
    """Whether `seat` may pass now: its call, and not the opener's first (forced) call."""
    return state.phase == AUCTION and seat == state.to_play and bool(state.calls)


def apply_bid(state: FiftySixState, seat: int, value: int) -> FiftySixState:
    """`seat` bids `value` (already checked). A bid of 56 ends the auction at once."""
    low = state.low_bidders | (1 << seat) if value <= LOW_BID_TOP else state.low_bidders
    after = state._replace(
        calls=(*state.calls, (seat, value)),
        high_bid=value,
        high_bidder=seat,
        low_bidders=low,
        passes=0,
        step=state.step + 1,
    )
    if value >= MAX_BID:
        return _end_auction(after)
    return after._replace(to_play=(seat + 1) % state.seats)


def apply_pass(state: FiftySixState, seat: int) -> FiftySixState:
    """`seat` passes (already checked); n−1 passes after the high bid end the auction."""
    passes = state.passes + 1
    after = state._replace(calls=(*state.calls, (seat, 0)), passes=passes, step=state.step + 1)
    if passes >= state.seats - 1:
        return _end_auction(after)
    return after._replace(to_play=(seat + 1) % state.seats)


def _end_auction(state: FiftySixState) -> FiftySixState:
    bidder = state.high_bidder
    return state._replace(
        phase=TRUMP_CHOICE, bidder=bidder, contract=state.high_bid, to_play=bidder
    )


# --- The trump card ----------------------------------------------------------------------------


def defenders_void(state: FiftySixState, card: Card) -> bool:
    """Whether the defenders hold no card of `card`'s suit (a void hand, rules §10)."""
    suit = SUIT_MASK_OF[card]
    hands = state.hands
    defenders = 1 - (state.bidder & 1)
    return not any(hands[s] & suit for s in range(defenders, state.seats, 2))


def apply_trump(state: FiftySixState, seat: int, card: Card) -> FiftySixState:
    """The bidder lays `card` face down (already checked). A void hand is recorded at once
    and the same dealer deals the next hand; else the play starts (the bidder leads in
    tani, else the seat after the dealer)."""
    hands = list(state.hands)
    hands[seat] &= ~BIT[card]
    after = state._replace(hands=tuple(hands), trump=card, step=state.step + 1)
    if defenders_void(after, card):
        record = HandRecord(
            index=state.hand_index,
            dealer=state.dealer,
            bidder=seat,
            contract=state.contract,
            trump=card,
            trump_revealed=False,
            revealed_by=None,
            outcome="void",
            calls=state.calls,
            tricks=(),
            points=NO_POINTS,
            game_points=0,
            tables=None if state.tables_per_team is None else state.tables,
            tables_change=NO_POINTS,
        )
        return start_hand(
            state.source,
            state.seats,
            state.tables_per_team,
            state.hand_index + 1,
            state.dealer,
            state.tables,
            state.game_points,
            (*state.history, record),
        )
    leader = seat if state.contract >= MAX_BID else (state.dealer + 1) % state.seats
    return after._replace(phase=PLAY, leader=leader, to_play=leader)
