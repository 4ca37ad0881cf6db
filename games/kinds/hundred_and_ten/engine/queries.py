"""What a seat may do now: its legal bids, plays and moves in each phase, a pass it may
announce in advance or take back, and the refusal every move starts with (not a player, or
the game is over)."""

from __future__ import annotations

from collections.abc import Sequence

from games.kinds.words import gettext_noop

from .cards import IS_TRUMP, SUITS, Card
from .fields import _BIDDING, _DISCARD, _PLAYING, _TRUMP_SELECTION, _WON
from .moves import (
    BID_AMOUNTS,
    Bid,
    Discard,
    IllegalMove,
    Move,
    Play,
    SelectTrump,
    Unpass,
)
from .state import GameState, RoundRecord

_ALL_BIDS = (0, *BID_AMOUNTS)


def legal_bids(state: GameState, seat: int) -> tuple[int, ...]:
    """Amounts `seat` may bid now, ascending, 0 = pass; empty unless it is their bidding turn."""
    if state.status is not _BIDDING or seat != state.active_seat:
        return ()
    high = state.high_bid
    if not high:
        return _ALL_BIDS
    if seat == state.dealer:  # the dealer may take over the high bid (7.2)
        return (0, *(a for a in BID_AMOUNTS if a >= high))
    return (0, *(a for a in BID_AMOUNTS if a > high))


def legal_plays(state: GameState, seat: int) -> tuple[Card, ...]:
    """Cards `seat` may play now (hand order); empty unless it is their turn to play (11)."""
    if state.status is not _PLAYING or seat != state.active_seat:
        return ()
    return playable(state.hands[seat], state.current_trick, state.trump_index)  # type: ignore[arg-type]


def playable(
    hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: int
) -> tuple[Card, ...]:
    """The cards of `hand` that may go on `trick`: all trumps if it bleeds and any is held."""
    if trick:
        trumps = IS_TRUMP[trump]
        if trumps[trick[0][1]]:
            held = tuple(c for c in hand if trumps[c])
            if held:
                return held
    return tuple(hand)


def can_prepass(state: GameState, seat: int) -> bool:
    """Whether `seat` may announce a pass in advance now (7.4, refusals as in 17.7)."""
    return (
        state.status is _BIDDING
        and 0 <= seat < state.players
        and seat != state.active_seat
        and not (state.passed_mask | state.pre_passed_mask) >> seat & 1
    )


def can_unpass(state: GameState, seat: int) -> bool:
    """Whether `seat` has a pending pre-pass to withdraw."""
    return (
        state.status is _BIDDING
        and 0 <= seat < state.players
        and bool(state.pre_passed_mask >> seat & 1)
    )


def legal_moves(state: GameState, seat: int) -> tuple[Move, ...]:
    """The moves `seat` may make now.

    Complete for every phase but DISCARD, where any subset of the hand may be given up (32
    choices); there it lists three representatives: keep everything, give up every non-trump,
    give up the whole hand. Use `is_legal` to check a particular discard.
    """
    status = state.status
    if status is _BIDDING:
        if seat == state.active_seat:
            return tuple(Bid(seat, amount) for amount in legal_bids(state, seat))
        if can_prepass(state, seat):
            return (Bid(seat, 0),)
        if can_unpass(state, seat):
            return (Unpass(seat),)
        return ()
    if status is _TRUMP_SELECTION:
        return tuple(SelectTrump(seat, suit) for suit in SUITS) if seat == state.bidder else ()
    if status is _DISCARD:
        if seat != state.active_seat:
            return ()
        hand = state.hands[seat]
        trumps = IS_TRUMP[state.trump_index]  # type: ignore[index]
        choices = ((), tuple(c for c in hand if not trumps[c]), hand)
        return tuple(Discard(seat, cards) for cards in dict.fromkeys(choices))
    if status is _PLAYING:
        return tuple(Play(seat, card) for card in legal_plays(state, seat))
    return ()


def round_history(state: GameState) -> tuple[RoundRecord, ...]:
    """Records of every finished round, oldest first (shared between states: O(1))."""
    return state.history


def _refuse_common(state: GameState, seat: int) -> None:
    if not 0 <= seat < state.players:
        raise IllegalMove(gettext_noop("You are not a player in this game."), "not_a_player")
    if state.status is _WON:
        raise IllegalMove(gettext_noop("The game is over."), "game_over")
