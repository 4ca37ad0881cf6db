"""The rules (shared rules/one-hundred-and-four.md): new games, legal actions, `apply`, the
resolution of a turn, the end of a deal and of the game.

Every function takes and returns values; `apply` raises `IllegalMove` (state untouched, since
states are immutable) with the trace's reason as its code.
"""

from __future__ import annotations

from games.kinds.protocol import Outcome
from games.kinds.words import gettext_noop

from .actions import (
    ALREADY_CHOSEN,
    CARD_NOT_HELD,
    CARD_OUT_OF_RANGE,
    CHOOSE_DURING_PAUSE,
    CHOOSES,
    GAME_OVER,
    NOT_AN_ACTION,
    NOT_ASKED,
    ROW_OUT_OF_RANGE,
    SEAT_OUT_OF_RANGE,
    TAKE_ROWS,
    Action,
    Choose,
    IllegalMove,
    TakeRow,
)
from .cards import BULLHEADS, HAND_SIZE, MAX_SEATS, MIN_SEATS, ROW_COUNT, ROW_LIMIT, is_card
from .state import (
    CHOOSE,
    OVER,
    PAUSE,
    DealRecord,
    DealSource,
    HundredAndFourState,
    LastTurn,
    Placement,
)

_NOBODY: frozenset[int] = frozenset()
_ONE: tuple[frozenset[int], ...] = tuple(frozenset({s}) for s in range(MAX_SEATS))
_ZEROS: tuple[tuple[int, ...], ...] = tuple((0,) * n for n in range(MAX_SEATS + 1))
_EMPTY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(((),) * n for n in range(MAX_SEATS + 1))


# --- Starting games and deals ------------------------------------------------------------------


def check_seats(seats: int) -> None:
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"One Hundred and Four is played by {MIN_SEATS}-{MAX_SEATS} players.")


def check_match_to(match_to: int | None) -> int | None:
    if match_to is not None and (type(match_to) is not int or match_to <= 0):
        raise ValueError(f"match_to must be None or a positive number, not {match_to!r}.")
    return match_to


def new_game(source: DealSource, seats: int, match_to: int | None = None) -> HundredAndFourState:
    """The state before the first action: deal 0 from `source`, every seat to choose."""
    check_seats(seats)
    return start_deal(source, seats, check_match_to(match_to), 0, _ZEROS[seats], (), None)


def start_deal(
    source: DealSource,
    seats: int,
    match_to: int | None,
    index: int,
    totals: tuple[int, ...],
    history: tuple[DealRecord, ...],
    last_turn: LastTurn | None,
) -> HundredAndFourState:
    """Deal `index` dealt, every seat to choose its first card."""
    deal = source.deal(index, seats)
    return HundredAndFourState(
        seats=seats,
        source=source,
        match_to=match_to,
        deal=index,
        turn=0,
        phase=CHOOSE,
        rows=tuple((c,) for c in deal.rows),
        hands=tuple(tuple(sorted(hand)) for hand in deal.hands),
        choices=_ZEROS[seats],
        asked=-1,
        penalties=_ZEROS[seats],
        piles=_EMPTY[seats],
        totals=totals,
        played=(),
        last_turn=last_turn,
        history=history,
    )


# --- Questions ---------------------------------------------------------------------------------


def to_act(state: HundredAndFourState) -> frozenset[int]:
    """The seats the game waits for: every seat yet to commit, the seat asked for a row
    during a pause, or nobody once the game is over."""
    phase = state.phase
    if phase == CHOOSE:
        return frozenset(s for s, card in enumerate(state.choices) if not card)
    if phase == PAUSE:
        return _ONE[state.asked]
    return _NOBODY


def legal_actions(state: HundredAndFourState, seat: int) -> tuple[Action, ...]:
    """A `Choose` of each held card (ascending) for a seat yet to commit; the four `TakeRow`
    for the seat asked during a pause; else nothing."""
    phase = state.phase
    if type(seat) is not int or not 0 <= seat < state.seats:
        return ()
    if phase == CHOOSE:
        if state.choices[seat]:
            return ()
        return tuple(CHOOSES[c] for c in state.hands[seat])
    if phase == PAUSE and seat == state.asked:
        return TAKE_ROWS
    return ()


def outcome(state: HundredAndFourState) -> Outcome | None:
    """Final totals (the deal's points, or the match totals) and every seat with the lowest
    one (ties share the win, C-104-08), once the game is over."""
    if state.phase != OVER:
        return None
    totals = state.totals
    best = min(totals)
    return Outcome(scores=totals, winners=tuple(s for s, t in enumerate(totals) if t == best))


def decision_key(state: HundredAndFourState, seat: int) -> str:
    """Names the decision `seat` faces: the deal, the turn and whether `seat` has committed
    (another seat's commitment never changes it), or the row choice of a pause."""
    phase = state.phase
    if phase == OVER:
        return f"{state.deal}:over"
    if phase == PAUSE and seat == state.asked:
        return f"{state.deal}:{state.turn}:row"
    done = 0 <= seat < state.seats and state.choices[seat]
    return f"{state.deal}:{state.turn}:{'done' if done else 'choose'}"


# --- Applying actions --------------------------------------------------------------------------


def apply(state: HundredAndFourState, seat: int, action: Action) -> HundredAndFourState:
    """The state after `seat` takes `action`, or IllegalMove."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalMove(gettext_noop("There is no such seat at this table."), SEAT_OUT_OF_RANGE)
    if state.phase == OVER:
        raise IllegalMove(gettext_noop("The game is over."), GAME_OVER)
    if isinstance(action, Choose):
        return _choose(state, seat, action.card)
    if isinstance(action, TakeRow):
        return _take_row(state, seat, action.row)
    raise IllegalMove(gettext_noop("That is not an action of this game."), NOT_AN_ACTION)


def _choose(state: HundredAndFourState, seat: int, card: int) -> HundredAndFourState:
    if state.phase == PAUSE:
        raise IllegalMove(
            gettext_noop("Wait: a row must be taken before the next card is chosen."),
            CHOOSE_DURING_PAUSE,
        )
    if state.choices[seat]:
        raise IllegalMove(
            gettext_noop("You have already chosen your card for this turn."), ALREADY_CHOSEN
        )
    if not is_card(card):
        raise IllegalMove(gettext_noop("Cards are numbered 1 to 104."), CARD_OUT_OF_RANGE)
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove(
            # Translators: %(card)s is a card's number (1 to 104).
            gettext_noop("You don't hold the %(card)s."),
            CARD_NOT_HELD,
            params={"card": card},
        )
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hand if c != card)
    choices = list(state.choices)
    choices[seat] = card
    if 0 in choices:
        return state._replace(hands=tuple(hands), choices=tuple(choices))
    # The last commitment: every card is revealed and placed, lowest first.
    lowest = min(choices)
    if all(lowest < row[-1] for row in state.rows):
        return state._replace(
            phase=PAUSE, hands=tuple(hands), choices=tuple(choices), asked=choices.index(lowest)
        )
    return _resolve(state._replace(hands=tuple(hands), choices=tuple(choices)), -1)


def _take_row(state: HundredAndFourState, seat: int, row: int) -> HundredAndFourState:
    if state.phase != PAUSE:
        raise IllegalMove(gettext_noop("Nobody is asked to take a row now."), NOT_ASKED)
    if seat != state.asked:
        raise IllegalMove(gettext_noop("Only the owner of the lowest card takes a row."), NOT_ASKED)
    if type(row) is not int or not 0 <= row < ROW_COUNT:
        raise IllegalMove(
            gettext_noop("Choose a row from 1 to %(rows)s."),
            ROW_OUT_OF_RANGE,
            params={"rows": ROW_COUNT},
        )
    return _resolve(state, row)


def _resolve(state: HundredAndFourState, low_row: int) -> HundredAndFourState:
    """Place every revealed card, lowest first (rules §3-4); `low_row` is the row the owner
    of a too-low lowest card chose (-1: the lowest card fits)."""
    choices = state.choices
    order = sorted(zip(choices, range(state.seats), strict=True))
    rows = list(state.rows)
    penalties = list(state.penalties)
    piles = list(state.piles)
    placements = []
    for card, seat in order:
        if low_row >= 0:
            row, too_low = low_row, True
            low_row = -1
        else:
            row, too_low, best = -1, False, 0
            for index, cards in enumerate(rows):
                end = cards[-1]
                if best < end < card:
                    row, best = index, end
        cards = rows[row]
        if too_low or len(cards) >= ROW_LIMIT:
            rows[row] = (card,)
            penalties[seat] += sum(BULLHEADS[c] for c in cards)
            piles[seat] = (*piles[seat], *cards)
            placements.append(Placement(seat, card, row, cards, too_low))
        else:
            rows[row] = (*cards, card)
            placements.append(Placement(seat, card, row, None, False))
    revealed = tuple((seat, card) for card, seat in order)
    last = LastTurn(state.deal, state.turn, revealed, state.rows, tuple(placements))
    after = state._replace(
        phase=CHOOSE,
        rows=tuple(rows),
        choices=_ZEROS[state.seats],
        asked=-1,
        penalties=tuple(penalties),
        piles=tuple(piles),
        played=(*state.played, revealed),
        last_turn=last,
    )
    if state.turn + 1 < HAND_SIZE:
        return after._replace(turn=state.turn + 1)
    return _end_deal(after)


def _end_deal(state: HundredAndFourState) -> HundredAndFourState:
    """Record the finished deal; end the game (one deal, or a total reached the match
    limit) or deal again."""
    totals = tuple(t + p for t, p in zip(state.totals, state.penalties, strict=True))
    history = (*state.history, DealRecord(state.deal, state.penalties, totals))
    match_to = state.match_to
    if match_to is None or max(totals) >= match_to:
        return state._replace(phase=OVER, totals=totals, history=history)
    return start_deal(
        state.source, state.seats, match_to, state.deal + 1, totals, history, state.last_turn
    )


# --- Taking an action back ---------------------------------------------------------------------


def undoable(
    before: HundredAndFourState, seat: int, action: Action, after: HundredAndFourState
) -> bool:
    """Never: every card is chosen in a simultaneous, secret phase (taking one back after
    seeing who else has committed would be an unfair second look, and the last choice
    reveals and places every card at once), and taking a row is part of a turn's
    resolution, which reveals and places the cards of the turn."""
    return False
