"""The engine replays the shared conformance traces exactly, and the replayer notices damage."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.kinds.conformance import check_file, run
from games.kinds.hundred_and_ten.conformance import CHECKER
from tests.kinds.conformance import SHARED, traces

CHECKERS = {"hundred-and-ten": CHECKER}

TRACES = SHARED / "hundred-and-ten"


def test_all_shared_traces_pass_through_the_management_command():
    out = io.StringIO()
    call_command("conformance", str(TRACES), stdout=out)
    count = len(traces(TRACES))
    assert count >= 150
    assert out.getvalue().splitlines() == [f"{count} passed, 0 failed"]


def first_trace():
    return traces(TRACES)[0]


def damaged_copy(tmp_path, change):
    """A copy of the first trace that `change` can damage (it raises StopIteration if not)."""
    for path in traces(TRACES):
        trace = json.loads(path.read_text())
        try:
            change(trace)
        except StopIteration:
            continue
        damaged = tmp_path / "damaged.json"
        damaged.write_text(json.dumps(trace))
        return damaged
    raise AssertionError("no trace has what this damage needs")


def change_a_score(trace):
    step = next(s for s in trace["steps"][50:] if "state" in s)
    step["state"]["scores"]["p1"] += 5


def test_a_modified_expected_score_fails_with_a_non_zero_exit(tmp_path):
    path = damaged_copy(tmp_path, change_a_score)
    shutil.copy(first_trace(), tmp_path / "intact.json")
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("conformance", str(tmp_path), stdout=out)
    assert caught.value.returncode == 1
    lines = out.getvalue().splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert lines[0].startswith(f"FAIL {path} step ")
    assert "key scores.p1" in lines[0]


def drop_an_auto_flag(trace):
    step = next(s for s in trace["steps"] if s.get("auto"))
    del step["auto"]


def accept_a_probe(trace):
    step = next(s for s in trace["steps"] if s.get("expect") == "rejected")
    step.pop("expect")
    step["state"] = {}


def break_a_round_end(trace):
    step = next(s for s in trace["steps"] if s.get("round_end", {}).get("outcome") == "made")
    step["round_end"]["bonus_trick"] = 9


def claim_a_probe_is_rejected(trace):
    step = next(s for s in trace["steps"] if "state" in s and not s.get("auto"))
    step["expect"] = "rejected"


def change_a_dealer(trace):
    entry = trace["rounds"][1]
    entry["dealer"] = "p2" if entry["dealer"] != "p2" else "p3"


def change_the_final_winner(trace):
    trace["final"]["winner"] = "p2" if trace["final"]["winner"] != "p2" else "p1"


def change_a_suggestion(trace):
    step = next(s for s in trace["steps"] if s.get("state", {}).get("status") == "TRICKS")
    step["state"]["suggestion"] = {"type": "play", "card": "JK"}


def drop_a_prepass_note(trace):
    step = next(s for s in trace["steps"] if s.get("note") == "prepass")
    del step["note"]


def swap_hand_order(trace):
    step = next(s for s in trace["steps"] if "state" in s)
    hand = step["state"]["hands"]["p1"]
    hand[0], hand[1] = hand[1], hand[0]


@pytest.mark.parametrize(
    "change",
    [
        drop_an_auto_flag,
        accept_a_probe,
        break_a_round_end,
        claim_a_probe_is_rejected,
        change_a_dealer,
        change_the_final_winner,
        change_a_suggestion,
        swap_hand_order,
        drop_a_prepass_note,
    ],
)
def test_each_kind_of_damage_is_reported(tmp_path, change):
    result = check_file(damaged_copy(tmp_path, change), CHECKERS)
    assert not result.passed
    assert result.describe().startswith("FAIL ")


def test_an_empty_folder_is_not_a_success(tmp_path):
    out = io.StringIO()
    assert run([tmp_path], out, CHECKERS) == 1
    assert out.getvalue() == "0 passed, 0 failed\n"
