"""One Hundred and Four's machine players behind the protocol's `Bot` (pure: no Django).

Every bot decides from the seat's view only (`RULES.view(state, seat)`), so none can cheat:

* "naive": the row of a too-low card by the rules' bot policy (C-104-06, `policy_row`:
  fewest bullheads, then fewest cards, then lowest index); the card with the smallest
  immediate penalty if it were placed alone on the rows as they are (so never the sixth
  card of a full row while a safer card exists), ties to the card closest above its row's
  end. `suggest(view)` gives the same choice as a hint for a human player.
* "heuristic": scores each card (`card_scores`) by its expected penalty given the cards
  still unseen (`card_risks`): another player's card between a row's end and ours lands on
  that row first, so ours is the sixth when exactly enough of them come (hypergeometric odds
  over the unseen cards, one card per opponent); a too-low card costs the row we would take
  unless somebody plays lower. To that it adds a share of the rest of the hand's expected
  penalty on the rows the card leaves, and a small bonus for high cards (weights tuned by
  simulation against "naive" at 2-10 seats). Its too-low row choice places the rest of the
  revealed turn for each row and weighs the row's cost against the risk of the hand on the
  rows that result.
* "hard": the determinized search (`games.kinds.search.SearchBot`) with this game's part
  in `search.py`: the unseen cards dealt at random from the seat's view, every legal card
  played out to the end of the deal with the naive policy for every seat.
* "random": a uniformly random legal action (tests and benchmarks).

All are deterministic for a given `rng` (only "random", "easy" and "hard" draw from it).
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from functools import lru_cache
from math import comb

from games.kinds.levels import EasyBot
from games.kinds.protocol import Bot, ViewBot
from games.kinds.search import SearchBot

from .engine.actions import CHOOSES, TAKE_ROWS, Action
from .engine.cards import (
    BULLHEADS,
    DECK,
    HIGHEST,
    ROW_COUNT,
    ROW_LIMIT,
    Rows,
    row_cost,
    target_row,
)
from .engine.seam import RULES
from .engine.state import HundredAndFourState
from .engine.view import HundredAndFourView
from .search import HundredAndFourSearch

# How much the rest of the hand's risk on the rows a card leaves weighs against the card's.
HAND_WEIGHT = 0.3
# A bonus of up to this many points for playing a high card rather than a low one.
HIGH_BONUS = 0.15
# How much the hand's risk on the resulting rows weighs against a row's cost (too low).
ROW_LOOKAHEAD = 1.0


def policy_row(rows: Rows) -> int:
    """The row the bot / time-out rule takes with a too-low card (C-104-06): the fewest
    bullheads, then the fewest cards, then the lowest index."""
    return min(range(ROW_COUNT), key=lambda r: (row_cost(rows[r]), len(rows[r]), r))


def immediate_penalty(rows: Rows, card: int) -> int:
    """The penalty `card` would take if it were placed alone on `rows` now: the policy row's
    cost when too low, a full row's cost when it is the sixth card, else 0."""
    row = target_row(rows, card)
    if row is None:
        return row_cost(rows[policy_row(rows)])
    cards = rows[row]
    return row_cost(cards) if len(cards) >= ROW_LIMIT else 0


def naive_card(view: HundredAndFourView) -> int:
    """The card the naive bot chooses (the viewer must have one to choose)."""
    rows = view.rows
    if not view.legal_cards:
        raise ValueError("The viewer has no card to choose.")

    def key(card: int) -> tuple[int, int, int]:
        row = target_row(rows, card)
        gap = card - rows[row][-1] if row is not None else 1000
        return (immediate_penalty(rows, card), gap, card)

    return min(view.legal_cards, key=key)


def suggest(view: HundredAndFourView) -> Action | None:
    """The naive bot's action for the viewer (a hint), or None if it has nothing to do."""
    if view.must_take_row:
        return TAKE_ROWS[policy_row(view.rows)]
    if view.legal_cards:
        return CHOOSES[naive_card(view)]
    return None


# --- The heuristic -----------------------------------------------------------------------------


def unseen_cards(view: HundredAndFourView) -> list[int]:
    """The cards the viewer cannot place, ascending: in other hands (committed or not) or
    unused. Every card played earlier is on a row or in a pile."""
    known = set(view.hand)
    for row in view.rows:
        known.update(row)
    for pile in view.piles:
        known.update(pile)
    known.update(card for _, card in view.revealed)
    if view.my_choice is not None:
        known.add(view.my_choice)
    return [c for c in DECK if c not in known]


@lru_cache(maxsize=65536)
def _hypergeometric(total: int, good: int, draws: int, hits: int) -> float:
    """P(exactly `hits` of `draws` cards drawn from `total` fall among `good` of them)."""
    if hits < 0 or hits > good or hits > draws or draws - hits > total - good or draws > total:
        return 0.0
    return comb(good, hits) * comb(total - good, draws - hits) / comb(total, draws)


def card_risks(
    rows: Rows, cards: tuple[int, ...], unseen: list[int], opponents: int
) -> dict[int, float]:
    """The expected penalty of each of `cards` played this turn against `opponents` cards
    drawn from `unseen` (sorted)."""
    total = len(unseen)
    draws = min(opponents, total)
    risks: dict[int, float] = {}
    low_row = policy_row(rows)
    low_cost = row_cost(rows[low_row])
    for card in cards:
        row = target_row(rows, card)
        if row is None:
            lower = bisect_left(unseen, card)
            alone = _hypergeometric(total, lower, draws, 0)
            risks[card] = alone * low_cost  # else it follows the lower card
            continue
        cards_in_row = rows[row]
        start = bisect_right(unseen, cards_in_row[-1])
        stop = bisect_left(unseen, card)
        gap = stop - start
        need = ROW_LIMIT - len(cards_in_row)
        mean = sum(BULLHEADS[c] for c in unseen[start:stop]) / gap if gap else 0.0
        risk = _hypergeometric(total, gap, draws, need) * (row_cost(cards_in_row) + need * mean)
        risk += _hypergeometric(total, gap, draws, need + ROW_LIMIT) * ROW_LIMIT * mean
        risks[card] = risk
    return risks


def _rows_after(rows: Rows, card: int) -> Rows:
    """The rows after `card` alone is placed on `rows` (too low: on the policy row)."""
    row = target_row(rows, card)
    out = list(rows)
    if row is None:
        out[policy_row(rows)] = (card,)
    elif len(rows[row]) >= ROW_LIMIT:
        out[row] = (card,)
    else:
        out[row] = (*rows[row], card)
    return tuple(out)


def card_scores(view: HundredAndFourView) -> dict[int, float]:
    """The heuristic's score of each legal card (lower is better): its expected penalty this
    turn, plus `HAND_WEIGHT` times the mean expected penalty of the rest of the hand on the
    rows it leaves, minus a small bonus for high cards (`HIGH_BONUS`: low cards keep the
    option of a cheap too-low take later)."""
    legal = view.legal_cards
    unseen = unseen_cards(view)
    opponents = view.seats - 1
    risks = card_risks(view.rows, legal, unseen, opponents)
    scores: dict[int, float] = {}
    for card in legal:
        rest = tuple(c for c in legal if c != card)
        later = 0.0
        if rest:
            after = card_risks(_rows_after(view.rows, card), rest, unseen, opponents)
            later = sum(after.values()) / len(rest)
        scores[card] = risks[card] + HAND_WEIGHT * later - HIGH_BONUS * card / HIGHEST
    return scores


def heuristic_card(view: HundredAndFourView) -> int:
    """The card with the lowest `card_scores` (ties to the lower card)."""
    if not view.legal_cards:
        raise ValueError("The viewer has no card to choose.")
    scores = card_scores(view)
    return min(view.legal_cards, key=lambda c: (scores[c], c))


def _place_rest(rows: Rows, row: int, revealed: tuple[tuple[int, int], ...]) -> Rows:
    """The rows after the lowest revealed card takes `row` and the others are placed."""
    out = list(rows)
    first = True
    for _, card in revealed:
        if first:
            out[row] = (card,)
            first = False
            continue
        target = target_row(tuple(out), card)
        if target is None:  # not possible after the lowest card; kept for safety
            continue
        out[target] = (card,) if len(out[target]) >= ROW_LIMIT else (*out[target], card)
    return tuple(out)


def heuristic_row(view: HundredAndFourView) -> int:
    """The row the heuristic bot takes with its too-low card: its cost plus a share of the
    risk of the hand's safest card on the rows that result."""
    rows = view.rows
    if not view.hand:
        return policy_row(rows)
    unseen = unseen_cards(view)
    scores = []
    for row in range(ROW_COUNT):
        after = _place_rest(rows, row, view.revealed)
        risks = card_risks(after, view.hand, unseen, view.seats - 1)
        scores.append((row_cost(rows[row]) + ROW_LOOKAHEAD * min(risks.values()), row))
    return min(scores)[1]


def heuristic_action(view: HundredAndFourView) -> Action | None:
    """The heuristic bot's action for the viewer, or None if it has nothing to do."""
    if view.must_take_row:
        return TAKE_ROWS[heuristic_row(view)]
    if view.legal_cards:
        return CHOOSES[heuristic_card(view)]
    return None


# The hard bot's playouts per decision (`HundredAndFourSearch.budget` scales them by turn).
HARD_PLAYOUTS = 60

# --- The bots ----------------------------------------------------------------------------------


class RandomBot:
    def choose(self, state: HundredAndFourState, seat: int, rng: random.Random) -> Action:
        view = RULES.view(state, seat)
        if view.must_take_row:
            return rng.choice(TAKE_ROWS)
        if view.legal_cards:
            return CHOOSES[rng.choice(view.legal_cards)]
        raise ValueError(f"Seat {seat} has nothing to do.")


NAIVE = ViewBot(RULES, suggest)

BOTS: dict[str, Bot[HundredAndFourState, Action]] = {
    "easy": EasyBot(RULES, NAIVE),
    "medium": NAIVE,
    "naive": NAIVE,
    "heuristic": ViewBot(RULES, heuristic_action),
    "hard": SearchBot(RULES, HundredAndFourSearch(), playouts=HARD_PLAYOUTS, min_samples=4),
    "random": RandomBot(),
}
