"""One search bot for every game: determinized search over the rules protocol (pure Python).

Perfect-information Monte Carlo, as trick-taking programs have used it since GIB (Ginsberg,
2001) and as Long et al. (2010) explain why it works in card games: the seat cannot see the
other hands, so it *samples* them (a determinization: a full state consistent with
everything its view shows), plays each candidate action out to a horizon on every sample
with a fast policy for all seats, and picks the candidate whose playouts do best on average.
We chose it over information-set MCTS because our horizons are short (a hand), our naive
policies are cheap and decent, and a flat search with common samples is simple to make
deterministic, cheap per decision and the same code for every game.

The search never reads the state it is asked about: `SearchBot.choose` takes the seat's view
(`rules.view(state, seat)`) and works from that alone, so equal views give equal decisions
for the same random generator (tests/kinds/test_search.py checks it for every game).

What a game supplies (its `Searchable`, in `games/kinds/<game>/search.py`):

* `candidates(view)`: the actions worth comparing, the medium bot's own choice first (ties
  go to it). Usually the legal actions; where the legal set is combinatorial (passing three
  cards of thirteen, a discard) a handful of sensible ones.
* `sample(view, rng)`: a state that the view could have come from, with the unseen cards
  dealt at random consistently with what the seat knows (cards played, voids shown by not
  following suit, passes made and received, a concealed trump, unused cards).
* `playout(state, seat, rng)`: play on from `state` with the fast policy for every seat up to
  the game's horizon (the end of the hand) and return how good that was for `seat` (higher
  is better, on a scale the game chooses: points, a team's tables, a share of the hand's
  penalty).
* `budget(view, playouts)`: how many playouts this decision deserves (usually `playouts`).

The search itself (here) is written once: every sample is shared by all candidates (common
random numbers: candidates differ only by their own action, not by luck), with a fixed
number of playouts per decision so a seed always gives the same decision. Halfway, the
worse half of the candidates is dropped and the rest share the remaining playouts
(successive halving), which spends the budget where the choice is close.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .protocol import Bot, Rules

S = TypeVar("S")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)
V_in = TypeVar("V_in", contravariant=True)


class Searchable(Protocol[S, A_co, V_in]):
    """What one game supplies to the search (see the module docstring)."""

    def candidates(self, view: V_in) -> Sequence[A_co]:
        """The actions to compare for the viewer, the default (medium bot's) choice first."""
        ...

    def sample(self, view: V_in, rng: random.Random) -> S:
        """A full state consistent with everything `view` shows, the unseen dealt at random."""
        ...

    def playout(self, state: S, seat: int, rng: random.Random) -> float:
        """Play on with the fast policy to the horizon: how good it went for `seat`."""
        ...

    def budget(self, view: V_in, playouts: int) -> int:
        """The playouts to spend on this decision (`playouts`: the bot's usual budget);
        a game may spend more where a decision matters more (a bid) or less where it is
        cheap to get right."""
        ...


@dataclass(frozen=True)
class SearchBot(Generic[S, A]):
    """The hard bot: a determinized search from the seat's view.

    `playouts` is the budget per decision (spread over the candidates), with at least
    `min_samples` samples per candidate. Deterministic for a given `rng`.
    """

    rules: Rules[S, A, Any]
    game: Searchable[S, A, Any]
    playouts: int = 240
    min_samples: int = 8

    def choose(self, state: S, seat: int, rng: random.Random) -> A:
        return self.decide(self.rules.view(state, seat), seat, rng)

    def decide(self, view: Any, seat: int, rng: random.Random) -> A:
        """The action for `seat` from its `view` alone."""
        candidates = list(self.game.candidates(view))
        if not candidates:
            raise ValueError(f"Seat {seat} has nothing to do.")
        if len(candidates) == 1:
            return candidates[0]
        budget = self.game.budget(view, self.playouts)
        count = len(candidates)
        totals = [0.0] * count
        alive = list(range(count))
        if count <= 3:
            halve_at = samples = max(self.min_samples, budget // count)
            kept = count
        else:
            # Successive halving: half the budget on every candidate, the other half on the
            # better half of them.
            halve_at = max(self.min_samples // 2, budget // (2 * count))
            kept = max(2, (count + 1) // 2)
            rest = max(self.min_samples // 2, (budget - halve_at * count) // kept)
            samples = halve_at + rest
        for index in range(samples):
            if index == halve_at:
                alive.sort(key=lambda c: (-totals[c], c))
                alive = sorted(alive[:kept])
            world = self.game.sample(view, rng)
            seed = rng.getrandbits(64)
            for c in alive:
                after = self.rules.apply(world, seat, candidates[c])
                totals[c] += self.game.playout(after, seat, random.Random(seed))
        # The survivors played every sample; ties go to the earlier candidate (the default).
        best = max(alive, key=lambda c: (totals[c], -c))
        return candidates[best]


def choose_seeded(bot: Bot[S, A], state: S, seat: int, seed: str) -> A:
    """`bot`'s action for `seat`, its randomness seeded by `seed` (what a worker process
    runs for the server: games/bots/thinking.py; a module-level function, so it pickles)."""
    return bot.choose(state, seat, random.Random(seed))


def preload(modules: Sequence[str]) -> int:
    """Import `modules` (a worker process at start-up: the games' bots), so that the first
    decision waits for no import. Returns how many."""
    for name in modules:
        importlib.import_module(name)
    return len(modules)
