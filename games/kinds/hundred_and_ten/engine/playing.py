"""After trump is named: discarding and drawing (section 9), then the tricks (section 11);
the last trick scores the round, and the next round is dealt or the game is won."""

from __future__ import annotations

from typing import Any

from games.kinds.words import gettext_noop

from .cards import IS_TRUMP, SUITS
from .dealing import _deal
from .fields import (
    _ACTIVE,
    _DISCARD,
    _DISCARDS,
    _DRAWS,
    _HANDS,
    _HISTORY,
    _PILE_POS,
    _PLAYING,
    _SCORES,
    _STATUS,
    _TRICK,
    _TRICKS,
    _WINNER,
    _WON,
    _build,
)
from .moves import Discard, IllegalMove, Play
from .queries import _refuse_common
from .scoring import find_winner, score_round, trick_winner
from .state import GameState, RoundRecord, Trick

TRICKS_PER_ROUND = 5


def _apply_discard(state: GameState, move: Discard) -> GameState:
    seat = move.seat
    if state.status is not _DISCARD or seat != state.active_seat:
        _refuse_common(state, seat)
        if state.status is not _DISCARD:
            raise IllegalMove(
                gettext_noop("You can only discard during the discard phase."), "wrong_phase"
            )
        raise IllegalMove(gettext_noop("It is not your turn to discard."), "not_your_turn")
    hand = state.hands[seat]
    given = move.cards
    for card in given:
        if card not in hand:
            raise IllegalMove(
                gettext_noop("You may only discard cards that are in your hand."),
                "card_not_in_hand",
            )
    if len(set(given)) != len(given):
        raise IllegalMove(gettext_noop("You cannot discard the same card twice."), "duplicate_card")
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


def _apply_play(state: GameState, move: Play) -> GameState:
    seat = move.seat
    if state.status is not _PLAYING or seat != state.active_seat:
        _refuse_common(state, seat)
        if state.status is not _PLAYING:
            raise IllegalMove(
                gettext_noop("Cards can only be played once the tricks have started."),
                "wrong_phase",
            )
        raise IllegalMove(gettext_noop("It is not your turn."), "not_your_turn")
    card = move.card
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove(gettext_noop("You do not have that card."), "card_not_in_hand")
    trick = state.current_trick
    trump = state.trump_index
    if trick:
        trumps = IS_TRUMP[trump]  # type: ignore[index]
        if trumps[trick[0][1]] and not trumps[card]:
            for held in hand:
                if trumps[held]:
                    raise IllegalMove(
                        # Translators: Hundred and Ten's "bleeding": a trump was led, so
                        # whoever holds a trump must play one.
                        gettext_noop("The trick is bleeding: you must play a trump."),
                        "must_play_trump",
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
