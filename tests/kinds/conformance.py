"""What every game's conformance tests share: the folder of a game's shared traces, the
traces in it, a damaged copy of one, the replay of them all and the replayer's report of a
folder with one bad trace. Each game's test_conformance.py brings its own damages."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.kinds.conformance import run

# ../shared/conformance/ beside the repository.
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"

Trace = dict[str, Any]


def traces(folder: Path) -> list[Path]:
    """The folder's recorded games, in order (its FORMAT.md and index.json are not)."""
    return sorted(folder.glob("game-*.json"))


def load(path: Path) -> Trace:
    loaded: Trace = json.loads(path.read_text())
    return loaded


def damaged(trace: Trace, change: Callable[[Trace], Any]) -> Trace:
    """A deep copy of `trace` that `change` has altered."""
    trace = copy.deepcopy(trace)
    change(trace)
    return trace


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
