"""What every game's conformance tests share: the folder of a game's shared traces, the
traces in it, the first that fits, a damaged copy of one and the mismatch it raises, the
replay of them all and the replayer's report of a folder with one bad trace. The tests every
game has are test_conformance.py's, one case a game; each game's own test_conformance.py
brings its own damages."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games.kinds.conformance import Mismatch, check_document, run

# ../shared/conformance/ beside the repository.
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"

Trace = dict[str, Any]


@dataclass(frozen=True)
class HandsDamages:
    """What the shared tests of a game of hands (Fifty-Six, Hearts) need of the game
    (tests/kinds/test_conformance.py; each game's damages.py gives its own)."""

    damages: list[tuple[Callable[[Trace], Any], str]]  # a change, and the key it must raise
    reason: str  # a refusal reason: a probe's is changed to it (or away from it)
    legal_step: Callable[[Trace], dict[str, Any]]  # a legal step, to be given as a probe
    legal_step_reason: str  # the reason it is given as refused for
    reported: tuple[Callable[[Trace], Any], tuple[str, ...]]  # a change, and its report's words


def traces(folder: Path) -> list[Path]:
    """The folder's recorded games, in order (its FORMAT.md and index.json are not)."""
    return sorted(folder.glob("game-*.json"))


def load(path: Path) -> Trace:
    loaded: Trace = json.loads(path.read_text())
    return loaded


def find(folder: Path, predicate: Callable[[Trace], bool]) -> Trace:
    """The first trace of `folder` that `predicate` holds for."""
    for path in traces(folder):
        trace = load(path)
        if predicate(trace):
            return trace
    raise AssertionError("no trace fits")


def hand_steps(trace: Trace) -> Iterator[dict[str, Any]]:
    """Every step of every hand, in order (a Fifty-Six or Hearts trace)."""
    for hand in trace["hands"]:
        yield from hand["steps"]


def damaged(trace: Trace, change: Callable[[Trace], Any]) -> Trace:
    """A deep copy of `trace` that `change` has altered."""
    trace = copy.deepcopy(trace)
    change(trace)
    return trace


def mismatch_of(trace: Trace, change: Callable[[Trace], Any], checkers: dict[str, Any]) -> Mismatch:
    """The mismatch the replayer finds in a copy of `trace` that `change` has damaged."""
    with pytest.raises(Mismatch) as caught:
        check_document(damaged(trace, change), checkers)
    return caught.value


def assert_every_trace_passes(folder: Path, checkers: dict[str, Any], *, at_least: int) -> None:
    """Every trace of `folder` replays exactly, however many there are (at least `at_least`:
    the set is there)."""
    out = io.StringIO()
    status = run([folder], out, checkers)
    count = len(traces(folder))
    assert count >= at_least
    assert out.getvalue().splitlines() == [f"{count} passed, 0 failed"]
    assert status == 0


def report_of_one_bad(tmp_path: Path, bad: Trace, good: Trace, checkers: dict[str, Any]) -> str:
    """The replayer's line on `bad`, run on a folder of `bad` and `good`, after checking it
    says one passed, one failed, and exits with 1."""
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    (tmp_path / "good.json").write_text(json.dumps(good))
    out = io.StringIO()
    assert run([tmp_path], out, checkers) == 1
    lines = out.getvalue().splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    return lines[0]
