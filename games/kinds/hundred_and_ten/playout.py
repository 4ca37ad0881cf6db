"""A fast naive playout of a Hundred and Ten round, for the hard bot (`search.py`).

Pure Python (no Django). The same play as the engine's `engine.bots.playout` (the naive bot
of rules section 16 for every seat; tests check they agree), on plain lists: no
intermediate state, no record, no next deal.
"""

from __future__ import annotations

from functools import lru_cache

from .engine.bots import best_suit, max_bid
from .engine.cards import FULL_DECK, IS_TRUMP, PLAIN_VALUE, SUIT_OF, TRUMP_VALUE, Card
from .engine.moves import BID_AMOUNTS
from .engine.rules import BONUS_POINTS, MOON, TRICK_POINTS, TRICKS_PER_ROUND, find_winner
from .engine.state import GameState, Status

_WON, _BIDDING, _TRICKS = Status.WON, Status.BIDDING, Status.TRICKS
_TRUMP_SELECTION = Status.TRUMP_SELECTION


@lru_cache(maxsize=1024)
def _ceiling(hand: tuple[Card, ...]) -> int:
    """The most the naive bot bids with `hand` (cached: every candidate of a sample asks)."""
    return max_bid(best_suit(hand)[0])


@lru_cache(maxsize=1024)
def _naive_trump(hand: tuple[Card, ...]) -> int:
    """The suit the naive bot names with `hand` (cached like `_ceiling`)."""
    return best_suit(hand)[1]


def _naive_amount(ceiling: int, high: int, dealer: bool) -> int:
    """The naive bot's bid (rules 16): the lowest legal amount up to `ceiling`, else a pass."""
    if ceiling:
        for amount in BID_AMOUNTS:
            if amount > ceiling:
                break
            if amount > high or (dealer and amount == high) or not high:
                return amount
    return 0


def _scored(state: GameState) -> bool:
    """Whether `state` stands for the end of the round before it: it starts a round (no bid
    yet) or ends the game, and its scores already hold that round."""
    return state.status is _WON or (state.status is _BIDDING and not state.bids)


def scores_after_round(state: GameState) -> tuple[tuple[int, ...], int | None]:
    """Every seat's total once the round of `state` is played out (`finish_round`), and the
    game's winner (None while the game goes on)."""
    round_scores, winner = finish_round(state)
    if _scored(state):
        return state.scores, winner
    return tuple(a + b for a, b in zip(state.scores, round_scores, strict=True)), winner


def finish_round(state: GameState) -> tuple[tuple[int, ...], int | None]:
    """Play the round of `state` to its end with the naive bot for every seat: the round's
    score per seat and the game's winner (None while the game goes on).

    The same as `engine.bots.playout` (tests check it), on plain lists: no intermediate
    state, no record, no next deal. A state that starts a round (no bid yet) or ends the game
    is taken as the end of the round before it, whose record gives the scores.
    """
    status = state.status
    if _scored(state):
        return state.history[-1].round_scores, state.winner
    players = state.players
    dealer = state.dealer
    hands = [list(hand) for hand in state.hands]
    bidder: int
    if status is _BIDDING:
        passed = state.passed_mask
        pre_passed = state.pre_passed_mask
        high = state.high_bid
        holder = state.holder
        active: int = state.active_seat  # type: ignore[assignment]
        ceilings = [_ceiling(hand) for hand in state.hands]
        while True:
            amount = _naive_amount(ceilings[active], high, active == dealer)
            if amount:
                high, holder = amount, active
            else:
                passed |= 1 << active
            while True:
                remaining = players - passed.bit_count()
                if remaining == 0:
                    return (0,) * players, None
                if remaining == 1 and high:
                    break
                active = (active + 1) % players
                while passed >> active & 1:
                    active = (active + 1) % players
                bit = 1 << active
                if pre_passed & bit:
                    pre_passed &= ~bit
                    passed |= bit
                    continue
                break
            if remaining == 1 and high:
                break
        bidder = holder  # type: ignore[assignment]
        bid = high
    else:
        bidder = state.bidder  # type: ignore[assignment]
        bid = state.high_bid
    if status is _BIDDING or status is _TRUMP_SELECTION:
        trump = _naive_trump(state.hands[bidder])
        first = (dealer + 1) % players
    else:
        trump = state.trump_index  # type: ignore[assignment]
        first = state.active_seat  # type: ignore[assignment]
    if status is not _TRICKS:
        trumps = IS_TRUMP[trump]
        pile = state.pile
        position = state.pile_pos
        seat = first
        while True:
            kept = [c for c in hands[seat] if trumps[c]]
            given = len(hands[seat]) - len(kept)
            hands[seat] = kept + list(pile[position : position + given])
            position += given
            if seat == dealer:
                break
            seat = (seat + 1) % players
        return _tricks(state, hands, [], [], [], (bidder + 1) % players, trump, bidder, bid)
    values = TRUMP_VALUE[trump]
    winners = [trick.winner for trick in state.tricks]
    won_with = [values[trick.winning_card] for trick in state.tricks]
    return _tricks(
        state,
        hands,
        list(state.current_trick),
        winners,
        won_with,
        state.active_seat,  # type: ignore[arg-type]
        trump,
        bidder,
        bid,
    )


# WORST[t][card]: the naive bot's "worst card" order with trump t (rules 16): non-trumps by
# plain value below every trump, trumps by trump value; `min` keeps the first on ties.
_WORST: tuple[tuple[int, ...], ...] = tuple(
    tuple(PLAIN_VALUE[c] if TRUMP_VALUE[t][c] < 0 else 100 + TRUMP_VALUE[t][c] for c in FULL_DECK)
    for t in range(4)
)


def _beats(trump: int, card: int) -> frozenset[Card]:
    """The cards that beat `card` when it wins a trick so far with trump `trump`: the higher
    trumps, and for a non-trump also every trump and the higher cards of its suit (rules 11;
    the naive bot's "beating cards", section 16)."""
    values = TRUMP_VALUE[trump]
    if values[card] >= 0:
        return frozenset(c for c in FULL_DECK if values[c] > values[card])
    return frozenset(
        c
        for c in FULL_DECK
        if values[c] >= 0 or (SUIT_OF[c] == SUIT_OF[card] and PLAIN_VALUE[c] > PLAIN_VALUE[card])
    )


_BEATS: tuple[tuple[frozenset[Card], ...], ...] = tuple(
    tuple(_beats(t, c) for c in FULL_DECK) for t in range(4)
)


def _tricks(
    state: GameState,
    hands: list[list[Card]],
    trick: list[tuple[int, Card]],
    winners: list[int],
    won_with: list[int],
    seat: int,
    trump: int,
    bidder: int,
    bid: int,
) -> tuple[tuple[int, ...], int | None]:
    """Play the tricks out with the naive bot (`engine.bots.choose_card`, inlined) and score
    them (`engine.scoring.score_round`). `winners` and `won_with` (the trump value of the
    winning card, -1 for none) describe the completed tricks; `trick` is the current one.

    Each hand is kept sorted worst card first (a stable sort: hand order breaks ties, as
    the naive bot's "first"), so the naive card is the first one that fits."""
    players = state.players
    values = TRUMP_VALUE[trump]
    beats = _BEATS[trump]
    worst = _WORST[trump].__getitem__
    in_hand_order = hands[bidder]  # a bidder without a trump leads its first card
    hands = [sorted(hand, key=worst) for hand in hands]
    led_trump = False
    win_seat = seat
    win_card = Card(0)
    if trick:
        win_seat, win_card = trick[0]
        led_trump = values[win_card] >= 0
        for s, card in trick[1:]:
            if card in beats[win_card]:
                win_seat, win_card = s, card
    count = len(trick)
    done = len(winners)
    while done < TRICKS_PER_ROUND:
        hand = hands[seat]
        if not count:
            card = hand[0]  # a defender leads its worst card
            if seat == bidder:
                card = hand[-1]  # the bidder its highest trump
                if values[card] < 0:
                    card = in_hand_order[0]
            win_card = card
            win_seat = seat
            led_trump = values[card] >= 0
        else:
            higher = beats[win_card]
            for card in hand:
                if card in higher:  # the worst card that beats the trick so far
                    win_seat, win_card = seat, card
                    break
            else:
                card = hand[0]
                if led_trump and values[hand[-1]] >= 0:  # bleeding: the lowest trump
                    for card in hand:
                        if values[card] >= 0:
                            break
        hand.remove(card)
        if seat == bidder:
            in_hand_order.remove(card)
        count += 1
        if count < players:
            seat = (seat + 1) % players
        else:
            winners.append(win_seat)
            won_with.append(values[win_card])
            seat = win_seat
            count = 0
            done += 1
    return _score(state, winners, won_with, bidder, bid)


def _score(
    state: GameState, winners: list[int], won_with: list[int], bidder: int, bid: int
) -> tuple[tuple[int, ...], int | None]:
    """The round's scores and the game's winner (`engine.scoring.score_round`, `find_winner`)."""
    players = state.players
    points = [TRICK_POINTS] * TRICKS_PER_ROUND
    top = max(won_with)
    if top >= 0:
        points[won_with.index(top)] = BONUS_POINTS
    if bid == MOON and winners.count(bidder) == TRICKS_PER_ROUND:
        events = [(bidder, MOON)]
    else:
        taken = sum(p for w, p in zip(winners, points, strict=True) if w == bidder)
        if bid != MOON and taken >= bid:
            events = list(zip(winners, points, strict=True))
        else:
            events = [(bidder, -bid)]
            events += [(w, p) for w, p in zip(winners, points, strict=True) if w != bidder]
    round_scores = [0] * players
    for seat, delta in events:
        round_scores[seat] += delta
    before = state.scores
    after = [a + b for a, b in zip(before, round_scores, strict=True)]
    if max(after) < state.target:
        return tuple(round_scores), None
    return tuple(round_scores), find_winner(before, after, bidder, events, state.target)
