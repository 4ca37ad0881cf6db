"""The engine replays the shared Hearts conformance traces exactly, and the replayer notices
damage (a changed legal list, to_act, total, probe reason, trick winner, exchange, outcome)."""

from __future__ import annotations

import pytest

from games.kinds.conformance import Mismatch, check_document, collect
from games.kinds.hearts.conformance import CHECKER, is_trace
from tests.kinds.conformance import (
    SHARED,
    assert_every_trace_passes,
    damaged,
    load,
    report_of_one_bad,
    traces,
)

CHECKERS = {"hearts": CHECKER}

TRACES = SHARED / "hearts"


def test_all_shared_traces_pass():
    assert_every_trace_passes(TRACES, CHECKERS, at_least=150)


def test_the_index_is_not_a_trace():
    assert not is_trace(load(TRACES / "index.json"))
    assert len(collect([TRACES], CHECKERS)) == len(traces(TRACES))


@pytest.fixture(scope="module")
def first():
    return load(traces(TRACES)[0])


def steps_of(trace):
    for hand in trace["hands"]:
        yield from hand["steps"]


def change_a_legal_list(trace):
    step = next(s for s in steps_of(trace) if len(s.get("legal", ())) > 1)
    step["legal"] = step["legal"][1:]


def change_a_to_act(trace):
    step = [s for s in steps_of(trace) if "play" in s["action"]][7]
    step["to_act"] = [(step["to_act"][0] + 1) % 4]


def change_a_pass_to_act(trace):
    trace["hands"][0]["steps"][1]["to_act"] = [0, 1, 2, 3]


def change_a_total(trace):
    trace["hands"][1]["totals"][2] += 1


def change_the_final_winners(trace):
    trace["outcome"]["winners"] = [0, 1, 2, 3]


def change_a_trick_winner(trace):
    step = next(s for s in steps_of(trace) if "trick_winner" in s)
    step["trick_winner"] = (step["trick_winner"] + 1) % 4


def change_the_exchange(trace):
    hands = trace["hands"][0]["hands_after_pass"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def change_a_moon(trace):
    trace["hands"][0]["moon_shooter"] = 0


def change_the_pass_direction(trace):
    trace["hands"][1]["pass_direction"] = "left"


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (change_a_legal_list, "legal"),
        (change_a_to_act, "to_act"),
        (change_a_pass_to_act, "to_act"),
        (change_a_total, "totals"),
        (change_the_final_winners, "outcome.winners"),
        (change_a_trick_winner, "trick_winner"),
        (change_the_exchange, "hands_after_pass"),
        (change_a_moon, "moon_shooter"),
        (change_the_pass_direction, "pass_direction"),
    ],
)
def test_a_damaged_trace_is_a_mismatch(first, change, key):
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
        step["reason"] = "pass_wrong_count" if step["reason"] != "pass_wrong_count" else "x"

    with pytest.raises(Mismatch) as caught:
        check_document(damaged(with_probe, change), CHECKERS)
    assert caught.value.key == "reason"
    assert str(caught.value.step).startswith("hand ")


def test_a_legal_action_given_as_a_probe_is_a_mismatch(first):
    def change(trace):
        step = [s for s in steps_of(trace) if "play" in s["action"]][3]
        step["illegal"] = True
        step["reason"] = "play_must_follow_suit"

    with pytest.raises(Mismatch) as caught:
        check_document(damaged(first, change), CHECKERS)
    assert (caught.value.key, caught.value.got) == ("reason", "accepted")


def test_a_missing_last_hand_is_a_mismatch(first):
    def change(trace):
        trace["hands"].pop()

    with pytest.raises(Mismatch) as caught:
        check_document(damaged(first, change), CHECKERS)
    # The game goes on after the (now) last hand: the engine asks for a deal it was not given.
    assert caught.value.key == "action"
    assert "No deal" in str(caught.value.got)


def test_a_failure_is_reported_with_a_non_zero_status(tmp_path, first):
    line = report_of_one_bad(tmp_path, damaged(first, change_a_total), first, CHECKERS)
    assert "hand 1 end" in line and "totals" in line
