"""Hearts' machine players behind the protocol's `Bot` (pure: no Django).

"naive" (the "medium" level) decides from the seat's view only (`RULES.view(state, seat)`),
so it cannot cheat, and `suggest(view)` gives the same choice as a hint for a human player:

* pass: the Q♠, A♠ and K♠ first, then the highest cards (hearts before other suits at the
  same rank);
* lead: the lowest card, not a spade while holding the Q♠ (unless nothing else is legal),
  a heart only if no other card of that rank will do;
* follow: the Q♠ under a higher spade; last to play on a trick without points, take it
  with the highest card (never the Q♠ if there is another); otherwise duck with the highest
  card that loses, and when every card wins, play the highest (not the Q♠ if possible);
* discard (void in the led suit): the Q♠, else the highest heart, else the highest card.

"hard" is the determinized search (`games.kinds.search.SearchBot`) with Hearts' part in
`search.py`: it samples the hidden hands from the seat's view, plays each candidate out to
the end of the hand with a fast copy of the naive policy (`playout.py`) and keeps the best.
"easy" is the naive bot with a random legal action about one time in three.

"random" plays a uniformly random legal card and passes three random cards of its hand:
for tests and benchmarks. All are deterministic for a given `rng`.
"""

from __future__ import annotations

import random

from games.kinds.levels import EasyBot
from games.kinds.protocol import Bot, ViewBot
from games.kinds.search import SearchBot

from .engine.actions import PLAYS, Action, Pass
from .engine.cards import HEARTS, POINTS, QUEEN_OF_SPADES, SPADES, Card, cards_of
from .engine.passing import can_pass
from .engine.rules import legal_actions
from .engine.seam import RULES
from .engine.state import HeartsState
from .engine.view import HeartsView
from .search import HeartsSearch

_ACE_OF_SPADES = Card(SPADES * 13 + 12)
_KING_OF_SPADES = Card(SPADES * 13 + 11)
_DANGER = (QUEEN_OF_SPADES, _ACE_OF_SPADES, _KING_OF_SPADES)


def choose_pass(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The three cards the naive bot passes from `hand`, sorted."""

    def priority(card: Card) -> tuple[int, int, int, int]:
        danger = _DANGER.index(card) if card in _DANGER else len(_DANGER)
        return (danger, -(card % 13), 0 if card // 13 == HEARTS else 1, card // 13)

    return tuple(sorted(sorted(hand, key=priority)[:3]))


def _lead(view: HeartsView, legal: tuple[Card, ...]) -> Card:
    holds_queen = QUEEN_OF_SPADES in view.hand
    safe = [c for c in legal if not (holds_queen and c // 13 == SPADES)] or list(legal)
    return min(safe, key=lambda c: (c % 13, c // 13 == HEARTS, c // 13))


def _follow(view: HeartsView, legal: tuple[Card, ...]) -> Card:
    trick = view.trick
    led = trick[0][1] // 13
    best = max(card for _, card in trick if card // 13 == led)
    if QUEEN_OF_SPADES in legal and best > QUEEN_OF_SPADES:
        return QUEEN_OF_SPADES  # under the A♠ or K♠: the Q♠ goes to someone else
    not_queen = [c for c in legal if c != QUEEN_OF_SPADES] or list(legal)
    if len(trick) == 3 and not any(POINTS[card] for _, card in trick):
        return max(not_queen)  # a clean trick: take it and shed a high card
    losing = [c for c in legal if c < best]
    if losing:
        return max(losing)
    return max(not_queen)


def _discard(legal: tuple[Card, ...]) -> Card:
    if QUEEN_OF_SPADES in legal:
        return QUEEN_OF_SPADES
    hearts = [c for c in legal if c // 13 == HEARTS]
    if hearts:
        return max(hearts)
    return max(legal, key=lambda c: (c % 13, c // 13))


def choose_play(view: HeartsView) -> Card:
    """The card the naive bot plays (the viewer must have a legal play)."""
    legal = view.legal_plays
    if not legal:
        raise ValueError("The viewer has no card to play.")
    if not view.trick:
        return _lead(view, legal)
    if legal[0] // 13 == view.trick[0][1] // 13:
        return _follow(view, legal)
    return _discard(legal)


def suggest(view: HeartsView) -> Action | None:
    """The naive bot's action for the viewer (a hint), or None if it has nothing to do."""
    if view.can_pass:
        return Pass(choose_pass(view.hand))
    if view.legal_plays:
        return PLAYS[choose_play(view)]
    return None


class RandomBot:
    def choose(self, state: HeartsState, seat: int, rng: random.Random) -> Action:
        if can_pass(state, seat):
            return Pass(tuple(sorted(rng.sample(cards_of(state.hands[seat]), 3))))
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError(f"Seat {seat} has nothing to do.")
        return rng.choice(actions)


NAIVE = ViewBot(RULES, suggest)

BOTS: dict[str, Bot[HeartsState, Action]] = {
    "easy": EasyBot(RULES, NAIVE),
    "medium": NAIVE,
    # 80 playouts: about 10 ms of CPU for most decisions (tuned with `manage.py simulate`).
    "hard": SearchBot(RULES, HeartsSearch(), playouts=80, min_samples=8),
    "naive": NAIVE,
    "random": RandomBot(),
}
