"""What every game's conformance tests check, one case a game: the engine replays all of the
game's shared traces exactly and the folder's index is not taken for a trace; and, in a game of
hands (Fifty-Six, Hearts), the replayer notices each of the game's damages (its damages.py),
a probe's changed reason, a legal step given as a probe and a missing last hand, and reports a
damaged trace with a non-zero status.

One Hundred and Four's own damages (placements, rows, deals of a match) and Hundred and Ten's
traces (another shape, replayed through the management command) are their test_conformance.py's."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from games.kinds.conformance import collect
from games.kinds.fifty_six.conformance import CHECKER as FIFTY_SIX
from games.kinds.hearts.conformance import CHECKER as HEARTS
from games.kinds.one_hundred_and_four.conformance import CHECKER as ONE_HUNDRED_AND_FOUR
from tests.kinds.conformance import (
    SHARED,
    Trace,
    assert_every_trace_passes,
    damaged,
    find,
    hand_steps,
    load,
    mismatch_of,
    report_of_one_bad,
    traces,
)
from tests.kinds.fifty_six.damages import DAMAGES as FIFTY_SIX_DAMAGES
from tests.kinds.hearts.damages import DAMAGES as HEARTS_DAMAGES

# slug: its checker and how many traces its folder holds at least (the set is there).
GAMES: dict[str, tuple[Any, int]] = {
    "fifty-six": (FIFTY_SIX, 120),
    "hearts": (HEARTS, 150),
    "one-hundred-and-four": (ONE_HUNDRED_AND_FOUR, 150),
}
HANDS = {"fifty-six": FIFTY_SIX_DAMAGES, "hearts": HEARTS_DAMAGES}


def checkers(slug: str) -> dict[str, Any]:
    return {slug: GAMES[slug][0]}


@cache
def first(slug: str) -> Trace:
    """The first trace of the game's folder (not to be changed: damage a copy)."""
    return load(traces(SHARED / slug)[0])


@pytest.mark.parametrize("slug", GAMES)
def test_all_shared_traces_pass(slug):
    assert_every_trace_passes(SHARED / slug, checkers(slug), at_least=GAMES[slug][1])


@pytest.mark.parametrize("slug", GAMES)
def test_the_index_is_not_a_trace(slug):
    folder = SHARED / slug
    assert not GAMES[slug][0].is_trace(load(folder / "index.json"))
    assert len(collect([folder], checkers(slug))) == len(traces(folder))


@pytest.mark.parametrize(
    ("slug", "change", "key"),
    [
        pytest.param(slug, change, key, id=f"{slug}-{change.__name__}")
        for slug, game in HANDS.items()
        for change, key in game.damages
    ],
)
def test_a_damaged_trace_is_a_mismatch(slug, change, key):
    assert mismatch_of(first(slug), change, checkers(slug)).key == key


@pytest.mark.parametrize("slug", HANDS)
def test_a_changed_probe_reason_is_a_mismatch(slug):
    reason = HANDS[slug].reason

    def change(trace):
        step = next(s for s in hand_steps(trace) if s.get("illegal"))
        step["reason"] = reason if step["reason"] != reason else "x"

    with_probe = find(SHARED / slug, lambda t: any(s.get("illegal") for s in hand_steps(t)))
    caught = mismatch_of(with_probe, change, checkers(slug))
    assert caught.key == "reason"
    assert str(caught.step).startswith("hand ")


@pytest.mark.parametrize("slug", HANDS)
def test_a_legal_action_given_as_a_probe_is_a_mismatch(slug):
    def change(trace):
        step = HANDS[slug].legal_step(trace)
        step["illegal"] = True
        step["reason"] = HANDS[slug].legal_step_reason

    caught = mismatch_of(first(slug), change, checkers(slug))
    assert (caught.key, caught.got) == ("reason", "accepted")


@pytest.mark.parametrize("slug", HANDS)
def test_a_missing_last_hand_is_a_mismatch(slug):
    caught = mismatch_of(first(slug), lambda t: t["hands"].pop(), checkers(slug))
    # The game goes on after the (now) last hand: the engine asks for a deal it was not given.
    assert caught.key == "action"
    assert "No deal" in str(caught.got)


@pytest.mark.parametrize("slug", HANDS)
def test_a_failure_is_reported_with_a_non_zero_status(tmp_path, slug):
    change, words = HANDS[slug].reported
    bad = damaged(first(slug), change)
    line = report_of_one_bad(tmp_path, bad, first(slug), checkers(slug))
    assert all(word in line for word in words)
