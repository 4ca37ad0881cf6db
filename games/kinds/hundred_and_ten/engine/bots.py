"""Bots: the reference's naive bot (rules section 16), and the cheap determinize/playout path
that search bots build on.

`suggestion` must match the reference move for move (the traces check it at every step), so
it follows section 16 to the letter, ties included ("first" = earliest in hand order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.kinds.words import gettext_noop

from .cards import FIVE_OF, IS_TRUMP, PLAIN_VALUE, SUIT_OF, SUITS, TRUMP_VALUE, Card
from .moves import Bid, Discard, IllegalMove, Move, Play, SelectTrump
from .rules import apply, build_state, legal_bids, playable, trick_winner
from .state import GameState, Status, Trick

# Section 16: ties between suits resolve in the order H, C, S, D.
_SUIT_PREFERENCE = (2, 0, 3, 1)
_BID_THRESHOLDS = ((50, 60), (40, 30), (30, 25), (25, 20), (20, 15))


def _suit_strengths(hand: tuple[Card, ...]) -> list[tuple[int, int]]:
    """(strength, suit) for each suit in tie-break order H, C, S, D."""
    result = []
    for suit in _SUIT_PREFERENCE:
        values = TRUMP_VALUE[suit]
        strength = 0
        for card in hand:
            value = values[card]
            if value >= 0:
                strength += value
        if FIVE_OF[suit] not in hand:
            strength -= 10
        result.append((strength, suit))
    return result


def best_suit(hand: tuple[Card, ...]) -> tuple[int, int]:
    """(strength, suit index) of the hand's strongest trump suit, ties H, C, S, D."""
    best = (-1000, 0)
    for strength, suit in _suit_strengths(hand):
        if strength > best[0]:
            best = (strength, suit)
    return best


def max_bid(strength: int) -> int:
    """The most the naive bot will bid with a hand of `strength` (0 = nothing)."""
    for threshold, amount in _BID_THRESHOLDS:
        if strength > threshold:
            return amount
    return 0


def _worst(cards: tuple[Card, ...], trumps: tuple[bool, ...], values: tuple[int, ...]) -> Card:
    """Lowest-valued non-trump (first on ties), or the lowest trump if all are trumps."""
    worst: Card | None = None
    worst_value = 99
    for card in cards:
        if not trumps[card] and PLAIN_VALUE[card] < worst_value:
            worst, worst_value = card, PLAIN_VALUE[card]
    if worst is not None:
        return worst
    worst = cards[0]
    for card in cards:
        if values[card] < values[worst]:
            worst = card
    return worst


def choose_card(
    hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: int, is_bidder: bool
) -> Card:
    """The naive bot's card from `hand` for `trick` (section 16, "Play")."""
    trumps = IS_TRUMP[trump]
    values = TRUMP_VALUE[trump]
    candidates = playable(hand, trick, trump)
    if not trick:
        if is_bidder:
            best: Card | None = None
            for card in candidates:
                if trumps[card] and (best is None or values[card] > values[best]):
                    best = card
            return candidates[0] if best is None else best
        return _worst(candidates, trumps, values)
    winning = trick[0][1] if len(trick) == 1 else _winning_card(trick, trump)
    if trumps[winning]:
        floor = values[winning]
        beating = tuple(c for c in candidates if values[c] > floor)
    else:
        suit = SUIT_OF[winning]
        floor = PLAIN_VALUE[winning]
        beating = tuple(
            c for c in candidates if trumps[c] or (SUIT_OF[c] == suit and PLAIN_VALUE[c] > floor)
        )
    return _worst(beating or candidates, trumps, values)


def _winning_card(trick: Sequence[tuple[int, Card]], trump: int) -> Card:
    winner = trick_winner(trick, trump)
    for seat, card in trick:
        if seat == winner:
            return card
    raise AssertionError("the winner played in the trick")


def suggestion(state: GameState) -> Move:
    """The naive bot's move for the active seat (section 16); IllegalMove once the game is won."""
    seat = state.active_seat
    status = state.status
    if seat is None:
        raise IllegalMove(gettext_noop("The game is over."), "game_over")
    if status is Status.TRICKS:
        hand = state.hands[seat]
        trump: int = state.trump_index  # type: ignore[assignment]
        return Play(seat, choose_card(hand, state.current_trick, trump, seat == state.bidder))
    hand = state.hands[seat]
    if status is Status.BIDDING:
        ceiling = max_bid(best_suit(hand)[0])
        for amount in legal_bids(state, seat):
            if amount and amount <= ceiling:
                return Bid(seat, amount)
        return Bid(seat, 0)
    if status is Status.TRUMP_SELECTION:
        return SelectTrump(seat, SUITS[best_suit(hand)[1]])
    trumps = IS_TRUMP[state.trump_index]  # type: ignore[index]
    return Discard(seat, tuple(c for c in hand if not trumps[c]))


# --- Search support ----------------------------------------------------------------------------


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of `state` in which every card `seat` has not seen is dealt again at random.

    Unseen: the other seats' hands, their discards of this round and the undrawn draw pile.
    Each keeps its size; `seat`'s own hand and discards, and the cards played, are kept. Only
    the playable facts are redealt: the other seats' records of this round (dealt hands,
    draws) are left as they were, so use the result for search, never for display.
    """
    players = state.players
    start = state.pile_pos
    others = [s for s in range(players) if s != seat]
    unseen = [c for s in others for c in state.hands[s]]
    for s in others:
        unseen.extend(state.discards[s] or ())
    unseen.extend(state.pile[start:])
    rng.shuffle(unseen)
    hands = list(state.hands)
    discards = list(state.discards)
    position = 0
    for other in others:
        size = len(hands[other])
        hands[other] = tuple(unseen[position : position + size])
        position += size
    for other in others:
        given = discards[other]
        if given:
            discards[other] = tuple(unseen[position : position + len(given)])
            position += len(given)
    pile = state.pile[:start] + tuple(unseen[position:])
    return state._replace(hands=tuple(hands), discards=tuple(discards), pile=pile)


def playout(state: GameState, rng: random.Random | None = None) -> GameState:
    """Play the current round to its end with the naive bot for every seat.

    Returns the first state of the next round (or the WON state): exactly what applying
    `suggestion` move after move gives, only faster in the tricks. `rng` is accepted for
    policies that randomize; the naive bot is deterministic and ignores it.
    """
    start_round = state.round_index
    while state.status is not Status.TRICKS:
        if state.round_index != start_round or state.status is Status.WON:
            return state
        state = apply(state, suggestion(state))
    return apply(*_play_tricks_but_the_last_card(state))


def _play_tricks_but_the_last_card(state: GameState) -> tuple[GameState, Move]:
    """Play the round's tricks on plain lists up to its last card; return that state and move.

    Intermediate states are never built, which is what makes playouts cheap; the last card
    goes through `apply` so that scoring and the next deal stay in one place.
    """
    players = state.players
    trump: int = state.trump_index  # type: ignore[assignment]
    bidder = state.bidder
    hands = [list(hand) for hand in state.hands]
    trick = list(state.current_trick)
    tricks = list(state.tricks)
    seat: int = state.active_seat  # type: ignore[assignment]
    left = sum(len(hand) for hand in hands)
    while left > 1:
        hand = hands[seat]
        card = choose_card(hand, trick, trump, seat == bidder)
        hand.remove(card)
        left -= 1
        trick.append((seat, card))
        if len(trick) < players:
            seat = (seat + 1) % players
        else:
            seat = trick_winner(trick, trump)
            tricks.append(Trick(trick[0][0], tuple(trick), seat))
            trick = []
    last = build_state(
        state,
        hands=tuple(tuple(hand) for hand in hands),
        current_trick=tuple(trick),
        tricks=tuple(tricks),
        active_seat=seat,
    )
    return last, Play(seat, hands[seat][0])
