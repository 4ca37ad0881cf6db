"""The rules of Hundred and Ten: dealing, what each seat may do, and `apply`.

Values in, values out: `apply(state, move)` returns a new `GameState` or raises `IllegalMove`
and never changes its argument. Section numbers refer to the rules file
(shared/rules/hundred-and-ten.md); where it offers a choice we follow its section 17.

Speed matters here (bots run whole rounds in search), so the hot path copies the state's
fields into a list, edits the few that change and builds the new tuple in one call, instead
of `_replace`, which is several times slower.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .cards import IS_TRUMP, PLAIN_VALUE, SUIT_OF, SUITS, TRUMP_VALUE, Card
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
from .state import (
    CallableDecks,
    DeckSource,
    FixedDecks,
    GameState,
    RoundRecord,
    SeededDecks,
    Status,
    Trick,
    check_deck,
)

HAND_SIZE = 5
TRICKS_PER_ROUND = 5
TRICK_POINTS = 5
BONUS_POINTS = 10
MOON = 60
DEFAULT_TARGET = 110
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_DEALS_IN_A_ROW = 3  # section 6: a dealer deals at most three passed-out rounds in a row

_I = {name: i for i, name in enumerate(GameState._fields)}
_STATUS = _I["status"]
_ROUND = _I["round_index"]
_SCORES = _I["scores"]
_HISTORY = _I["history"]
_WINNER = _I["winner"]
_ACTIVE = _I["active_seat"]
_HANDS = _I["hands"]
_PILE_POS = _I["pile_pos"]
_BIDS = _I["bids"]
_HIGH_BID = _I["high_bid"]
_HOLDER = _I["holder"]
_BIDDER = _I["bidder"]
_PASSED = _I["passed_mask"]
_PRE_PASSED = _I["pre_passed_mask"]
_TRUMP = _I["trump_index"]
_DISCARDS = _I["discards"]
_DRAWS = _I["draws"]
_TRICK = _I["current_trick"]
_TRICKS = _I["tricks"]

_BIDDING = Status.BIDDING
_TRUMP_SELECTION = Status.TRUMP_SELECTION
_DISCARD = Status.DISCARD
_PLAYING = Status.TRICKS
_WON = Status.WON
_ALL_BIDS = (0, *BID_AMOUNTS)

_new_tuple = tuple.__new__


def _build(fields: list[Any]) -> GameState:
    return _new_tuple(GameState, fields)


def build_state(state: GameState, **changes: Any) -> GameState:
    """`state` with some fields replaced (like `_replace`, for engine modules only)."""
    fields = list(state)
    for name, value in changes.items():
        fields[_I[name]] = value
    return _build(fields)


# --- Starting a game ---------------------------------------------------------------------------


def _deal(
    players: int,
    target: int,
    decks: DeckSource,
    round_index: int,
    dealer: int,
    dealt_in_a_row: int,
    scores: tuple[int, ...],
    history: tuple[RoundRecord, ...],
) -> GameState:
    """The state at the start of a round: five cards each in seat order, whoever deals (5)."""
    deck = decks.deck(round_index)
    hands = tuple(tuple(deck[HAND_SIZE * s : HAND_SIZE * s + HAND_SIZE]) for s in range(players))
    nothing: tuple[None, ...] = (None,) * players
    return GameState(
        players=players,
        target=target,
        decks=decks,
        status=_BIDDING,
        round_index=round_index,
        dealer=dealer,
        dealt_in_a_row=dealt_in_a_row,
        scores=scores,
        history=history,
        winner=None,
        active_seat=(dealer + 1) % players,  # bidding starts left of the dealer (7.1)
        hands=hands,
        dealt=hands,
        pile=tuple(deck[HAND_SIZE * players :]),
        pile_pos=0,
        bids=(),
        high_bid=0,
        holder=None,
        bidder=None,
        passed_mask=0,
        pre_passed_mask=0,
        trump_index=None,
        discards=nothing,
        draws=nothing,
        current_trick=(),
        tricks=(),
    )


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("A game of Hundred and Ten needs 2, 3 or 4 players.")


def new_game_from_source(
    decks: DeckSource, players: int, target: int = DEFAULT_TARGET
) -> GameState:
    """A started game whose round decks come from `decks`; seat 0 deals round 0 (section 6)."""
    _check_players(players)
    if target <= 0:
        raise ValueError("The target score must be positive.")
    return _deal(players, target, decks, 0, 0, 1, (0,) * players, ())


def new_game(seed: str, players: int, target: int = DEFAULT_TARGET) -> GameState:
    """A started game dealt from `seed`: round r uses `Random(f"{seed}:{r}")` to shuffle."""
    return new_game_from_source(SeededDecks(str(seed)), players, target)


def new_game_from_decks(
    decks: Sequence[Sequence[Card]] | Callable[[int], Sequence[Card]],
    players: int,
    target: int = DEFAULT_TARGET,
) -> GameState:
    """A started game with prepared decks: a list (one 53-card order per round) or a function
    of the round index. Seat 0 gets the first five cards, seat 1 the next five, ...; the rest is
    the draw pile, drawn from the front."""
    if callable(decks):
        return new_game_from_source(CallableDecks(decks), players, target)
    fixed = tuple(check_deck(deck, r) for r, deck in enumerate(decks))
    return new_game_from_source(FixedDecks(fixed), players, target)


# --- Queries -----------------------------------------------------------------------------------


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


def is_legal(state: GameState, move: Move) -> bool:
    """Whether `apply(state, move)` would accept `move`."""
    try:
        apply(state, move)
    except IllegalMove:
        return False
    return True


def round_history(state: GameState) -> tuple[RoundRecord, ...]:
    """Records of every finished round, oldest first (shared between states: O(1))."""
    return state.history


# --- apply -------------------------------------------------------------------------------------


def _refuse_common(state: GameState, seat: int) -> None:
    if not 0 <= seat < state.players:
        raise IllegalMove("You are not a player in this game.", "not_a_player")
    if state.status is _WON:
        raise IllegalMove("The game is over.", "game_over")


def _bid_refusal(state: GameState, amount: int) -> IllegalMove:
    high = state.high_bid
    if not high:
        return IllegalMove("You can only bid 15, 20, 25, 30 or 60, or pass.", "bid_not_allowed")
    if state.active_seat == state.dealer:
        if high == MOON:
            return IllegalMove("You can only bid 60 or pass.", "bid_not_allowed")
        return IllegalMove(f"You can only bid {high} or more.", "bid_not_allowed")
    if high == MOON:
        return IllegalMove("Nobody can bid more than 60: you can only pass.", "bid_not_allowed")
    return IllegalMove(f"You can only bid more than {high}.", "bid_not_allowed")


def _apply_bid(state: GameState, move: Bid) -> GameState:
    seat = move.seat
    amount = move.amount
    if state.status is not _BIDDING or not 0 <= seat < state.players:
        _refuse_common(state, seat)
        if amount == 0:
            raise IllegalMove("You can only pass during the bidding.", "wrong_phase")
        raise IllegalMove("You can only bid during the bidding.", "wrong_phase")
    fields = list(state)
    if seat != state.active_seat:
        if amount != 0:
            raise IllegalMove("It is not your turn.", "not_your_turn")
        bit = 1 << seat
        if state.passed_mask & bit:
            raise IllegalMove("You have already passed.", "already_passed")
        if state.pre_passed_mask & bit:
            raise IllegalMove("You have already announced a pass.", "already_passed")
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
        raise IllegalMove("You have no announced pass to take back.", "no_prepass")
    fields = list(state)
    fields[_PRE_PASSED] = state.pre_passed_mask & ~(1 << seat)
    return _build(fields)


def _apply_select_trump(state: GameState, move: SelectTrump) -> GameState:
    seat = move.seat
    _refuse_common(state, seat)
    if state.status is not _TRUMP_SELECTION:
        raise IllegalMove("Trump can only be named after the bidding.", "wrong_phase")
    if seat != state.bidder:
        raise IllegalMove("Only the bidder can name trump.", "not_bidder")
    if move.suit not in SUITS:
        raise IllegalMove("Trump must be clubs, diamonds, hearts or spades.", "not_a_suit")
    fields = list(state)
    fields[_STATUS] = _DISCARD
    fields[_TRUMP] = SUITS.index(move.suit)
    fields[_ACTIVE] = (state.dealer + 1) % state.players  # the dealer discards last (9, 17.1)
    return _build(fields)


def _apply_discard(state: GameState, move: Discard) -> GameState:
    seat = move.seat
    if state.status is not _DISCARD or seat != state.active_seat:
        _refuse_common(state, seat)
        if state.status is not _DISCARD:
            raise IllegalMove("You can only discard during the discard phase.", "wrong_phase")
        raise IllegalMove("It is not your turn to discard.", "not_your_turn")
    hand = state.hands[seat]
    given = move.cards
    for card in given:
        if card not in hand:
            raise IllegalMove(
                "You may only discard cards that are in your hand.", "card_not_in_hand"
            )
    if len(set(given)) != len(given):
        raise IllegalMove("You cannot discard the same card twice.", "duplicate_card")
    kept = tuple(c for c in hand if c not in given)
    start = state.pile_pos
    drawn = state.pile[start : start + len(given)]
    fields = list(state)
    hands = list(state.hands)
    hands[seat] = kept + drawn
    fields[_HANDS] = tuple(hands)
    fields[_PILE_POS] = start + len(given)
    discards = list(state.discards)
    discards[seat] = tuple(c for c in hand if c in given)  # hand order: same set, same state
    fields[_DISCARDS] = tuple(discards)
    draws = list(state.draws)
    draws[seat] = drawn
    fields[_DRAWS] = tuple(draws)
    if seat == state.dealer:
        fields[_STATUS] = _PLAYING
        fields[_ACTIVE] = (state.bidder + 1) % state.players  # type: ignore[operator]
    else:
        fields[_ACTIVE] = (seat + 1) % state.players
    return _build(fields)


def trick_winner(plays: Sequence[tuple[int, Card]], trump: int) -> int:
    """Seat winning a trick of (seat, card) plays: highest trump, else highest of the led suit."""
    values = TRUMP_VALUE[trump]
    winner, card = plays[0]
    best_trump = values[card]
    led_suit = SUIT_OF[card]
    best_plain = PLAIN_VALUE[card]
    for seat, card in plays[1:]:
        value = values[card]
        if value > best_trump:
            winner, best_trump = seat, value
        elif best_trump < 0 and SUIT_OF[card] == led_suit and PLAIN_VALUE[card] > best_plain:
            winner, best_plain = seat, PLAIN_VALUE[card]
    return winner


def _apply_play(state: GameState, move: Play) -> GameState:
    seat = move.seat
    if state.status is not _PLAYING or seat != state.active_seat:
        _refuse_common(state, seat)
        if state.status is not _PLAYING:
            raise IllegalMove(
                "Cards can only be played once the tricks have started.", "wrong_phase"
            )
        raise IllegalMove("It is not your turn.", "not_your_turn")
    card = move.card
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove("You do not have that card.", "card_not_in_hand")
    trick = state.current_trick
    trump = state.trump_index
    if trick:
        trumps = IS_TRUMP[trump]  # type: ignore[index]
        if trumps[trick[0][1]] and not trumps[card]:
            for held in hand:
                if trumps[held]:
                    raise IllegalMove(
                        "The trick is bleeding: you must play a trump.", "must_play_trump"
                    )
    fields = list(state)
    hands = list(state.hands)
    index = hand.index(card)
    hands[seat] = hand[:index] + hand[index + 1 :]
    fields[_HANDS] = tuple(hands)
    trick = (*trick, (seat, card))
    players = state.players
    if len(trick) < players:
        fields[_TRICK] = trick
        fields[_ACTIVE] = (seat + 1) % players
        return _build(fields)
    winner = trick_winner(trick, trump)  # type: ignore[arg-type]
    tricks = (*state.tricks, Trick(trick[0][0], trick, winner))
    fields[_TRICK] = ()
    fields[_TRICKS] = tricks
    if len(tricks) < TRICKS_PER_ROUND:
        fields[_ACTIVE] = winner
        return _build(fields)
    return _close_scored_round(state, fields, tricks)


def score_round(
    tricks: Sequence[Trick], trump: int, bidder: int, bid: int, players: int
) -> tuple[int | None, str, tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Bonus trick index, outcome, ordered score events and per-seat round scores (12)."""
    values = TRUMP_VALUE[trump]
    bonus: int | None = None
    best = -1
    for index, trick in enumerate(tricks):
        value = values[trick.winning_card]
        if value > best:
            bonus, best = index, value
    points = [TRICK_POINTS] * len(tricks)
    if bonus is not None:
        points[bonus] = BONUS_POINTS
    taken = sum(p for t, p in zip(tricks, points, strict=True) if t.winner == bidder)
    all_five = all(t.winner == bidder for t in tricks)
    events: tuple[tuple[int, int], ...]
    if bid == MOON and all_five:
        outcome, events = "moon", ((bidder, MOON),)
    elif bid != MOON and taken >= bid:
        outcome = "made"
        events = tuple((t.winner, p) for t, p in zip(tricks, points, strict=True))
    else:
        outcome = "failed"
        events = ((bidder, -bid),) + tuple(
            (t.winner, p) for t, p in zip(tricks, points, strict=True) if t.winner != bidder
        )
    round_scores = [0] * players
    for seat, delta in events:
        round_scores[seat] += delta
    return bonus, outcome, events, tuple(round_scores)


def find_winner(
    before: Sequence[int],
    after: Sequence[int],
    bidder: int | None,
    events: Iterable[tuple[int, int]],
    target: int = DEFAULT_TARGET,
) -> int | None:
    """The game's winner after a scored round, or None (section 13)."""
    over = [seat for seat, score in enumerate(after) if score >= target]
    if not over:
        return None
    if len(over) == 1:
        return over[0]
    if bidder in over:
        return bidder
    running = list(before)
    for seat, delta in events:
        running[seat] += delta
        if running[seat] >= target and seat in over:
            return seat
    return over[0]  # unreachable: somebody in `over` must have crossed the line in an event


def _close_scored_round(
    state: GameState, fields: list[Any], tricks: tuple[Trick, ...]
) -> GameState:
    players = state.players
    bidder: int = state.bidder  # type: ignore[assignment]
    trump: int = state.trump_index  # type: ignore[assignment]
    bonus, outcome, events, round_scores = score_round(
        tricks, trump, bidder, state.high_bid, players
    )
    scores = tuple(a + b for a, b in zip(state.scores, round_scores, strict=True))
    record = RoundRecord(
        index=state.round_index,
        dealer=state.dealer,
        hands=state.dealt,
        bids=state.bids,
        bidder=bidder,
        bid=state.high_bid,
        trump=SUITS[trump],
        discards=fields[_DISCARDS],
        draws=fields[_DRAWS],
        tricks=tricks,
        bonus_trick=bonus,
        outcome=outcome,
        score_events=events,
        round_scores=round_scores,
    )
    history = state.history + (record,)
    winner = find_winner(state.scores, scores, bidder, events, state.target)
    if winner is None:
        return _deal(
            players,
            state.target,
            state.decks,
            state.round_index + 1,
            (state.dealer + 1) % players,
            1,
            scores,
            history,
        )
    fields[_STATUS] = _WON
    fields[_WINNER] = winner
    fields[_ACTIVE] = None
    fields[_SCORES] = scores
    fields[_HISTORY] = history
    return _build(fields)


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
        raise IllegalMove("That is not a move of this game.", "not_a_move")
    return handler(state, move)


def replay(initial: GameState, moves: Iterable[Move]) -> GameState:
    """The state after applying `moves` in order to `initial`."""
    state = initial
    for move in moves:
        state = apply(state, move)
    return state
