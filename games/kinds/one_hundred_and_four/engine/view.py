"""What one seat (or a spectator) may see of a game: `view_of(state, seat) -> HundredAndFourView`.

The view holds only public facts plus the viewer's own secrets (rules §6), so a page, a push
message or a bot built from it cannot leak a hidden card:

* own hand: yes (sorted; () for a spectator); other hands: only how many cards they hold;
* this turn's commitments: *whether* each seat has committed (public); the viewer's own
  committed card (`my_choice`); nobody else's card before the reveal;
* in a too-low pause every committed card is revealed (`revealed`, with owners), with the
  seat asked, its card, and each row's cost and length;
* rows, every turn revealed earlier in the deal (`played`), the last resolved turn with its
  placements (`last_turn`), penalty piles and points (public, C-104-09), match totals and
  finished deals (`history`): public;
* the unused cards: never.

Built on every move for every seat by the web app, so it only copies or counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from games.kinds.protocol import check_view_seat

from .cards import BULLHEADS, Row, Rows
from .rules import to_act
from .state import (
    CHOOSE,
    OVER,
    PAUSE,
    DealRecord,
    HundredAndFourState,
    LastTurn,
    Phase,
    running_totals,
)


@dataclass(frozen=True, slots=True)
class HundredAndFourView:
    """The game as `seat` sees it (`seat` None: a spectator). Cards are ints 1 … 104."""

    seat: int | None
    seats: int
    deal: int  # 0-based deal (a match deals again)
    turn: int  # 0-based turn of the deal, 0 … 9 (stays 9 once the game is over)
    match_to: int | None  # None: one deal; else the match ends when a total reaches it
    phase: Phase  # "choose" | "pause" | "over"
    rows: Rows  # four rows, oldest card first; a row's end is its last card
    row_costs: tuple[int, ...]  # bullheads of each row
    row_lengths: tuple[int, ...]
    hand: tuple[int, ...]  # the viewer's cards, ascending (its committed card has left it)
    hand_sizes: tuple[int, ...]  # per seat
    committed: tuple[bool, ...]  # per seat: has chosen its card this turn
    my_choice: int | None  # the viewer's committed card this turn
    legal_cards: tuple[int, ...]  # the viewer's, while it must choose
    to_act: frozenset[int]
    asked: int | None  # pause: the seat that must take a row
    too_low: int | None  # pause: its card, lower than every row end
    revealed: tuple[tuple[int, int], ...]  # pause: every (seat, card) of the turn, by card
    penalties: tuple[int, ...]  # points taken in this deal, per seat
    totals: tuple[int, ...]  # match totals including this deal (= penalties in one deal)
    piles: tuple[tuple[int, ...], ...]  # per seat: the cards taken in this deal
    played: tuple[tuple[tuple[int, int], ...], ...]  # earlier turns of the deal, by card
    last_turn: LastTurn | None  # the last resolved turn (may be the previous deal's last)
    history: tuple[DealRecord, ...]  # finished deals
    winners: tuple[int, ...]  # empty until the game is over

    @property
    def can_choose(self) -> bool:
        """Whether the viewer must still choose its card this turn."""
        return bool(self.legal_cards)

    @property
    def must_take_row(self) -> bool:
        """Whether the viewer is asked to take a row."""
        return self.phase == PAUSE and self.seat is not None and self.seat == self.asked

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act


def _cost(row: Row) -> int:
    table = BULLHEADS
    return sum(table[c] for c in row)


# What a view shows just as the state holds it (all public, rules §6): `view_of` copies these
# from the state, and the search (search.py) copies them back into a state it makes up.
PUBLIC_FIELDS = (
    "match_to",
    "deal",
    "turn",
    "phase",
    "rows",
    "penalties",
    "piles",
    "played",
    "last_turn",
    "history",
)
_public = attrgetter(*PUBLIC_FIELDS)


def public_fields(source: HundredAndFourState | HundredAndFourView) -> dict[str, Any]:
    """The `PUBLIC_FIELDS` of a state or a view, by name."""
    return dict(zip(PUBLIC_FIELDS, _public(source), strict=True))


def view_of(state: HundredAndFourState, seat: int | None) -> HundredAndFourView:
    """The view of `state` for `seat` (0 … seats-1) or, with None, for a spectator."""
    seats = state.seats
    check_view_seat(seat, seats)
    phase = state.phase
    choices = state.choices
    rows = state.rows
    hand: tuple[int, ...] = ()
    legal: tuple[int, ...] = ()
    my_choice = None
    if seat is not None:
        hand = state.hands[seat]
        my_choice = choices[seat] or None
        if phase == CHOOSE and not my_choice:
            legal = hand
    asked = too_low = None
    revealed: tuple[tuple[int, int], ...] = ()
    if phase == PAUSE:
        asked = state.asked
        too_low = choices[asked]
        revealed = tuple(sorted(((s, c) for s, c in enumerate(choices)), key=_by_card))
    winners: tuple[int, ...] = ()
    if phase == OVER:
        best = min(state.totals)
        winners = tuple(s for s, t in enumerate(state.totals) if t == best)
    return HundredAndFourView(
        seat=seat,
        seats=seats,
        **public_fields(state),
        row_costs=(_cost(rows[0]), _cost(rows[1]), _cost(rows[2]), _cost(rows[3])),
        row_lengths=(len(rows[0]), len(rows[1]), len(rows[2]), len(rows[3])),
        hand=hand,
        hand_sizes=tuple(len(h) for h in state.hands),
        committed=tuple(c != 0 for c in choices),
        my_choice=my_choice,
        legal_cards=legal,
        to_act=to_act(state),
        asked=asked,
        too_low=too_low,
        revealed=revealed,
        totals=running_totals(state),
        winners=winners,
    )


def _by_card(play: tuple[int, int]) -> int:
    return play[1]
