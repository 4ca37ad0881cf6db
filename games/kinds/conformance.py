"""Replaying conformance traces of any game (`manage.py conformance PATH...`): pure Python.

Each game's `conformance.py` provides a `TraceChecker`: which JSON documents are its traces,
and a replay that returns the number of steps checked or raises `Mismatch` at the first
difference. This module finds the files, picks the checker by the trace's `"game"` field
(a trace without one is Hundred and Ten's, the first format), and reports. Each game's
`export.py` goes the other way (`TraceExporter`): a finished game of ours as a trace.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

DEFAULT_GAME = "hundred-and-ten"


class Writer(Protocol):
    """Anything with `write(text)`: a text file, sys.stdout, a Django command's stdout."""

    def write(self, text: str, /) -> object: ...


class Mismatch(Exception):
    """The first difference between a trace and the engine."""

    def __init__(self, step: int | str, key: str, expected: object, got: object) -> None:
        super().__init__(f"step {step}: {key}: expected {expected!r}, got {got!r}")
        self.step = step
        self.key = key
        self.expected = expected
        self.got = got


@dataclass(frozen=True)
class TraceChecker:
    """One game's trace replayer: `is_trace(document)` tells its traces from other JSON
    files in a folder (an `index.json`), `check(document)` replays one trace and returns its
    step count, or raises Mismatch."""

    is_trace: Callable[[Mapping[str, Any]], bool]
    check: Callable[[Mapping[str, Any]], int]


class NotExportable(ValueError):
    """A game its trace format cannot express (e.g. an option the format does not know);
    `str(error)` is a sentence for the user."""


class TraceExporter(Protocol):
    """One game's trace writer (`games/kinds/<game>/export.py`): the trace of a finished
    game, in the game's own format, that its `TraceChecker` replays exactly.

    The game is given as its `initial` state (`rules.initial_state` from the stored seed, or
    `rules.initial_state_from_deals`) and its `log` of (seat, action) in the order applied;
    the deals, seat count and options are read from the states. `name` is the trace's id.
    Raises NotExportable for a game the format cannot express, ValueError for a log that
    does not end the game.
    """

    def __call__(
        self, initial: Any, log: Sequence[tuple[int, Any]], *, name: str
    ) -> dict[str, Any]: ...


@dataclass(frozen=True)
class TraceResult:
    path: str
    mismatch: Mismatch | None
    steps: int

    @property
    def passed(self) -> bool:
        return self.mismatch is None

    def describe(self) -> str:
        if self.mismatch is None:
            return f"{self.path}: passed ({self.steps} steps)"
        m = self.mismatch
        return (
            f"FAIL {self.path} step {m.step} key {m.key}: "
            f"expected {json.dumps(m.expected)}, got {json.dumps(m.got, default=str)}"
        )


def game_of(document: Mapping[str, Any]) -> str:
    """The game a trace belongs to: its `"game"` field, Hundred and Ten when it has none."""
    game = document.get("game", DEFAULT_GAME)
    return game if isinstance(game, str) else repr(game)


def check_document(document: Any, checkers: Mapping[str, TraceChecker]) -> int:
    """Replay one parsed trace with its game's checker (Mismatch for an unknown game)."""
    if not isinstance(document, Mapping):
        raise Mismatch("header", "trace", "a JSON object", type(document).__name__)
    game = game_of(document)
    checker = checkers.get(game)
    if checker is None:
        raise Mismatch("header", "game", sorted(checkers), game)
    return checker.check(document)


def check_file(path: Path, checkers: Mapping[str, TraceChecker]) -> TraceResult:
    """Replay the trace in `path`; any crash of an engine counts as a failure too."""
    try:
        steps = check_document(json.loads(path.read_text(encoding="utf-8")), checkers)
    except Mismatch as mismatch:
        return TraceResult(str(path), mismatch, 0)
    except Exception as error:  # a crash is a difference too: report it, keep going
        return TraceResult(str(path), Mismatch("?", "error", "no error", repr(error)), 0)
    return TraceResult(str(path), None, steps)


def is_trace(path: Path, checkers: Mapping[str, TraceChecker]) -> bool:
    """Whether a JSON file found in a folder is a trace of a known game."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(data, Mapping):
        return False
    checker = checkers.get(game_of(data))
    return checker is not None and checker.is_trace(data)


def collect(paths: Iterable[str | Path], checkers: Mapping[str, TraceChecker]) -> list[Path]:
    """Trace files named directly, plus the traces in named folders (sorted)."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(p for p in sorted(path.glob("*.json")) if is_trace(p, checkers))
        else:
            files.append(path)
    return files


def run(paths: Iterable[str | Path], out: Writer, checkers: Mapping[str, TraceChecker]) -> int:
    """Check every trace; print one line per failure and `N passed, M failed`.

    Returns the process exit status: 0 when all passed, 1 otherwise (also when none found).
    """
    passed = failed = 0
    for path in collect(paths, checkers):
        result = check_file(path, checkers)
        if result.passed:
            passed += 1
        else:
            failed += 1
            out.write(result.describe() + "\n")
    out.write(f"{passed} passed, {failed} failed\n")
    return 0 if failed == 0 and passed > 0 else 1
