"""The analysis of a finished game by the search (games/kinds/analysis.py, docs/analysis.md).

* It reads each seat's view only: a state with the same view for the deciding seat but other
  hidden cards gives the same grades (every game), and so does a deal with two other seats'
  hands swapped (Hearts, from the engine's own deals).
* A deliberately bad decision in a constructed position is marked (Hearts: the queen of
  spades played last to a spade trick it then takes, while a lower spade would duck).
* The same game and seed give the same analysis.
* Simultaneous phases (Hearts' pass, One Hundred and Four's choice) are graded from the view
  before any seat's action of the phase: in whatever order the seats chose, with the same
  grades, and the view graded shows nobody as having chosen.
* `manage.py analyse` plays and grades seeded games end to end, one line per seat.

Budgets here are tiny (a few samples): these test the wiring, not the grades' quality.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from typing import Any

import pytest
from django.core.management import call_command

from games import registry
from games.kinds.analysis import BLUNDER, Decision, Grading, analyse_game, grade, summarise
from games.kinds.search import SearchBot
from games.kinds.simulation import play

KINDS = sorted(registry.REGISTRY)
# Short games: (seats, options).
SHORT: dict[str, tuple[int, dict[str, Any]]] = {
    "hearts": (4, {"target": 30}),
    "hundred-and-ten": (3, {"target": 40}),
    "one-hundred-and-four": (4, {"match_to": None}),
    "fifty-six": (4, {"tables_per_team": 1}),
}


def tiny(grading: Grading[Any, Any], samples: int = 3) -> Grading[Any, Any]:
    return dataclasses.replace(grading, budget=samples, min_samples=samples)


def grading_of(slug: str, samples: int = 3) -> Grading[Any, Any]:
    grading = registry.kind(slug).grading
    assert grading is not None
    return tiny(grading, samples)


def medium_game(slug: str, seed: str) -> tuple[Any, tuple[tuple[int, Any], ...]]:
    """The first state and the log of a short game of medium and easy bots."""
    kind = registry.kind(slug)
    seats, given = SHORT[slug]
    options = {**kind.resolve_options({}), **given}  # any target, as `simulate --target`
    bots = [kind.bots["medium" if seat % 2 else "easy"] for seat in range(seats)]
    played = play(kind.rules, seats, options, seed, bots, keep_log=True)
    return kind.rules.initial_state(seed, seats, options), played.log


@pytest.mark.parametrize("slug", KINDS)
def test_every_game_grades_more_than_its_hard_bot_searches(slug):
    kind = registry.kind(slug)
    hard = kind.bots["hard"]
    assert isinstance(hard, SearchBot)
    assert kind.grading is not None and kind.grading.budget > hard.playouts
    assert set(map(type, [kind.grading.search])) == {type(hard.game)}


@pytest.mark.parametrize("slug", KINDS)
def test_the_grades_depend_on_the_seat_view_only(slug):
    rules = registry.kind(slug).rules
    grading = grading_of(slug)
    initial, log = medium_game(slug, "view-only")
    state = initial
    checked = 0
    for step, (seat, action) in enumerate(log):
        if step % 7 == 3 and checked < 6 and seat in rules.to_act(state):
            view = rules.view(state, seat)
            # Another state the seat cannot tell apart: the hidden cards dealt anew.
            other = grading.search.sample(view, random.Random(step))
            assert rules.view(other, seat) == view
            graded = analyse_game(rules, grading, state, [(seat, action)], seed="s")
            again = analyse_game(rules, grading, other, [(seat, action)], seed="s")
            assert graded == again
            checked += len(graded.decisions)
        state = rules.apply(state, seat, action)
    assert checked >= 3


def test_swapping_two_other_hearts_hands_changes_no_grade():
    from games.kinds.hearts.engine.cards import card_code

    rules = registry.kind("hearts").rules
    grading = grading_of("hearts", 4)
    initial, log = medium_game("hearts", "swap")
    deal = [[card_code(card) for card in hand] for hand in initial.source.order(0)]
    one = rules.initial_state_from_deals([deal], 4, {})
    two = rules.initial_state_from_deals([[deal[0], deal[1], deal[3], deal[2]]], 4, {})
    assert rules.view(one, 0) == rules.view(two, 0)
    assert rules.view(one, 2) != rules.view(two, 2)
    # The passes of seats 0 and 1, whose hands are the same in both deals.
    passes = [(seat, action) for seat, action in log[:4] if seat < 2]
    first = analyse_game(rules, grading, one, passes, seed="swap")
    assert [d.seat for d in first.decisions] == [0, 1]
    assert analyse_game(rules, grading, two, passes, seed="swap") == first


def test_the_queen_of_spades_thrown_onto_a_spade_trick_is_a_blunder():
    """Last to play to a spade trick below the queen, holding the queen and a lower spade:
    the queen takes 13 points that the lower spade would have ducked."""
    from games.kinds.hearts.engine.actions import PLAYS
    from games.kinds.hearts.engine.cards import QUEEN_OF_SPADES, SPADES

    rules = registry.kind("hearts").rules
    grading = grading_of("hearts", 12)
    rng = random.Random("queen")
    found = None
    for game in range(200):
        state = rules.initial_state(f"queen:{game}", 4, {"target": 100})
        while rules.to_act(state) and found is None:
            seat = min(rules.to_act(state))
            view = rules.view(state, seat)
            trick = [card for _, card in view.trick]
            if (
                len(trick) == 3
                and trick[0] // 13 == SPADES
                and QUEEN_OF_SPADES in view.legal_plays
                and max(c for c in trick if c // 13 == SPADES) < QUEEN_OF_SPADES
                and any(c < max(trick) and c // 13 == SPADES for c in view.legal_plays)
            ):
                found = (view, seat)
                break
            state = rules.apply(state, seat, rng.choice(list(rules.legal_actions(state, seat))))
        if found:
            break
    assert found is not None
    view, seat = found
    bad = grade(rules, grading, view, seat, PLAYS[QUEEN_OF_SPADES], seed="q")
    assert bad.loss >= grading.thresholds.blunder
    assert grading.thresholds.mark(bad.loss) == BLUNDER
    assert bad.best != PLAYS[QUEEN_OF_SPADES]
    good = grade(rules, grading, view, seat, bad.best, seed="q")
    assert good.loss == 0 and grading.thresholds.mark(good.loss) is None


@pytest.mark.parametrize("slug", ["hundred-and-ten", "fifty-six"])
def test_the_same_game_and_seed_give_the_same_analysis(slug):
    rules = registry.kind(slug).rules
    grading = grading_of(slug, 2)
    initial, log = medium_game(slug, "same")
    first = analyse_game(rules, grading, initial, log, seed="a")
    assert first.decisions and len(first.seconds) == len(first.decisions)
    assert analyse_game(rules, grading, initial, log, seed="a") == first
    other = analyse_game(rules, grading, initial, log, seed="b")
    assert [d.step for d in other.decisions] == [d.step for d in first.decisions]
    assert other != first  # the seed does reach the samples
    assert all(d.loss >= 0 for d in first.decisions)
    assert len(first.seats) == SHORT[slug][0]  # a summary for every seat
    summary = first.seats[0]
    assert summary.decisions == sum(1 for d in first.decisions if d.seat == 0)
    assert 0 <= summary.accuracy <= 100


def test_skipped_steps_and_single_choices_are_not_graded():
    rules = registry.kind("fifty-six").rules
    grading = grading_of("fifty-six", 1)
    initial, log = medium_game("fifty-six", "skip")
    whole = analyse_game(rules, grading, initial, log, seed="k")
    steps = {d.step for d in whole.decisions}
    assert len(steps) < len(log)  # a card forced by the suit led is no decision
    skipped = analyse_game(rules, grading, initial, log, seed="k", skip=set(list(steps)[:5]))
    assert {d.step for d in skipped.decisions} == steps - set(list(steps)[:5])


class Spy:
    """The game's search, recording the views it is asked to grade from."""

    def __init__(self, search: Any) -> None:
        self.search = search
        self.views: list[Any] = []

    def candidates(self, view: Any) -> Any:
        self.views.append(view)
        return self.search.candidates(view)

    def sample(self, view: Any, rng: random.Random) -> Any:
        return self.search.sample(view, rng)

    def playout(self, state: Any, seat: int, rng: random.Random) -> float:
        return float(self.search.playout(state, seat, rng))

    def budget(self, view: Any, playouts: int) -> int:
        return int(self.search.budget(view, playouts))


@pytest.mark.parametrize("slug", ["hearts", "one-hundred-and-four"])
def test_a_simultaneous_phase_is_graded_from_before_anybody_chose(slug):
    rules = registry.kind(slug).rules
    grading = grading_of(slug, 3)
    initial, log = medium_game(slug, "together")
    state = initial
    # The log up to the first phase in which all four chose at once, and that phase.
    while len(rules.to_act(state)) < 4:
        state = rules.apply(state, *log[0])
        log = log[1:]
    phase = list(log[:4])
    assert sorted(seat for seat, _ in phase) == [0, 1, 2, 3]
    spy = Spy(grading.search)
    spied = dataclasses.replace(grading, search=spy)
    forward = analyse_game(rules, spied, state, phase, seed="p")
    # Each view graded is the one from before the phase: nobody shown as having chosen.
    before = {seat: rules.view(state, seat) for seat in range(4)}
    graded = {d.seat for d in forward.decisions}
    assert graded == {0, 1, 2, 3}
    assert spy.views == [before[d.seat] for d in forward.decisions]
    late = rules.view(rules.apply(state, *phase[0]), phase[1][0])
    assert late != before[phase[1][0]]  # the view would have shown the first choice made
    # The seats chose in the other order: the same grades, seat by seat.
    backward = analyse_game(rules, grading, state, phase[::-1], seed="p")

    def by_seat(analysis: Any) -> dict[int, Any]:
        return {d.seat: dataclasses.replace(d, step=0) for d in analysis.decisions}

    assert by_seat(backward) == by_seat(analyse_game(rules, grading, state, phase, seed="p"))


LINE = re.compile(
    r"^seat (\d) (\w+): accuracy (\d+\.\d)% ± (\d+\.\d)%, mistakes (\d+\.\d) per hand$"
)


def test_the_command_plays_and_grades_games_and_prints_a_line_per_seat():
    out = io.StringIO()
    call_command(
        "analyse",
        "--game", "one-hundred-and-four",
        "--games", "2",
        "--seed", "cmd",
        "--bots", "hard,medium,easy",
        "--budget", "2",
        stdout=out,
    )  # fmt: skip
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("one-hundred-and-four: 2 games, 4 seats (hard,medium,easy,hard)")
    seats = [LINE.match(line) for line in lines[1:5]]
    assert all(seats), lines
    assert [(m.group(1), m.group(2)) for m in seats if m] == [
        ("0", "hard"), ("1", "medium"), ("2", "easy"), ("3", "hard")
    ]  # fmt: skip
    assert re.match(r"^analysis: p50 \d+ ms, p95 \d+ ms per decision$", lines[5])


def _decision(seat: int, value_best: float, loss: float) -> Decision[str]:
    return Decision(0, seat, 0, "played", "best", value_best - loss, value_best, loss, None)


def test_decisions_of_a_lost_cause_are_left_out_of_the_accuracy():
    """Hundred and Ten's chance to win cannot fall below 0: a decision whose best action is
    worth less than a mistake above it cost nothing whatever was played, and would make a seat
    out of the running look accurate. It stays graded (and counted as graded)."""
    grading = registry.kind("hundred-and-ten").grading
    assert grading is not None and grading.floor == 0.0
    mistake = grading.thresholds.mistake
    open_game = _decision(0, 40.0, mistake)  # half marks: a mistake's loss
    lost_cause = _decision(0, mistake / 2, 0.0)  # perfect, but it could cost nothing
    summary = summarise(0, [open_game, lost_cause, lost_cause], 1, grading)
    assert summary.decisions == 3
    assert summary.accuracy == pytest.approx(50.0)
    # A seat whose every decision was a lost cause: the mean of them all.
    assert summarise(0, [lost_cause], 1, grading).accuracy == pytest.approx(100.0)
    # Without a floor (points: Hearts) every graded decision counts.
    hearts = registry.kind("hearts").grading
    assert hearts is not None and hearts.floor is None
    low = _decision(0, hearts.thresholds.mistake / 2, 0.0)
    both = summarise(0, [_decision(0, 40.0, hearts.thresholds.mistake), low], 1, hearts)
    assert both.accuracy == pytest.approx(75.0)
