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
from typing import Any, Generic, Protocol, TypeVar

from games.kinds.protocol import IllegalAction, Outcome, Rules

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


S = TypeVar("S")
A = TypeVar("A")


def compare(step: int | str, key: str, expected: Any, got: Any) -> None:
    """Mismatch unless `got` is `expected`, equal and of the same type."""
    if expected != got or type(expected) is not type(got):
        raise Mismatch(step, key, expected, got)


def check_refused(
    rules: Rules[S, A, Any], label: str, state: S, seat: int, action: A, reason: Any
) -> None:
    """A trace's refused step: `seat`'s `action` is refused for `reason` (an IllegalAction's
    code) and leaves `state` as it was."""
    snapshot = rules.state_to_json(state)
    try:
        rules.apply(state, seat, action)
    except IllegalAction as error:
        compare(label, "reason", reason, error.code)
    else:
        raise Mismatch(label, "reason", reason, "accepted")
    compare(label, "state after a refused action", snapshot, rules.state_to_json(state))


class HandReplay:
    """The frame of a replay of `trace["hands"]` hand by hand, for the games whose engine deals
    the next hand as the last one ends (Fifty-Six, Hearts). A game's replay gives `start`
    (the state from the trace's deals), `hand` (one hand's steps; the state after them) and
    `check_outcome`; this runs them and checks what every such trace ends with."""

    def __init__(self, trace: Mapping[str, Any], rules: Rules[Any, Any, Any]) -> None:
        self.trace = trace
        self.rules = rules
        self.steps = 0

    def start(self) -> Any:
        raise NotImplementedError

    def hand(self, index: int, entry: Mapping[str, Any], state: Any) -> Any:
        raise NotImplementedError

    def check_outcome(self, expected: Mapping[str, Any], outcome: Outcome, state: Any) -> None:
        raise NotImplementedError

    def run(self) -> int:
        """The number of steps checked; Mismatch at the first difference."""
        state = self.start()
        for index, entry in enumerate(self.trace["hands"]):
            state = self.hand(index, entry, state)
        expected = self.trace["outcome"]
        outcome = self.rules.outcome(state)
        if outcome is None:
            raise Mismatch("end", "outcome", expected, None)
        self.check_outcome(expected, outcome, state)
        compare("end", "to_act", [], sorted(self.rules.to_act(state)))
        return self.steps

    def open_hand(
        self, index: int, entry: Mapping[str, Any], state: Any, *, over: str, number: str
    ) -> str:
        """The checks as hand `index` starts: its index, the game not `over` ("game over"),
        the engine's hand number (compared as key `number`); the hand's label."""
        label = f"hand {index}"
        compare(label, "index", index, entry["index"])
        if self.rules.outcome(state) is not None:
            raise Mismatch(label, over, False, True)
        compare(label, number, index, self.rules.hand_number(state))
        return label


class _Played(Protocol):
    """A game's state with its finished hands, `history` (it grows as a hand ends)."""

    @property
    def history(self) -> Sequence[Any]: ...


P = TypeVar("P", bound=_Played)


@dataclass(frozen=True)
class ExportByHand(Generic[P, A]):
    """A `TraceExporter` for a trace written hand by hand (Fifty-Six, Hearts): it replays the
    log from the initial state with an entry per hand, `start(state)` for the hand `state` has
    just dealt, `step(entry, before, seat, action, after)` for each action and `end(entry,
    after)` once the history grows (the engine deals the next hand at once); then the whole
    trace is `trace(state, outcome, hands, name)`. ValueError if the log does not end the
    `what` ("game", "match")."""

    rules: Rules[P, A, Any]
    start: Callable[[P], dict[str, Any]]
    step: Callable[[dict[str, Any], P, int, A, P], None]
    end: Callable[[dict[str, Any], P], None]
    trace: Callable[[P, Outcome, list[dict[str, Any]], str], dict[str, Any]]
    what: str = "game"

    def __call__(self, initial: P, log: Sequence[tuple[int, A]], *, name: str) -> dict[str, Any]:
        rules = self.rules
        state = initial
        hands: list[dict[str, Any]] = []
        entry = self.start(state)
        for seat, action in log:
            after = rules.apply(state, seat, action)
            ended = len(after.history) > len(state.history)
            self.step(entry, state, seat, action, after)
            if ended:
                self.end(entry, after)
                hands.append(entry)
                if rules.outcome(after) is None:
                    entry = self.start(after)
            state = after
        outcome = rules.outcome(state)
        if outcome is None:
            what = self.what
            raise ValueError(f"The {what} is not over: only a finished {what} makes a trace.")
        return self.trace(state, outcome, hands, name)
