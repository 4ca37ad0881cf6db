"""The rules (shared rules/fifty-six.md): new matches, legal actions, `apply`, the outcome.

Every function takes and returns values; `apply` raises `IllegalMove` (state untouched, since
states are immutable) with the traces' reason as its code. Refusals are checked in a fixed
order: the match is over; the action's phase; the turn; then what the action itself breaks.
"""

from __future__ import annotations

from games.kinds.deck import by_bits, suit_word
from games.kinds.protocol import Outcome
from games.kinds.words import Phrase, gettext_noop

from .actions import (
    AFTER_MATCH_OVER,
    ASK_TRUMP,
    ASK_TRUMP_ALREADY_REVEALED,
    ASK_TRUMP_CAN_FOLLOW,
    ASK_TRUMP_OUT_OF_TURN,
    ASK_TRUMP_WHEN_LEADING,
    ASK_TRUMP_WRONG_PHASE,
    BID_OUT_OF_TURN,
    BID_WRONG_PHASE,
    CHOOSE_TRUMP_NOT_BIDDER,
    CHOOSE_TRUMP_NOT_IN_HAND,
    CHOOSE_TRUMP_WRONG_PHASE,
    NOT_A_SEAT,
    NOT_AN_ACTION,
    OPENER_MUST_BID,
    PASS,
    PASS_OUT_OF_TURN,
    PASS_WRONG_PHASE,
    PLAY_BIDDER_LEADS_CONCEALED_TRUMP,
    PLAY_CONCEALED_TRUMP_CARD,
    PLAY_MUST_TRUMP_AFTER_ASK,
    PLAY_NOT_IN_HAND,
    PLAY_OUT_OF_TURN,
    PLAY_REVOKE,
    PLAY_WRONG_PHASE,
    PLAYS,
    TRUMPS,
    Action,
    AskTrump,
    Bid,
    ChooseTrump,
    IllegalMove,
    Pass,
    Play,
)
from .auction import apply_bid, apply_pass, apply_trump, bid_problem, legal_bids, start_hand
from .cards import BIT, SUIT_MASK_OF, Card, card_name
from .play import apply_ask, apply_play, can_ask_trump, legal_play_mask
from .state import (
    AUCTION,
    DEFAULT_TABLES,
    NO_POINTS,
    OVER,
    PLAY,
    SEAT_COUNTS,
    TRUMP_CHOICE,
    DealSource,
    FiftySixState,
    Phase,
)

_NOBODY: frozenset[int] = frozenset()
_ONE: tuple[frozenset[int], ...] = tuple(frozenset({s}) for s in range(6))
_CARDS = range(48)
# Why an action waits for another phase, after "You cannot bid now: ".
_PHASE_WORDS: dict[Phase, Phrase] = {
    # Translators: completes "You cannot bid now: …" (and the like).
    AUCTION: Phrase(gettext_noop("the auction is on")),
    TRUMP_CHOICE: Phrase(gettext_noop("the bidder is choosing the trump card")),
    PLAY: Phrase(gettext_noop("the cards are being played")),
    OVER: Phrase(gettext_noop("the match is over")),
}


# --- Starting matches --------------------------------------------------------------------------


def new_game(
    source: DealSource, seats: int, tables_per_team: int | None = DEFAULT_TABLES
) -> FiftySixState:
    """The state before the first action: hand 0 dealt by seat 0 from `source`; each team
    holds `tables_per_team` tables (None: an endless session, running totals only)."""
    if seats not in SEAT_COUNTS:
        raise ValueError(f"Fifty-Six is played by 4 or 6 players, not {seats!r}.")
    if tables_per_team is not None and (type(tables_per_team) is not int or tables_per_team <= 0):
        raise ValueError(f"Tables per team must be a positive number, not {tables_per_team!r}.")
    tables = NO_POINTS if tables_per_team is None else (tables_per_team, tables_per_team)
    return start_hand(source, seats, tables_per_team, 0, 0, tables, NO_POINTS, ())


# --- Questions ---------------------------------------------------------------------------------


def to_act(state: FiftySixState) -> frozenset[int]:
    """The seat the game waits for, or nobody once the match is over."""
    if state.phase == OVER:
        return _NOBODY
    return _ONE[state.to_play]


def legal_actions(state: FiftySixState, seat: int) -> tuple[Action, ...]:
    """Every action `seat` may take now, in the traces' order (pass, bids, trump cards,
    ask, plays; cards in canonical order). Empty unless `seat` is to act."""
    if state.phase == OVER or seat != state.to_play:
        return ()
    if state.phase == PLAY:
        mask = legal_play_mask(state, seat)
        plays: list[Action] = by_bits(mask, PLAYS)
        return (ASK_TRUMP, *plays) if can_ask_trump(state, seat) else tuple(plays)
    if state.phase == AUCTION:
        bids = legal_bids(state, seat)
        return (PASS, *bids) if state.calls else bids
    return tuple(by_bits(state.hands[seat], TRUMPS))


def outcome(state: FiftySixState) -> Outcome | None:
    """Once the match is over: each seat's team's tables, the winning team's seats."""
    if state.phase != OVER:
        return None
    team = state.winning_team
    tables = state.tables
    return Outcome(
        scores=tuple(tables[s & 1] for s in range(state.seats)),
        winners=tuple(range(team, state.seats, 2)),
        winning_team=team,
    )


def decision_key(state: FiftySixState, seat: int) -> str:
    """Names the decision `seat` faces: the hand and the number of actions taken in it
    (every action of this sequential game changes every seat's situation)."""
    if state.phase == OVER:
        return f"{state.hand_index}.over"
    return f"{state.hand_index}.{state.step}"


# --- Applying actions --------------------------------------------------------------------------


def apply(state: FiftySixState, seat: int, action: Action) -> FiftySixState:
    """The state after `seat` takes `action`, or IllegalMove."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalMove(gettext_noop("There is no such seat at this table."), NOT_A_SEAT)
    if state.phase == OVER:
        raise IllegalMove(gettext_noop("The match is over."), AFTER_MATCH_OVER)
    if isinstance(action, Play):
        if action.card not in _CARDS:
            raise IllegalMove(gettext_noop("That is not a card."), NOT_AN_ACTION)
        return _play(state, seat, action.card)
    if isinstance(action, Bid):
        if type(action.value) is not int:
            raise IllegalMove(gettext_noop("A bid is a whole number."), NOT_AN_ACTION)
        return _bid(state, seat, action.value)
    if isinstance(action, Pass):
        return _pass(state, seat)
    if isinstance(action, AskTrump):
        return _ask(state, seat)
    if isinstance(action, ChooseTrump):
        if action.card not in _CARDS:
            raise IllegalMove(gettext_noop("That is not a card."), NOT_AN_ACTION)
        return _trump(state, seat, action.card)
    raise IllegalMove(gettext_noop("That is not an action of this game."), NOT_AN_ACTION)


def _wrong_phase(state: FiftySixState, message: str, code: str) -> IllegalMove:
    """The refusal `message` ("You cannot bid now: %(reason)s."), the phase as its reason."""
    return IllegalMove(message, code, params={"reason": _PHASE_WORDS[state.phase]})


def _bid(state: FiftySixState, seat: int, value: int) -> FiftySixState:
    if state.phase != AUCTION:
        raise _wrong_phase(state, gettext_noop("You cannot bid now: %(reason)s."), BID_WRONG_PHASE)
    if seat != state.to_play:
        raise IllegalMove(gettext_noop("It is not your turn to bid."), BID_OUT_OF_TURN)
    problem = bid_problem(state, seat, value)
    if problem is not None:
        reason, code = problem
        raise IllegalMove(reason.message, code, params=reason.params)
    return apply_bid(state, seat, value)


def _pass(state: FiftySixState, seat: int) -> FiftySixState:
    if state.phase != AUCTION:
        raise _wrong_phase(
            state, gettext_noop("You cannot pass now: %(reason)s."), PASS_WRONG_PHASE
        )
    if seat != state.to_play:
        raise IllegalMove(gettext_noop("It is not your turn to call."), PASS_OUT_OF_TURN)
    if not state.calls:
        raise IllegalMove(
            gettext_noop("You open the auction: you must bid at least 28."), OPENER_MUST_BID
        )
    return apply_pass(state, seat)


def _trump(state: FiftySixState, seat: int, card: Card) -> FiftySixState:
    if state.phase != TRUMP_CHOICE:
        raise _wrong_phase(
            state,
            gettext_noop("You cannot choose a trump card now: %(reason)s."),
            CHOOSE_TRUMP_WRONG_PHASE,
        )
    if seat != state.bidder:
        raise IllegalMove(
            gettext_noop("Only the bidder chooses the trump card."), CHOOSE_TRUMP_NOT_BIDDER
        )
    if not state.hands[seat] & BIT[card]:
        raise IllegalMove(
            gettext_noop("You don't hold the %(card)s."),
            CHOOSE_TRUMP_NOT_IN_HAND,
            params={"card": card_name(card)},
        )
    return apply_trump(state, seat, card)


def _ask(state: FiftySixState, seat: int) -> FiftySixState:
    if state.phase != PLAY:
        raise _wrong_phase(
            state,
            gettext_noop("You cannot ask for the trump now: %(reason)s."),
            ASK_TRUMP_WRONG_PHASE,
        )
    if seat != state.to_play:
        raise IllegalMove(gettext_noop("It is not your turn."), ASK_TRUMP_OUT_OF_TURN)
    if state.revealed:
        raise IllegalMove(
            gettext_noop("The trump has already been shown."), ASK_TRUMP_ALREADY_REVEALED
        )
    if not can_ask_trump(state, seat):
        if not state.trick:
            raise IllegalMove(
                gettext_noop(
                    "You lead this trick: "
                    "only a player who cannot follow suit may ask for the trump."
                ),
                ASK_TRUMP_WHEN_LEADING,
            )
        raise IllegalMove(
            # Translators: %(suit)s is one card of a suit: "club", "heart".
            gettext_noop(
                "You hold a %(suit)s: follow suit; only a player who cannot may ask for the trump."
            ),
            ASK_TRUMP_CAN_FOLLOW,
            params={"suit": suit_word(state.trick[0][1] // 12)},
        )
    return apply_ask(state, seat)


def _play(state: FiftySixState, seat: int, card: Card) -> FiftySixState:
    if state.phase != PLAY:
        raise _wrong_phase(
            state, gettext_noop("You cannot play a card now: %(reason)s."), PLAY_WRONG_PHASE
        )
    if seat != state.to_play:
        raise IllegalMove(gettext_noop("It is not your turn to play."), PLAY_OUT_OF_TURN)
    if not legal_play_mask(state, seat) & BIT[card]:
        _refuse_play(state, seat, card)
    return apply_play(state, seat, card)


def _refuse_play(state: FiftySixState, seat: int, card: Card) -> None:
    """Raise the IllegalMove that says why `card` may not be played (it is not legal)."""
    hand = state.hands[seat]
    if seat == state.bidder and not state.revealed and card == state.trump:
        raise IllegalMove(
            gettext_noop(
                "That is your face-down trump card: it can be played only once the trump is "
                "shown (ask for it when you cannot follow suit)."
            ),
            PLAY_CONCEALED_TRUMP_CARD,
        )
    if not hand & BIT[card]:
        if seat == state.bidder and not state.revealed and not hand:
            raise IllegalMove(
                gettext_noop(
                    "Your face-down trump card is your last card: turn it up (ask for the trump)."
                ),
                PLAY_NOT_IN_HAND,
            )
        raise IllegalMove(
            gettext_noop("You don't hold the %(card)s."),
            PLAY_NOT_IN_HAND,
            params={"card": card_name(card)},
        )
    if state.asked:
        raise IllegalMove(
            # Translators: %(suit)s is one card of a suit: "club", "heart".
            gettext_noop(
                "You asked for the trump: you must play a trump (%(suit)s) while you hold one."
            ),
            PLAY_MUST_TRUMP_AFTER_ASK,
            params={"suit": suit_word(state.trump // 12)},
        )
    trick = state.trick
    if not trick:
        raise IllegalMove(
            gettext_noop(
                "While the trump is hidden you may not lead its suit unless you hold nothing else."
            ),
            PLAY_BIDDER_LEADS_CONCEALED_TRUMP,
        )
    led = trick[0][1]
    if hand & SUIT_MASK_OF[led]:
        raise IllegalMove(
            # Translators: %(suit)s is one card of a suit: "club", "heart".
            gettext_noop("You must follow suit: play a %(suit)s."),
            PLAY_REVOKE,
            params={"suit": suit_word(led // 12)},
        )
    raise IllegalMove(gettext_noop("You may not play that card now."), NOT_AN_ACTION)  # not reached


# --- Taking an action back ---------------------------------------------------------------------


def undoable(before: FiftySixState, seat: int, action: Action, after: FiftySixState) -> bool:
    """Whether `seat`'s `action` (`before` to `after`) may be taken back by consent: a bid
    or a pass that leaves the auction open, or a card played to a trick it does not
    complete and that reveals nothing (the trump stays as shown or hidden as it was). Never
    the call that ends the auction, the trump card laid down (it may void the hand, and the
    bidder's choice is secret), asking for the trump (a reveal), nor the card that completes
    a trick or the hand."""
    if before.to_play != seat or after.hand_index != before.hand_index:
        return False
    if isinstance(action, Bid | Pass):
        return before.phase == AUCTION and after.phase == AUCTION
    if isinstance(action, Play):
        return (
            before.phase == PLAY
            and after.phase == PLAY
            and after.revealed == before.revealed
            and len(after.trick) == len(before.trick) + 1
        )
    return False
