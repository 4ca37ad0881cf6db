"""What one seat (or a spectator) may see of a game: `perspective_of(state, seat)`.

The view holds only public facts plus the seat's own cards, so a page or a push message built
from it cannot leak a hidden card. Visibility rules:

* own hand: yes (None for a spectator); other hands: only how many cards they hold;
* draw pile: only its size; discards of this round: how many cards each seat gave up, and
  which ones only for the viewer's own discard (the cards drawn are in the viewer's hand);
* bids and passes of this round: public, in order;
* pre-passes: private to the seat that announced them until they fire (they then show as an
  ordinary pass). A pending pre-pass changes nothing anybody else can act on, and the
  reference's later versions dropped the feature, so we keep it a private intention;
* bidder, bid, trump, the current trick, the completed tricks of this round, scores, dealer,
  active seat, status and winner: public;
* finished rounds (`history`): everything, including the hands dealt, discards and draws,
  since those rounds are over;
* legal moves: only the viewer's own.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .moves import Move
from .rules import can_prepass, can_unpass, legal_bids, legal_moves, legal_plays
from .state import GameState, RoundRecord, Status, Trick


@dataclass(frozen=True, slots=True)
class SeatView:
    """The game as `seat` sees it (`seat` None: a spectator)."""

    seat: int | None
    players: int
    target: int
    status: Status
    round_index: int
    dealer: int
    active_seat: int | None
    winner: int | None
    scores: tuple[int, ...]
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[int, int], ...]  # this round, (seat, amount), 0 = pass
    passed: tuple[int, ...]
    pre_passed: bool  # the viewer's own pending pre-pass
    bid: int | None
    holder: int | None  # who holds the high bid during bidding
    bidder: int | None
    trump: str | None
    discard_counts: tuple[int | None, ...]  # None: has not discarded yet this round
    own_discards: tuple[Card, ...] | None
    draw_pile_size: int
    current_trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    bleeding: bool
    legal_bids: tuple[int, ...]
    legal_plays: tuple[Card, ...]
    can_prepass: bool
    can_unpass: bool
    legal_moves: tuple[Move, ...]
    history: tuple[RoundRecord, ...]

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.active_seat


def perspective_of(state: GameState, seat: int | None) -> SeatView:
    """The view of `state` for `seat` (0-based) or, with None, for a spectator."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"Seat {seat} is not at this table.")
    mine = seat is not None
    own_discards = state.discards[seat] if seat is not None else None
    return SeatView(
        seat=seat,
        players=state.players,
        target=state.target,
        status=state.status,
        round_index=state.round_index,
        dealer=state.dealer,
        active_seat=state.active_seat,
        winner=state.winner,
        scores=state.scores,
        hand=state.hands[seat] if seat is not None else None,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        bids=state.bids,
        passed=state.passed,
        pre_passed=mine and bool(state.pre_passed_mask >> seat & 1),  # type: ignore[operator]
        bid=state.bid,
        holder=state.holder,
        bidder=state.bidder,
        trump=state.trump,
        discard_counts=tuple(None if d is None else len(d) for d in state.discards),
        own_discards=own_discards,
        draw_pile_size=state.draw_pile_size,
        current_trick=state.current_trick,
        tricks=state.tricks,
        bleeding=state.bleeding,
        legal_bids=legal_bids(state, seat) if seat is not None else (),
        legal_plays=legal_plays(state, seat) if seat is not None else (),
        can_prepass=can_prepass(state, seat) if seat is not None else False,
        can_unpass=can_unpass(state, seat) if seat is not None else False,
        legal_moves=legal_moves(state, seat) if seat is not None else (),
        history=state.history,
    )
