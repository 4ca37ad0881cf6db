"""The rules of Hundred and Ten: dealing, what each seat may do, and `apply`.

Values in, values out: `apply(state, move)` returns a new `GameState` or raises `IllegalMove`
and never changes its argument. Section numbers refer to the rules file
(shared/rules/hundred-and-ten.md); where it offers a choice we follow its section 17.

Each part of the rules has a module of its own, and everything public is importable from
here: `dealing` (a new game, each round's deal), `queries` (what a seat may do now),
`bidding` (bids, passes and naming trump), `playing` (discards and tricks), `scoring` (a
trick's winner, a round's score, the game's winner) and `fields` (how the hot path builds a
new state). This module hands each move to its phase's handler.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.kinds.words import gettext_noop

from .bidding import _apply_bid, _apply_select_trump, _apply_unpass
from .dealing import (
    DEFAULT_TARGET,
    HAND_SIZE,
    MAX_DEALS_IN_A_ROW,
    MAX_PLAYERS,
    MIN_PLAYERS,
    new_game,
    new_game_from_decks,
    new_game_from_source,
)
from .fields import build_state
from .moves import Bid, Discard, IllegalMove, Move, Play, SelectTrump, Unpass
from .playing import TRICKS_PER_ROUND, _apply_discard, _apply_play
from .queries import (
    can_prepass,
    can_unpass,
    legal_bids,
    legal_moves,
    legal_plays,
    playable,
    round_history,
)
from .scoring import BONUS_POINTS, MOON, TRICK_POINTS, find_winner, score_round, trick_winner
from .state import GameState, Status

__all__ = [
    "BONUS_POINTS",
    "DEFAULT_TARGET",
    "HAND_SIZE",
    "MAX_DEALS_IN_A_ROW",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOON",
    "TRICKS_PER_ROUND",
    "TRICK_POINTS",
    "apply",
    "build_state",
    "can_prepass",
    "can_unpass",
    "find_winner",
    "is_legal",
    "legal_bids",
    "legal_moves",
    "legal_plays",
    "new_game",
    "new_game_from_decks",
    "new_game_from_source",
    "playable",
    "replay",
    "round_history",
    "score_round",
    "trick_winner",
    "undoable",
]


_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    Bid: _apply_bid,
    Unpass: _apply_unpass,
    SelectTrump: _apply_select_trump,
    Discard: _apply_discard,
    Play: _apply_play,
}


def apply(state: GameState, move: Move) -> GameState:
    """The state after `move`, or IllegalMove (with a player-facing message). Pure."""
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove(gettext_noop("That is not a move of this game."), "not_a_move")
    return handler(state, move)


def is_legal(state: GameState, move: Move) -> bool:
    """Whether `apply(state, move)` would accept `move`."""
    try:
        apply(state, move)
    except IllegalMove:
        return False
    return True


def replay(initial: GameState, moves: Iterable[Move]) -> GameState:
    """The state after applying `moves` in order to `initial`."""
    state = initial
    for move in moves:
        state = apply(state, move)
    return state


def undoable(before: GameState, seat: int, move: Move, after: GameState) -> bool:
    """Whether `seat`'s `move` (`before` to `after`) may be taken back by consent: a bid or
    a pass made on turn that leaves the bidding open and fires no announced pass (the
    bidding goes on with the same round, and only this one call was added), or a card
    played to a trick it does not complete. Never a pre-pass or its withdrawal (private
    until it fires), the call that ends the bidding, naming trump, a discard (it draws
    cards from the pile, which undoing would show), nor the card that completes a trick or
    the round."""
    if move.seat != seat or before.active_seat != seat or after.round_index != before.round_index:
        return False
    if isinstance(move, Bid):
        return (
            before.status is Status.BIDDING
            and after.status is Status.BIDDING
            and len(after.bids) == len(before.bids) + 1
        )
    if isinstance(move, Play):
        return (
            before.status is Status.TRICKS
            and after.status is Status.TRICKS
            and len(after.current_trick) == len(before.current_trick) + 1
        )
    return False
