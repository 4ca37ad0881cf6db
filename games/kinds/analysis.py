"""Analysis of a finished game by the search: every decision graded from the deciding seat's view.

Pure Python (no Django), over the rules protocol and a game's `Searchable` (games/kinds/search.py),
so a queue, a stored result or a replay can call it: `analyse_game` is a function from a recorded
game (its first state and its (seat, action) log) to its grades (docs/analysis.md).

* **What is graded.** Every action of a seat the game was waiting for (`to_act`) that had more
  than one legal action, except the steps in `skip` (a bot's moves for a covered seat). An
  action out of turn (Hundred and Ten's pre-pass) is not graded.
* **From the seat's view at that moment.** `grade` is given `rules.view(state, seat)`, never the
  state: the search samples the hidden cards from the view, as the hard bot does. In a
  simultaneous phase (Hearts' pass, One Hundred and Four's choice of a card) the view is the
  one the seat had when its decision began, before any seat's action of that phase: the
  earliest state of the run in which the seat was waiting with the same `decision_key` (which
  the others' choices in the phase leave alone), so no seat is graded on knowing who has chosen
  already, and the order the seats chose in changes nothing.
* **How.** Every candidate of the game's search and the action played (always evaluated, even
  when the search would not have considered it) are played out on the same samples (common
  random numbers: they differ by their own action, not by luck), `samples` of them, each
  candidate on every one: a fixed budget, never a time, seeded from (seed, step at which the
  decision began, seat), so the same game and seed give the same grades on any machine.
* **Values** are the search's playout values times the game's `scale`, in the game's `unit`
  (`Grading`, in games/kinds/<game>/analysis.py), higher is better. The loss is the best value
  minus the played one (never negative: the played action is among those compared), and the
  game's `Thresholds` mark it.
* **Accuracy** of a decision is `100 * 0.5 ** (loss / mistake)`: 100 for the best action, 50
  for a loss at the mistake threshold, 25 at twice that. A seat's accuracy is the mean over its
  graded decisions that could still cost a mistake; its mistakes per hand count the decisions
  marked mistake or blunder. For a unit bounded below (a chance to win cannot fall under 0:
  `Grading.floor`), a decision whose best action is worth less than a mistake above the floor
  cost nothing whatever was played: it is graded and shown, but left out of the accuracy,
  which would otherwise reward falling hopelessly behind (a seat out of the running makes its
  every later decision "perfectly"; bench/results/analysis-validation.md). A seat with no
  such decision left has the mean over all its graded ones.
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .protocol import Bot, Rules
from .search import Searchable
from .simulation import PlayedGame, play_rotated

S = TypeVar("S")
A = TypeVar("A")

# The version of the grading (this module, the games' searches and thresholds) a stored
# analysis was computed with (games/models/analysis.py): change it when a change to the engines,
# the search or the grading would change the grades, and stored analyses are computed again.
ANALYSIS_VERSION = "2"  # 2: decisions of a lost cause left out of the accuracy (floor)

INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"


@dataclass(frozen=True)
class Thresholds:
    """The losses (in the game's unit) from which a decision is marked."""

    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float) -> str | None:
        if loss >= self.blunder:
            return BLUNDER
        if loss >= self.mistake:
            return MISTAKE
        if loss >= self.inaccuracy:
            return INACCURACY
        return None

    def score(self, loss: float) -> float:
        """A decision's accuracy in %: 100 for no loss, halved for every `mistake` lost."""
        return float(100.0 * 0.5 ** (max(loss, 0.0) / self.mistake))


@dataclass(frozen=True)
class Grading(Generic[S, A]):
    """What one game gives the analysis (games/kinds/<game>/analysis.py): its search part, the
    unit its values are shown in (the search's playout value times `scale`), its thresholds,
    and the default budget: samples per decision, each played out once for every candidate,
    before the game's own `budget` adjusts them (more than the hard bot's playouts, which it
    shares among all its candidates)."""

    search: Searchable[S, A, Any]
    unit: str
    scale: float
    thresholds: Thresholds
    budget: int
    min_samples: int = 8
    # The unit's lowest value, when it has one (a chance to win: 0), else None: decisions whose
    # best value is less than a mistake above it are left out of the accuracy (module doc).
    floor: float | None = None

    def counts(self, value_best: float) -> bool:
        """Whether a decision whose best action is worth `value_best` counts in the accuracy:
        whether a mistake could still be made in it."""
        return self.floor is None or value_best - self.floor >= self.thresholds.mistake


@dataclass(frozen=True)
class Grade(Generic[A]):
    """One decision graded: the action played and the best one with their values."""

    played: A
    best: A
    value_played: float
    value_best: float
    samples: int
    compared: int  # actions played out: the search's candidates, and the played one if apart

    @property
    def loss(self) -> float:
        return self.value_best - self.value_played


def grade(
    rules: Rules[S, A, Any],
    grading: Grading[S, A],
    view: Any,
    seat: int,
    played: A,
    *,
    seed: str,
    budget: int | None = None,
) -> Grade[A]:
    """`played` graded against the search's candidates from `view` (the seat's view) alone,
    every action on the same samples. `budget` (default: the game's) goes through the game's
    `Searchable.budget` and is never less than `grading.min_samples`."""
    search = grading.search
    candidates = list(search.candidates(view))
    actions = candidates if played in candidates else [*candidates, played]
    samples = max(grading.min_samples, search.budget(view, budget or grading.budget))
    rng = random.Random(seed)
    totals = [0.0] * len(actions)
    for _ in range(samples):
        world = search.sample(view, rng)
        playout_seed = rng.getrandbits(64)
        for index, action in enumerate(actions):
            after = rules.apply(world, seat, action)
            totals[index] += search.playout(after, seat, random.Random(playout_seed))
    values = [total / samples * grading.scale for total in totals]
    mine = actions.index(played)
    # Ties go to the action played (no loss), then to the earlier candidate.
    best = max(range(len(actions)), key=lambda i: (values[i], i == mine, -i))
    return Grade(played, actions[best], values[mine], values[best], samples, len(actions))


@dataclass(frozen=True)
class Decision(Generic[A]):
    """One graded decision of a game: `step` is the index of its action in the log, `hand`
    the hand (round, deal) it belongs to."""

    step: int
    seat: int
    hand: int
    played: A
    best: A
    value_played: float
    value_best: float
    loss: float
    mark: str | None


@dataclass(frozen=True)
class SeatSummary:
    """A seat's figures over one game (or several: `combine`)."""

    seat: int
    decisions: int  # graded
    accuracy: float  # mean decision accuracy, in % (100 when nothing was graded)
    inaccuracies: int
    mistakes: int
    blunders: int
    hands: int

    @property
    def mistakes_per_hand(self) -> float:
        """Decisions marked mistake or blunder, per hand played."""
        return (self.mistakes + self.blunders) / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class GameAnalysis(Generic[A]):
    """A game's grades: each graded decision in order, and each seat's summary."""

    unit: str
    budget: int
    hands: int
    decisions: tuple[Decision[A], ...]
    seats: tuple[SeatSummary, ...]
    # Seconds each graded decision took: not a result (it depends on the machine).
    seconds: tuple[float, ...] = field(default=(), compare=False)


def analyse_game(
    rules: Rules[S, A, Any],
    grading: Grading[S, A],
    initial: S,
    log: Iterable[tuple[int, A]],
    *,
    seed: str,
    budget: int | None = None,
    skip: Collection[int] = (),
) -> GameAnalysis[A]:
    """Grade every decision of the game that starts at `initial` and follows `log` (see the
    module docstring); `skip`: steps (indices in `log`) not to grade."""
    budget = budget or grading.budget
    thresholds = grading.thresholds
    state = initial
    # The state in which each waiting seat's present decision began, with its key.
    began: dict[int, tuple[str, S, int]] = {}
    decisions: list[Decision[A]] = []
    seconds: list[float] = []
    seen = 0  # the most seats seen waiting or acting (for a log that stops mid-game)
    for step, (seat, action) in enumerate(log):
        waiting = rules.to_act(state)
        for other in list(began):
            if other not in waiting:
                del began[other]
        for other in waiting:
            key = rules.decision_key(state, other)
            if other not in began or began[other][0] != key:
                began[other] = (key, state, step)
        if seat in waiting and step not in skip:
            _, basis, since = began[seat]
            if len(rules.legal_actions(basis, seat)) > 1:
                started = time.perf_counter()
                result = grade(
                    rules,
                    grading,
                    rules.view(basis, seat),
                    seat,
                    action,
                    seed=f"{seed}:{since}:{seat}",
                    budget=budget,
                )
                seconds.append(time.perf_counter() - started)
                decisions.append(
                    Decision(
                        step,
                        seat,
                        rules.hand_number(basis),
                        action,
                        result.best,
                        result.value_played,
                        result.value_best,
                        result.loss,
                        thresholds.mark(result.loss),
                    )
                )
        seen = max(seen, seat + 1, max(waiting, default=0) + 1)
        state = rules.apply(state, seat, action)
    hands = rules.hand_number(state) + 1
    # A finished game has a summary for every seat, even one that never had to choose.
    outcome = rules.outcome(state)
    seats = len(outcome.scores) if outcome is not None else seen
    summaries = tuple(
        summarise(seat, [d for d in decisions if d.seat == seat], hands, grading)
        for seat in range(seats)
    )
    return GameAnalysis(grading.unit, budget, hands, tuple(decisions), summaries, tuple(seconds))


def summarise(
    seat: int, decisions: Sequence[Decision[Any]], hands: int, grading: Grading[Any, Any]
) -> SeatSummary:
    """`seat`'s summary from its graded `decisions` over `hands` hands."""
    marks = [d.mark for d in decisions]
    counted = [d for d in decisions if grading.counts(d.value_best)] or decisions
    scores = [grading.thresholds.score(d.loss) for d in counted]
    return SeatSummary(
        seat,
        len(decisions),
        sum(scores) / len(scores) if scores else 100.0,
        marks.count(INACCURACY),
        marks.count(MISTAKE),
        marks.count(BLUNDER),
        hands,
    )


def play_and_analyse(
    rules: Rules[Any, Any, Any],
    grading: Grading[Any, Any],
    seats: int,
    options: Mapping[str, Any],
    seed: str,
    lineup: Sequence[str],
    bots: Mapping[str, Bot[Any, Any]],
    budget: int,
    index: int,
) -> tuple[PlayedGame, GameAnalysis[Any]]:
    """Game `index` of a `simulate` run (the same deal and rotation), and its analysis, seeded
    from f"{seed}:{index}:analysis" (what `manage.py analyse` runs in each worker process)."""
    played = play_rotated(rules, seats, options, seed, lineup, bots, index, keep_log=True)
    initial = rules.initial_state(f"{seed}:{index}", seats, options)
    analysis = analyse_game(
        rules, grading, initial, played.log, seed=f"{seed}:{index}:analysis", budget=budget
    )
    return played, analysis
