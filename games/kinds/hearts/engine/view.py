"""What one seat (or a spectator) may see of a game: `view_of(state, seat) -> HeartsView`.

The view holds only public facts plus the viewer's own secrets, so a page, a push message or
a bot built from it cannot leak a hidden card (rules §9):

* own hand: yes (sorted; () for a spectator); other hands: only how many cards they hold;
* passes: whether each seat has passed (public), which cards only for the viewer's own pass,
  and, once the exchange is done, the three cards the viewer received and from whom;
* every card played and by whom (current trick, the completed tricks of this hand), trick
  winners, points taken this hand, hearts broken, running totals: public;
* finished hands (`history`): pass direction, tricks, points and totals (never the passes);
* legal plays: only the viewer's own.

Built on every move for every seat by the web app, so it only copies or counts: no sorting.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.kinds.protocol import check_view_seat

from .cards import Card, cards_of
from .rules import legal_play_mask, to_act
from .state import (
    OVER,
    PASS,
    PLAY,
    SEAT_ORDER,
    SEATS,
    HandRecord,
    HeartsState,
    Phase,
    Trick,
    pass_direction,
    pass_offset,
)


@dataclass(frozen=True, slots=True)
class HeartsView:
    """The game as `seat` sees it (`seat` None: a spectator). Cards are `Card` ints: write
    them with `cards.card_code` / `cards.CODES`."""

    seat: int | None
    hand_index: int
    target: int
    phase: Phase  # "pass" | "play" | "over"
    pass_direction: str  # "left" | "right" | "across" | "hold"
    pass_to: int | None  # the seat the viewer passes to this hand (None: hold, spectator)
    hand: tuple[Card, ...]  # the viewer's cards, sorted by suit then rank
    hand_sizes: tuple[int, ...]
    passed: tuple[bool, ...]  # per seat: has submitted its pass this hand
    my_pass: tuple[Card, ...] | None  # the viewer's own three passed cards
    received: tuple[Card, ...] | None  # the three cards the viewer got in the exchange
    received_from: int | None
    to_act: frozenset[int]
    legal_plays: tuple[Card, ...]  # the viewer's, when it is their turn to play
    trick: tuple[tuple[int, Card], ...]  # the current trick, (seat, card) in play order
    trick_leader: int | None
    tricks: tuple[Trick, ...]  # the completed tricks of this hand
    last_trick: tuple[tuple[int, Card], ...]
    last_trick_winner: int | None
    tricks_won: tuple[int, ...]
    taken: tuple[int, ...]  # penalty points taken this hand, before the moon rule
    hearts_broken: bool
    totals: tuple[int, ...]
    history: tuple[HandRecord, ...]
    winners: tuple[int, ...]  # empty until the game is over
    first_trick: bool  # the first trick of the hand is being played

    @property
    def can_pass(self) -> bool:
        """Whether the viewer must still choose its pass."""
        return self.seat is not None and self.phase == PASS and not self.passed[self.seat]

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act


def view_of(state: HeartsState, seat: int | None) -> HeartsView:
    """The view of `state` for `seat` (0-3) or, with None, for a spectator."""
    check_view_seat(seat, SEATS)
    hand_index = state.hand_index
    phase = state.phase
    offset = pass_offset(hand_index)
    passes = state.passes
    hands = state.hands
    my_pass = received = None
    pass_to = received_from = None
    if seat is not None:
        hand = cards_of(hands[seat])
        if offset:
            pass_to = (seat + offset) % SEATS
            if passes[seat]:
                my_pass = cards_of(passes[seat])
            if phase != PASS:
                received_from = (seat - offset) % SEATS
                received = cards_of(passes[received_from])
        legal = cards_of(legal_play_mask(state, seat))
    else:
        hand = legal = ()
    tricks = state.tricks
    won = [0, 0, 0, 0]
    for done in tricks:
        won[done.winner] += 1
    leader = state.leader
    if tricks:
        last = tricks[-1]
        last_trick, last_winner = last.plays, last.winner
    else:
        last_trick, last_winner = (), None
    winners: tuple[int, ...] = ()
    if phase == OVER:
        best = min(state.totals)
        winners = tuple(s for s in range(SEATS) if state.totals[s] == best)
    return HeartsView(
        seat=seat,
        hand_index=hand_index,
        target=state.target,
        phase=phase,
        pass_direction=pass_direction(hand_index),
        pass_to=pass_to,
        hand=hand,
        hand_sizes=(
            hands[0].bit_count(),
            hands[1].bit_count(),
            hands[2].bit_count(),
            hands[3].bit_count(),
        ),
        passed=(passes[0] != 0, passes[1] != 0, passes[2] != 0, passes[3] != 0),
        my_pass=my_pass,
        received=received,
        received_from=received_from,
        to_act=to_act(state),
        legal_plays=legal,
        trick=tuple(zip(SEAT_ORDER[leader], state.trick, strict=False)) if state.trick else (),
        trick_leader=leader if phase == PLAY else None,
        tricks=tricks,
        last_trick=last_trick,
        last_trick_winner=last_winner,
        tricks_won=tuple(won),
        taken=state.taken,
        hearts_broken=state.hearts_broken,
        totals=state.totals,
        history=state.history,
        winners=winners,
        first_trick=phase == PLAY and not tricks,
    )
