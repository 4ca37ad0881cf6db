"""The play of the cards (rules §7, §8): legal cards, asking for the trump, who wins a trick,
and scoring a hand (§9, §11).

Legal cards are computed on masks: the set of cards a seat may play is one int, turned into
cards only when asked for. The face-down card is not in the bidder's hand mask until the
reveal, so "unable to follow" and "may play" never see it (rules §6).
"""

from __future__ import annotations

from collections.abc import Sequence

from .auction import start_hand
from .cards import BIT, POINTS, RANK_OF, SUIT_MASK_OF, SUIT_OF, Card
from .state import (
    MAX_BID,
    OVER,
    PLAY,
    TRICKS_PER_HAND,
    FiftySixState,
    HandRecord,
    Trick,
    game_points_for,
)

# --- Questions ---------------------------------------------------------------------------------


def must_reveal(state: FiftySixState, seat: int) -> bool:
    """The bidder's turn, trump concealed, its hand empty: only asking (turning up its own
    last card) is legal, then playing it (rules C-56-16, READING-3)."""
    return (
        state.phase == PLAY
        and seat == state.to_play
        and seat == state.bidder
        and not state.revealed
        and not state.hands[seat]
    )


def legal_play_mask(state: FiftySixState, seat: int) -> int:
    """The cards `seat` may play now, as a mask (0 when it is not their turn to play)."""
    if state.phase != PLAY or seat != state.to_play:
        return 0
    hand = state.hands[seat]
    if state.asked:  # the asker must trump if able (C-56-15)
        return hand & SUIT_MASK_OF[state.trump] or hand
    trick = state.trick
    if not trick:
        if seat == state.bidder and not state.revealed:  # C-56-13
            return hand & ~SUIT_MASK_OF[state.trump] or hand
        return hand
    return hand & SUIT_MASK_OF[trick[0][1]] or hand


def can_ask_trump(state: FiftySixState, seat: int) -> bool:
    """Whether `seat` may ask for the trump now: its turn to play, trump concealed, and
    either following without a card of the led suit or the forced reveal (rules §8.3)."""
    if state.phase != PLAY or seat != state.to_play or state.revealed:
        return False
    hand = state.hands[seat]
    if seat == state.bidder and not hand:
        return True
    trick = state.trick
    return bool(trick) and not hand & SUIT_MASK_OF[trick[0][1]]


def trump_suit(state: FiftySixState) -> int:
    """The trump suit once revealed, else -1 (a concealed trump has no power)."""
    return SUIT_OF[state.trump] if state.revealed else -1


def trick_winner_index(plays: Sequence[tuple[int, Card]], trump: int, reveal_pos: int) -> int:
    """The index in `plays` of the card winning (so far): the highest trump, else the highest
    card of the led suit; of identical cards the first played. A trump-suit card counts as a
    trump if played at position `reveal_pos` or later, or if trumps were led (rules §8.4).
    `trump` is the revealed trump suit, or -1."""
    led = SUIT_OF[plays[0][1]]
    led_is_trump = led == trump
    best = 0
    best_class = 2 if led_is_trump else 1
    best_rank = RANK_OF[plays[0][1]]
    for i in range(1, len(plays)):
        card = plays[i][1]
        suit = SUIT_OF[card]
        if suit == trump and (led_is_trump or i >= reveal_pos):
            klass = 2
        elif suit == led:
            klass = 1
        else:
            continue
        rank = RANK_OF[card]
        if klass > best_class or (klass == best_class and rank < best_rank):
            best, best_class, best_rank = i, klass, rank
    return best


def current_winner(state: FiftySixState) -> int | None:
    """The seat winning the current trick so far, None before its first card."""
    if not state.trick:
        return None
    return state.trick[trick_winner_index(state.trick, trump_suit(state), state.reveal_pos)][0]


# --- Actions -----------------------------------------------------------------------------------


def apply_ask(state: FiftySixState, seat: int) -> FiftySixState:
    """`seat` asks (already checked): the face-down card is shown and joins the bidder's hand;
    the same seat plays next."""
    hands = list(state.hands)
    hands[state.bidder] |= BIT[state.trump]
    return state._replace(
        hands=tuple(hands),
        revealed=True,
        revealed_by=seat,
        asked=True,
        reveal_pos=len(state.trick),
        step=state.step + 1,
    )


def apply_play(state: FiftySixState, seat: int, card: Card) -> FiftySixState:
    """`seat` plays `card` (already checked); a complete trick is won and scored, and the
    hand ends after the 8th trick or a tani bidder's first lost trick."""
    hands = list(state.hands)
    hands[seat] &= ~BIT[card]
    trick = (*state.trick, (seat, card))
    if len(trick) < state.trick_size():
        return state._replace(
            hands=tuple(hands),
            trick=trick,
            asked=False,
            to_play=state.next_to_play(seat),
            step=state.step + 1,
        )
    winner = trick[trick_winner_index(trick, trump_suit(state), state.reveal_pos)][0]
    points = 0
    for _, played in trick:
        points += POINTS[played]
    done = Trick(state.leader, trick, winner, points)
    team_points = list(state.points)
    team_points[winner & 1] += points
    after = state._replace(
        hands=tuple(hands),
        trick=(),
        tricks=(*state.tricks, done),
        points=(team_points[0], team_points[1]),
        asked=False,
        reveal_pos=0,
        leader=winner,
        to_play=winner,
        step=state.step + 1,
    )
    if state.contract >= MAX_BID and winner != state.bidder:
        return end_hand(after, made=False)
    if len(after.tricks) == TRICKS_PER_HAND:
        made = state.contract >= MAX_BID or after.points[state.bidder & 1] >= state.contract
        return end_hand(after, made=made)
    return after


def end_hand(state: FiftySixState, made: bool) -> FiftySixState:
    """Score the finished hand: game points, tables handed over (a team owing more than it
    holds hands over all and loses the match), then end the match or deal the next hand with
    the next dealer."""
    team = state.bidder & 1
    points = game_points_for(state.contract, made, state.seats)
    totals = list(state.game_points)
    totals[team] += points
    tables = list(state.tables)
    change = [0, 0]
    loser = -1
    if state.tables_per_team is not None:
        payer, receiver = (1 - team, team) if made else (team, 1 - team)
        owed = abs(points)
        paid = min(owed, tables[payer])
        tables[payer] -= paid
        tables[receiver] += paid
        change[payer], change[receiver] = -paid, paid
        if owed > paid:
            loser = payer
    record = HandRecord(
        index=state.hand_index,
        dealer=state.dealer,
        bidder=state.bidder,
        contract=state.contract,
        trump=Card(state.trump),
        trump_revealed=state.revealed,
        revealed_by=state.revealed_by if state.revealed else None,
        outcome="made" if made else "lost",
        calls=state.calls,
        tricks=state.tricks,
        points=state.points,
        game_points=points,
        tables=(tables[0], tables[1]) if state.tables_per_team is not None else None,
        tables_change=(change[0], change[1]),
    )
    history = (*state.history, record)
    new_tables = (tables[0], tables[1])
    new_totals = (totals[0], totals[1])
    if loser >= 0:
        return state._replace(
            phase=OVER,
            to_play=-1,
            tables=new_tables,
            game_points=new_totals,
            history=history,
            winning_team=1 - loser,
        )
    return start_hand(
        state.source,
        state.seats,
        state.tables_per_team,
        state.hand_index + 1,
        (state.dealer + 1) % state.seats,
        new_tables,
        new_totals,
        history,
    )
