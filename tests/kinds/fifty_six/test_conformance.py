"""The engine replays the shared Fifty-Six conformance traces exactly, and the replayer
notices damage (a legal list, a state key after a step, a probe's reason, a hand's result,
the outcome, a missing hand)."""

from __future__ import annotations

import pytest

from games.kinds.conformance import Mismatch, check_document, collect
from games.kinds.fifty_six.conformance import CHECKER, is_trace
from tests.kinds.conformance import (
    SHARED,
    assert_every_trace_passes,
    damaged,
    load,
    report_of_one_bad,
    traces,
)

CHECKERS = {"fifty-six": CHECKER}

TRACES = SHARED / "fifty-six"


def test_all_shared_traces_pass():
    assert_every_trace_passes(TRACES, CHECKERS, at_least=120)


def test_the_index_is_not_a_trace():
    assert not is_trace(load(TRACES / "index.json"))
    assert len(collect([TRACES], CHECKERS)) == len(traces(TRACES))


@pytest.fixture(scope="module")
def first():
    return load(traces(TRACES)[0])


def steps_of(trace):
    for hand in trace["hands"]:
        yield from hand["steps"]


def accepted(trace):
    return [s for s in steps_of(trace) if not s.get("illegal")]


def change_a_legal_list(trace):
    step = next(s for s in accepted(trace) if len(s["legal"]) > 1)
    step["legal"] = step["legal"][1:]


def change_a_to_act(trace):
    step = accepted(trace)[9]
    step["after"]["to_act"] = (step["after"]["to_act"] + 1) % trace["seats"]


def change_points(trace):
    step = next(s for s in accepted(trace) if s["after"]["points"] != [0, 0])
    step["after"]["points"][0] += 1


def change_a_trick_winner(trace):
    step = next(s for s in accepted(trace) if s["after"]["trick_winners"])
    step["after"]["trick_winners"][0] = (step["after"]["trick_winners"][0] + 1) % 4


def change_the_revealed_trump(trace):
    step = next(s for s in accepted(trace) if s["after"]["trump"])
    step["after"]["trump"] = "JC0" if step["after"]["trump"] != "JC0" else "JD0"


def change_a_result(trace):
    trace["hands"][0]["result"]["game_points"] += 1


def change_the_winner(trace):
    trace["outcome"]["winner"] = 1 - trace["outcome"]["winner"]


def change_the_dealer(trace):
    trace["hands"][1]["dealer"] += 1


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (change_a_legal_list, "legal"),
        (change_a_to_act, "after.to_act"),
        (change_points, "after.points"),
        (change_a_trick_winner, "after.trick_winners"),
        (change_the_revealed_trump, "after.trump"),
        (change_a_result, "result.game_points"),
        (change_the_winner, "outcome.winner"),
        (change_the_dealer, "dealer"),
    ],
)
def test_a_tampered_trace_is_a_mismatch(first, change, key):
    with pytest.raises(Mismatch) as caught:
        check_document(damaged(first, change), CHECKERS)
    assert caught.value.key == key


@pytest.fixture(scope="module")
def with_probe():
    for path in traces(TRACES):
        trace = load(path)
        if any(s.get("illegal") for s in steps_of(trace)):
            return trace
    raise AssertionError("no trace has a probe")


def test_a_changed_probe_reason_is_a_mismatch(with_probe):
    def change(trace):
        step = next(s for s in steps_of(trace) if s.get("illegal"))
        step["reason"] = "play_revoke" if step["reason"] != "play_revoke" else "x"

    with pytest.raises(Mismatch) as caught:
        check_document(damaged(with_probe, change), CHECKERS)
    assert caught.value.key == "reason"
    assert str(caught.value.step).startswith("hand ")


def test_a_legal_action_given_as_a_probe_is_a_mismatch(first):
    def change(trace):
        step = accepted(trace)[0]
        step["illegal"] = True
        step["reason"] = "opener_must_bid"

    with pytest.raises(Mismatch) as caught:
        check_document(damaged(first, change), CHECKERS)
    assert (caught.value.key, caught.value.got) == ("reason", "accepted")


def test_a_missing_last_hand_is_a_mismatch(first):
    with pytest.raises(Mismatch) as caught:
        check_document(damaged(first, lambda t: t["hands"].pop()), CHECKERS)
    # The match goes on after the (now) last hand: the engine asks for a deal it was not given.
    assert caught.value.key == "action"
    assert "No deal" in str(caught.value.got)


def test_a_failure_is_reported_with_a_non_zero_status(tmp_path, first):
    line = report_of_one_bad(tmp_path, damaged(first, change_a_result), first, CHECKERS)
    assert "hand 0 end" in line and "game_points" in line
