"""The bot levels a seat can be given, the same three for every game (pure: no Django).

* "easy": the medium bot, except that about one decision in three is a random legal action
  (`EasyBot`): it plays sensibly most of the time and leaves openings a beginner can use;
* "medium": the game's naive bot (fixed heuristics from the seat's view or hand);
* "hard": the determinized search (`games.kinds.search.SearchBot`).

Each game's `bots.py` maps these names (and a few more for tests and benchmarks, such as
"random") to its bots; `GameKind` offers them in the waiting room.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .protocol import Bot, Rules
from .words import gettext_noop

S = TypeVar("S")
A = TypeVar("A")

# (level, label), in the order the waiting room offers them: the first is "Add a bot". The
# labels are marked for translation: whoever shows them translates them (games/phrases.py).
LEVELS: tuple[tuple[str, str], ...] = (
    # Translators: a machine player's level of play.
    ("medium", gettext_noop("Medium bot")),
    # Translators: a machine player's level of play.
    ("easy", gettext_noop("Easy bot")),
    # Translators: a machine player's level of play.
    ("hard", gettext_noop("Hard bot")),
)


@dataclass(frozen=True)
class EasyBot(Generic[S, A]):
    """`medium`'s choice, except with probability `mistakes` a uniformly random legal action
    (for a combinatorial choice, one of the rules' representatives). Deterministic for a
    given `rng`; it reads no more than the seat's own legal actions."""

    rules: Rules[S, A, Any]
    medium: Bot[S, A]
    mistakes: float = 1 / 3

    def choose(self, state: S, seat: int, rng: random.Random) -> A:
        if rng.random() < self.mistakes:
            legal = self.rules.legal_actions(state, seat)
            if legal:
                return rng.choice(list(legal))
        return self.medium.choose(state, seat, rng)
