"""The engine replays the shared One Hundred and Four conformance traces exactly, counting
every step, and the replayer notices damage (a placement, a took list, rows, penalties, the
pause, the policy row, a refusal reason, a match total, the outcome). That every trace
passes and the index is not one: tests/kinds/test_conformance.py, with the other games."""

from __future__ import annotations

import copy

import pytest

from games.kinds.conformance import check_document
from games.kinds.one_hundred_and_four.conformance import CHECKER, deals_of
from tests.kinds.conformance import (
    SHARED,
    damaged,
    find,
    load,
    mismatch_of,
    report_of_one_bad,
    traces,
)

CHECKERS = {"one-hundred-and-four": CHECKER}

TRACES = SHARED / "one-hundred-and-four"


def test_every_step_is_counted():
    trace = load(traces(TRACES)[0])
    steps = sum(len(t["steps"]) for d in deals_of(trace) for t in d["turns"])
    assert check_document(trace, CHECKERS) == steps + len(trace.get("after_end") or ())


def turns_of(trace):
    for entry in deals_of(trace):
        yield from entry["turns"]


def has_probe(trace):
    steps = [s for t in turns_of(trace) for s in t["steps"]]
    return any(s.get("illegal") for s in steps)


@pytest.fixture(scope="module")
def one_deal():
    return find(
        TRACES, lambda t: "deal" in t and any("asked" in x["resolution"][0] for x in turns_of(t))
    )


@pytest.fixture(scope="module")
def match():
    return find(TRACES, lambda t: "deals" in t and len(t["deals"]) > 1)


def low_turn(trace):
    return next(t for t in turns_of(trace) if "asked" in t["resolution"][0])


def take_turn(trace):
    return next(
        t for t in turns_of(trace) if any(p["took"] and "asked" not in p for p in t["resolution"])
    )


def change_a_row(trace):
    turn = next(t for t in turns_of(trace) if len(t["resolution"]) > 1)
    turn["resolution"][1]["row"] = (turn["resolution"][1]["row"] + 1) % 4


def change_a_took(trace):
    placement = next(p for p in take_turn(trace)["resolution"] if p["took"] and "asked" not in p)
    placement["took"] = placement["took"][1:]


def change_rows_after(trace):
    turn = next(iter(turns_of(trace)))
    turn["rows_after"][0], turn["rows_after"][1] = turn["rows_after"][1], turn["rows_after"][0]


def change_penalties_after(trace):
    turn = take_turn(trace)
    turn["penalties_after"][0] += 1


def change_the_asked_seat(trace):
    low = low_turn(trace)["resolution"][0]
    low["asked"] = (low["asked"] + 1) % 2


def change_the_policy_row(trace):
    low = low_turn(trace)["resolution"][0]
    low["policy_row"] = (low["policy_row"] + 1) % 4


def change_the_legal_rows(trace):
    low_turn(trace)["resolution"][0]["legal_rows"] = [0, 1, 2]


def change_the_choices(trace):
    turn = next(iter(turns_of(trace)))
    turn["choices"][0], turn["choices"][1] = turn["choices"][1], turn["choices"][0]


def change_the_winners(trace):
    trace["outcome"]["winners"] = list(range(trace["seats"]))


def change_the_final_penalties(trace):
    trace["outcome"]["penalties"][0] += 1


def change_the_deal(trace):
    deal = deals_of(trace)[0]["deal"]
    deal["hands"][0][0], deal["hands"][1][0] = deal["hands"][1][0], deal["hands"][0][0]


def take_a_too_low_choice_away(trace):
    turn = low_turn(trace)
    turn["steps"] = [s for s in turn["steps"] if s["action"] != "take_row" or s.get("illegal")]


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (change_a_row, "resolution[1]"),
        (change_a_took, None),
        (change_rows_after, "rows_after"),
        (change_penalties_after, "penalties_after"),
        (change_the_asked_seat, "asked"),
        (change_the_policy_row, "policy_row"),
        (change_the_legal_rows, "legal_rows"),
        (change_the_choices, ("choices", "revealed choices")),
        (change_the_winners, "outcome.winners"),
        (change_the_final_penalties, "outcome.penalties"),
        (change_the_deal, "action"),  # a seat chooses a card it was not dealt
        (take_a_too_low_choice_away, "resolution"),
    ],
)
def test_a_tampered_trace_is_a_mismatch(one_deal, change, key):
    caught = mismatch_of(one_deal, change, CHECKERS)
    if key is None:
        assert caught.key.startswith("resolution[")
    elif isinstance(key, tuple):
        assert caught.key in key
    else:
        assert caught.key == key


def test_a_tampered_match_total_is_a_mismatch(match):
    def change(trace):
        trace["deals"][0]["totals_after"][0] += 1

    caught = mismatch_of(match, change, CHECKERS)
    assert (caught.step, caught.key) == ("deal 0 end", "totals_after")


def test_a_missing_last_deal_of_a_match_is_a_mismatch(match):
    def change(trace):
        trace["deals"].pop()

    caught = mismatch_of(match, change, CHECKERS)
    # The match goes on after the (now) last deal: the engine asks for a deal it was not given.
    assert caught.key == "action"
    assert "No deal" in str(caught.got)


def test_an_extra_deal_after_the_match_ended_is_a_mismatch(match):
    def change(trace):
        trace["deals"].append(copy.deepcopy(trace["deals"][-1]))

    caught = mismatch_of(match, change, CHECKERS)
    # After the last turn of the real last deal nobody is to act: the match is over.
    last = len(match["deals"]) - 1
    assert str(caught.step).startswith(f"deal {last} turn 9 ")
    assert (caught.key, caught.got) == ("to_act", [])


def test_a_changed_refusal_reason_is_a_mismatch():
    trace = find(TRACES, has_probe)

    def change(trace):
        step = next(s for t in turns_of(trace) for s in t["steps"] if s.get("illegal"))
        step["reason"] = "card_not_held" if step["reason"] != "card_not_held" else "not_asked"

    caught = mismatch_of(trace, change, CHECKERS)
    assert caught.key == "reason"


def test_a_legal_step_given_as_illegal_is_a_mismatch(one_deal):
    def change(trace):
        step = next(iter(turns_of(trace)))["steps"][0]
        step["illegal"], step["reason"] = True, "card_not_held"

    caught = mismatch_of(one_deal, change, CHECKERS)
    assert (caught.key, caught.got) == ("reason", "accepted")


def test_an_after_end_step_is_refused_as_game_over(one_deal):
    def change(trace):
        trace["after_end"] = [{"seat": 0, "action": "take_row", "row": 0, "illegal": True}]
        trace["after_end"][0]["reason"] = "not_asked"

    caught = mismatch_of(one_deal, change, CHECKERS)
    assert (caught.step, caught.got) == ("after_end step 0", "game_over")


def test_a_failure_is_reported_with_a_non_zero_status(tmp_path, one_deal):
    line = report_of_one_bad(tmp_path, damaged(one_deal, change_rows_after), one_deal, CHECKERS)
    assert "rows_after" in line
