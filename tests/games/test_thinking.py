"""Where the server's bots think (games/bots/thinking.py): a hard bot's search runs in a worker
process and gives the same move as in the caller's thread; a search that overruns its time,
or a worker that dies, leaves the move to the medium bot, and the next search gets a new
worker. The fixed-rule bots never leave the caller's thread."""

from __future__ import annotations

import os
import random
import signal

import pytest

from games import registry
from games.bots import thinking
from games.kinds.search import SearchBot


@pytest.fixture
def pool(settings):
    settings.BOT_SEARCH_PROCESSES = 1
    settings.BOT_SEARCH_SECONDS = 60
    yield
    thinking.shutdown()


def a_decision(slug: str = "hearts"):
    """A game kind, and a state whose seat to act has a real choice."""
    kind = registry.kind(slug)
    rules = kind.rules
    state = rules.initial_state("thinking", kind.table_size, kind.resolve_options({}))
    rng = random.Random(3)
    for _ in range(8):  # past the opening moves
        seat = min(rules.to_act(state))
        state = rules.apply(state, seat, rng.choice(list(rules.legal_actions(state, seat))))
    return kind, state, min(rules.to_act(state))


def test_without_workers_every_bot_decides_in_the_callers_thread(settings):
    settings.BOT_SEARCH_PROCESSES = 0
    kind, state, seat = a_decision()
    for level in ("easy", "medium", "hard"):
        expected = kind.bots[level].choose(state, seat, random.Random("seed"))
        assert thinking.decide(kind, level, state, seat, "seed") == expected
    assert thinking._pool is None


@pytest.mark.parametrize("slug", sorted(registry.REGISTRY))
def test_a_search_in_a_worker_makes_the_move_it_makes_here(pool, slug):
    kind, state, seat = a_decision(slug)
    assert isinstance(kind.bots["hard"], SearchBot)
    here = kind.bots["hard"].choose(state, seat, random.Random("same"))
    assert thinking.decide(kind, "hard", state, seat, "same") == here
    assert thinking._pool is not None  # it went to the worker


def test_the_medium_bot_never_goes_to_a_worker(pool):
    kind, state, seat = a_decision()
    thinking.decide(kind, "medium", state, seat, "s")
    assert thinking._pool is None


def test_a_search_over_its_time_leaves_the_move_to_the_medium_bot(pool, settings, caplog):
    settings.BOT_SEARCH_SECONDS = 0.000_001
    kind, state, seat = a_decision()
    medium = kind.bots["medium"].choose(state, seat, random.Random("late"))
    assert thinking.decide(kind, "hard", state, seat, "late") == medium
    assert "the medium bot moved" in caplog.text


def test_a_dead_worker_leaves_the_move_to_the_medium_bot_and_a_new_one_starts(pool, caplog):
    kind, state, seat = a_decision()
    thinking.decide(kind, "hard", state, seat, "first")  # the worker is up
    broken = thinking._pool
    assert broken is not None
    worker = broken.submit(os.getpid).result()
    os.kill(worker, signal.SIGKILL)  # the worker dies (killed, out of memory, ...)
    medium = kind.bots["medium"].choose(state, seat, random.Random("after"))
    assert thinking.decide(kind, "hard", state, seat, "after") == medium
    assert "search pool broke" in caplog.text
    here = kind.bots["hard"].choose(state, seat, random.Random("again"))
    assert thinking.decide(kind, "hard", state, seat, "again") == here
    assert thinking._pool is not None and thinking._pool is not broken


def test_an_analysis_runs_in_its_own_niced_worker_and_grades_as_here(pool):
    """A finished game's analysis (games/services/analysis.py) goes to a pool of its own, one
    worker less favoured than the bots' (they come first), with the grades it gives here."""
    from games.kinds.analysis import analyse_game

    kind = registry.kind("hearts")
    rules = kind.rules
    initial = rules.initial_state("thinking", kind.table_size, kind.resolve_options({}))
    state, log, rng = initial, [], random.Random(5)
    for _ in range(6):
        seat = min(rules.to_act(state))
        action = rng.choice(list(rules.legal_actions(state, seat)))
        log.append((seat, action))
        state = rules.apply(state, seat, action)
    assert kind.grading is not None
    args = (rules, kind.grading, initial, log)
    here = analyse_game(*args, seed="s", budget=1)
    there = thinking.run_analysis(analyse_game, *args, seed="s", budget=1)
    assert there == here and there.decisions
    assert thinking._analysis_pool is not None and thinking._pool is None
    assert thinking.ANALYSIS_NICENESS > thinking.WORKER_NICENESS
