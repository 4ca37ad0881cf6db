"""The rules (shared rules/hearts.md): new games, legal actions, `apply`, scoring, the end.

Every function takes and returns values; `apply` raises `IllegalMove` (state untouched, since
states are immutable) with the trace's reason as its code. Legal plays are computed on masks:
the set of cards a seat may play is one int, turned into cards only when asked for.
"""

from __future__ import annotations

from games.kinds.deck import by_bits, suit_word
from games.kinds.protocol import Outcome
from games.kinds.words import gettext_noop

from .actions import (
    GAME_OVER,
    NOT_A_SEAT,
    NOT_AN_ACTION,
    PASS_ALREADY_SUBMITTED,
    PASS_DUPLICATE_CARD,
    PASS_NOT_IN_HAND,
    PASS_WRONG_COUNT,
    PASS_WRONG_PHASE,
    PLAY_FIRST_LEAD_NOT_2C,
    PLAY_HEART_NOT_BROKEN,
    PLAY_MUST_FOLLOW_SUIT,
    PLAY_NOT_IN_HAND,
    PLAY_OUT_OF_TURN,
    PLAY_POINTS_ON_FIRST_TRICK,
    PLAY_WRONG_PHASE,
    PLAYS,
    Action,
    IllegalMove,
    Pass,
    Play,
)
from .cards import (
    BIT,
    HEARTS,
    NON_HEARTS_MASK,
    NON_POINTS_MASK,
    SUIT_MASK_OF,
    TWO_OF_CLUBS,
    TWO_OF_CLUBS_BIT,
    Card,
    card_name,
    cards_of,
)
from .passing import representative_passes
from .state import (
    NO_PASSES,
    NO_POINTS,
    OVER,
    PASS,
    PLAY,
    SEATS,
    TRICKS_PER_HAND,
    DealSource,
    HandRecord,
    HeartsState,
    holder_of,
    make_trick,
    pass_direction,
    pass_offset,
)

_CARDS: frozenset[int] = frozenset(range(52))
_NOBODY: frozenset[int] = frozenset()
_ONE: tuple[frozenset[int], ...] = tuple(frozenset({s}) for s in range(SEATS))
# The seats that have not passed, by the 4-bit mask of the seats that have.
_WAITING: tuple[frozenset[int], ...] = tuple(
    frozenset(s for s in range(SEATS) if not mask >> s & 1) for mask in range(16)
)


# --- Starting games and hands ------------------------------------------------------------------


def new_game(source: DealSource, target: int) -> HeartsState:
    """The state before the first action: hand 0 dealt from `source`."""
    if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
        raise ValueError(f"The target must be a positive number of points, not {target!r}.")
    return start_hand(source, target, 0, NO_POINTS, ())


def start_hand(
    source: DealSource,
    target: int,
    hand_index: int,
    totals: tuple[int, int, int, int],
    history: tuple[HandRecord, ...],
) -> HeartsState:
    """Hand `hand_index` dealt: passing, or (a hold hand) the 2♣ holder to lead."""
    hands = source.deal(hand_index)
    if pass_offset(hand_index):
        phase, to_play = PASS, -1
    else:
        phase, to_play = PLAY, holder_of(hands, TWO_OF_CLUBS)
    return HeartsState(
        source=source,
        target=target,
        hand_index=hand_index,
        phase=phase,
        hands=hands,
        passes=NO_PASSES,
        to_play=to_play,
        leader=to_play,
        trick=(),
        tricks=(),
        hearts_broken=False,
        taken=NO_POINTS,
        totals=totals,
        history=history,
    )


# --- Questions ---------------------------------------------------------------------------------


def to_act(state: HeartsState) -> frozenset[int]:
    """The seats the game waits for: every seat yet to pass, the seat to play, or nobody."""
    phase = state.phase
    if phase == PLAY:
        return _ONE[state.to_play]
    if phase == PASS:
        p = state.passes
        return _WAITING[(p[0] > 0) | (p[1] > 0) << 1 | (p[2] > 0) << 2 | (p[3] > 0) << 3]
    return _NOBODY


def legal_play_mask(state: HeartsState, seat: int) -> int:
    """The cards `seat` may play now, as a mask (0 when it is not their turn to play)."""
    if state.phase != PLAY or seat != state.to_play:
        return 0
    hand = state.hands[seat]
    trick = state.trick
    if not trick:
        if not state.tricks:
            return hand & TWO_OF_CLUBS_BIT  # the leader of trick 1 holds the 2♣
        if state.hearts_broken:
            return hand
        return hand & NON_HEARTS_MASK or hand
    follow = hand & SUIT_MASK_OF[trick[0]]
    if follow:
        return follow
    if not state.tricks:
        return hand & NON_POINTS_MASK or hand
    return hand


def legal_plays(state: HeartsState, seat: int) -> tuple[Card, ...]:
    """The cards `seat` may play now, sorted (empty when it is not their turn to play)."""
    return cards_of(legal_play_mask(state, seat))


def legal_actions(state: HeartsState, seat: int) -> tuple[Action, ...]:
    """The plays `seat` may make, or `representative_passes` in the pass phase."""
    if state.phase == PASS:
        return representative_passes(state, seat)
    return tuple(by_bits(legal_play_mask(state, seat), PLAYS))


def outcome(state: HeartsState) -> Outcome | None:
    """Final totals and every seat with the lowest total, once the game is over."""
    if state.phase != OVER:
        return None
    totals = state.totals
    best = min(totals)
    return Outcome(scores=totals, winners=tuple(s for s in range(SEATS) if totals[s] == best))


def decision_key(state: HeartsState, seat: int) -> str:
    """Names the decision `seat` faces. While passing only the hand and whether `seat` has
    passed count, so the other seats' passes do not make a seat's choice stale; in the play,
    every card played changes it."""
    phase = state.phase
    if phase == PASS:
        return f"{state.hand_index}.pass.{int(state.passes[seat] != 0)}"
    if phase == PLAY:
        return f"{state.hand_index}.play.{len(state.tricks) * 4 + len(state.trick)}"
    return f"{state.hand_index}.over"


# --- Applying actions --------------------------------------------------------------------------


def apply(state: HeartsState, seat: int, action: Action) -> HeartsState:
    """The state after `seat` takes `action`, or IllegalMove."""
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalMove(gettext_noop("There is no such seat at this table."), NOT_A_SEAT)
    if state.phase == OVER:
        raise IllegalMove(gettext_noop("The game is over."), GAME_OVER)
    if isinstance(action, Play):
        if action.card not in _CARDS:
            raise IllegalMove(gettext_noop("That is not a card."), NOT_AN_ACTION)
        return _play(state, seat, action.card)
    if isinstance(action, Pass):
        if not _CARDS.issuperset(action.cards):
            raise IllegalMove(gettext_noop("That is not a card."), NOT_AN_ACTION)
        return _pass(state, seat, action.cards)
    raise IllegalMove(gettext_noop("That is not an action of this game."), NOT_AN_ACTION)


def _pass(state: HeartsState, seat: int, cards: tuple[Card, ...]) -> HeartsState:
    if state.phase != PASS:
        if pass_offset(state.hand_index):
            raise IllegalMove(
                gettext_noop("The passing is over: play your cards."), PASS_WRONG_PHASE
            )
        raise IllegalMove(gettext_noop("Nobody passes cards in this hand."), PASS_WRONG_PHASE)
    passes = state.passes
    if passes[seat]:
        raise IllegalMove(
            gettext_noop("You have already passed your three cards."), PASS_ALREADY_SUBMITTED
        )
    if len(cards) != 3:
        raise IllegalMove(gettext_noop("Pass exactly three cards."), PASS_WRONG_COUNT)
    mask = BIT[cards[0]] | BIT[cards[1]] | BIT[cards[2]]
    if mask.bit_count() != 3:
        raise IllegalMove(gettext_noop("Pass three different cards."), PASS_DUPLICATE_CARD)
    hand = state.hands[seat]
    if mask & hand != mask:
        missing = next(c for c in cards if not hand & BIT[c])
        raise IllegalMove(
            gettext_noop("You don't hold the %(card)s."),
            PASS_NOT_IN_HAND,
            params={"card": card_name(missing)},
        )
    new_passes = list(passes)
    new_passes[seat] = mask
    if not all(new_passes):
        p0, p1, p2, p3 = new_passes
        return state._replace(passes=(p0, p1, p2, p3))
    # The fourth pass: every seat's three cards move at once.
    offset = pass_offset(state.hand_index)
    hands = tuple(
        state.hands[s] & ~new_passes[s] | new_passes[(s - offset) % SEATS] for s in range(SEATS)
    )
    h0, h1, h2, h3 = hands
    leader = holder_of((h0, h1, h2, h3), TWO_OF_CLUBS)
    p0, p1, p2, p3 = new_passes
    return state._replace(
        phase=PLAY,
        hands=(h0, h1, h2, h3),
        passes=(p0, p1, p2, p3),
        to_play=leader,
        leader=leader,
    )


def _play(state: HeartsState, seat: int, card: Card) -> HeartsState:
    if state.phase != PLAY:
        raise IllegalMove(
            gettext_noop("Cards are being passed: play once everybody has passed."),
            PLAY_WRONG_PHASE,
        )
    if seat != state.to_play:
        raise IllegalMove(gettext_noop("It is not your turn to play."), PLAY_OUT_OF_TURN)
    bit = BIT[card]
    if not legal_play_mask(state, seat) & bit:
        _refuse_play(state, seat, card)
    hands = list(state.hands)
    hands[seat] &= ~bit
    h0, h1, h2, h3 = hands
    trick = (*state.trick, card)
    if len(trick) < SEATS:
        return state._replace(hands=(h0, h1, h2, h3), trick=trick, to_play=(seat + 1) % SEATS)
    done = make_trick(state.leader, trick)
    winner = done.winner
    tricks = (*state.tricks, done)
    taken = list(state.taken)
    taken[winner] += done.points
    t0, t1, t2, t3 = taken
    broken = state.hearts_broken or any(c // 13 == HEARTS for c in trick)
    after = state._replace(
        hands=(h0, h1, h2, h3),
        to_play=winner,
        leader=winner,
        trick=(),
        tricks=tricks,
        hearts_broken=broken,
        taken=(t0, t1, t2, t3),
    )
    if len(tricks) < TRICKS_PER_HAND:
        return after
    return _end_hand(after)


def _refuse_play(state: HeartsState, seat: int, card: Card) -> None:
    """Raise the IllegalMove that says why `card` may not be played (it is not legal)."""
    hand = state.hands[seat]
    if not hand & BIT[card]:
        raise IllegalMove(
            gettext_noop("You don't hold the %(card)s."),
            PLAY_NOT_IN_HAND,
            params={"card": card_name(card)},
        )
    trick = state.trick
    if not trick:
        if not state.tricks:
            raise IllegalMove(
                gettext_noop("The two of clubs must open the first trick."), PLAY_FIRST_LEAD_NOT_2C
            )
        raise IllegalMove(
            # Translators: hearts are "broken" once a heart has been played in the hand.
            gettext_noop("Hearts are not broken yet: lead another suit."),
            PLAY_HEART_NOT_BROKEN,
        )
    led = trick[0]
    if hand & SUIT_MASK_OF[led]:
        raise IllegalMove(
            # Translators: %(suit)s is one card of a suit: "club", "heart".
            gettext_noop("You must follow suit: play a %(suit)s."),
            PLAY_MUST_FOLLOW_SUIT,
            params={"suit": suit_word(led // 13)},
        )
    raise IllegalMove(
        gettext_noop(
            "No hearts or queen of spades on the first trick while you hold another card."
        ),
        PLAY_POINTS_ON_FIRST_TRICK,
    )


def _end_hand(state: HeartsState) -> HeartsState:
    """Score the finished hand (moon rule), then end the game or deal the next hand."""
    taken = state.taken
    shooter = next((s for s in range(SEATS) if taken[s] == 26), None)
    points = taken if shooter is None else tuple(0 if s == shooter else 26 for s in range(SEATS))
    t0, t1, t2, t3 = (state.totals[s] + points[s] for s in range(SEATS))
    totals = (t0, t1, t2, t3)
    record = HandRecord(
        index=state.hand_index,
        pass_direction=pass_direction(state.hand_index),
        tricks=state.tricks,
        taken=taken,
        points=tuple(points),
        totals=totals,
        moon_shooter=shooter,
    )
    history = (*state.history, record)
    if max(totals) >= state.target:
        return state._replace(phase=OVER, to_play=-1, totals=totals, history=history)
    return start_hand(state.source, state.target, state.hand_index + 1, totals, history)


# --- Taking an action back ---------------------------------------------------------------------


def undoable(before: HeartsState, seat: int, action: Action, after: HeartsState) -> bool:
    """Whether `seat`'s `action` (`before` to `after`) may be taken back by consent: only a
    card played to a trick it does not complete (same hand, still in play, the trick one
    card longer). The card that completes a trick decides who wins it and who leads next,
    and the last one ends the hand; a pass is never taken back (the pass is simultaneous
    and secret, and the fourth pass moves every seat's cards at once)."""
    return (
        isinstance(action, Play)
        and before.phase == PLAY
        and after.phase == PLAY
        and before.to_play == seat
        and after.hand_index == before.hand_index
        and len(after.trick) == len(before.trick) + 1
    )
