"""Who wins a trick (section 11), what a round scores: the bonus trick, made, failed or the
moon (section 12), and who wins the game (section 13). Plain functions of plays and scores,
used by the engine's tricks, the table and the fast playout alike."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import PLAIN_VALUE, SUIT_OF, TRUMP_VALUE, Card
from .dealing import DEFAULT_TARGET
from .state import Trick

TRICK_POINTS = 5
BONUS_POINTS = 10
MOON = 60


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
