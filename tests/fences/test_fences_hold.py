"""Fences around what our code takes from the inside of Django, Channels, channels-redis and
asgiref: private or undocumented methods, functions and attributes that one of our files
overrides, replaces, calls or mirrors (the kept request threads, the channel layer, the
origin check), and the Python-level behaviour the garbage collector tuning was measured on.

Each fence records the signature and a digest of the source of one such method as it was
when our file was written, and names that file. An upgrade that removes the method, changes
its signature or changes one character of its code fails here, loudly, with the file of ours
to re-check. The installed versions must also stay in the series each comment names
(WRITTEN_AGAINST), for what digests cannot see.

When a fence fails: read the library's new code, re-check (and adjust) the file of ours that
the failure names, update the version its comment names, then record the new values here.

That each fence can fail, naming the file to re-check: test_fences_can_fail.py. How a fence
is checked: checks.py; `DEBUG=1 .tools/bin/uv run --locked python -m tests.fences.checks`
prints every fence as the installed libraries have it.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import InMemoryChannelLayer

from tests.fences.checks import (
    check_fence,
    check_overrides,
    check_value,
    check_version,
    installed,
    library_overrides,
    qualified,
)
from tests.fences.overrides import NOT_SCANNED, OVERRIDES, SCANNED_MODULES
from tests.fences.records import (
    ALL_FENCES,
    ASGI,
    FENCES,
    PYTHON,
    ROOT,
    VALUES,
    WRITTEN_AGAINST,
    Fence,
    FenceBroken,
    ValueFence,
)

# --- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("fence", FENCES, ids=lambda fence: fence.target)
def test_what_we_override_or_mirror_is_as_written_against(fence: Fence) -> None:
    check_fence(fence)


@pytest.mark.parametrize("fence", VALUES, ids=lambda fence: fence.target)
def test_what_we_read_has_its_recorded_value(fence: ValueFence) -> None:
    check_value(fence)


@pytest.mark.parametrize("distribution", sorted(WRITTEN_AGAINST))
def test_installed_versions_are_those_the_comments_name(distribution: str) -> None:
    check_version(distribution, installed(distribution))


def test_python_is_the_one_the_collector_tuning_was_measured_on() -> None:
    if sys.version_info[:2] != PYTHON:
        raise FenceBroken(
            f"Python {sys.version_info[0]}.{sys.version_info[1]} runs this; {ASGI} tuned the"
            f" garbage collector on {PYTHON[0]}.{PYTHON[1]}. Re-check it (re-measure the"
            f" tuning: bench/realtime.py)."
        )
    # The collector's defaults, which the comment in hundredten/asgi.py explains the tuning by
    # (this process's thresholds are whatever its tests left).
    fresh = subprocess.run(
        [sys.executable, "-c", "import gc; print(*gc.get_threshold())"],
        capture_output=True,
        text=True,
        check=True,
    )
    if fresh.stdout.split() != ["700", "10", "10"]:
        raise FenceBroken(
            f"Python's default collector thresholds are now {fresh.stdout.strip()}, not"
            f" 700 10 10: re-check the garbage collector tuning in {ASGI}."
        )


def instance_attributes_added() -> list[tuple[type, set[str], set[str], set[str]]]:
    """For each class of ours that adds state to a library class: the instance attributes
    ours has and the library's has not, the names it is recorded to add, and every name an
    instance of the library class has (class attributes included)."""
    from games.consumers.live import LiveConsumer
    from hundredten.layers import SweepingInMemoryChannelLayer

    pairs: list[tuple[type, Any, Any, set[str]]] = [
        (
            SweepingInMemoryChannelLayer,
            SweepingInMemoryChannelLayer(),
            InMemoryChannelLayer(),
            {"sweep_interval", "_next_sweep"},
        ),
        (
            LiveConsumer,
            LiveConsumer(),
            AsyncWebsocketConsumer(),
            {"joined", "dirty", "render_task", "last_sent", "last_pong", "closing", "request"}
            | {"session_key", "session_checked", "language"},
        ),
    ]
    found = []
    for cls, ours, theirs, recorded in pairs:
        added = set(vars(ours)) - set(vars(theirs))
        found.append((cls, added, recorded, set(vars(theirs)) | set(dir(type(theirs)))))
    return found


def test_the_names_we_add_are_none_of_the_librarys() -> None:
    """An upgrade that gives the parent an attribute of the name ours uses (`_next_sweep`,
    `closing`...) would have one silently overwrite the other."""
    problems = []
    for cls, added, recorded, theirs in instance_attributes_added():
        name = qualified(cls)
        if added != recorded:
            problems.append(f"{name} adds {sorted(added)}, recorded {sorted(recorded)}")
        own = {attr for attr in vars(cls) if attr not in NOT_SCANNED}
        overriding = {attr.rsplit(".", 1)[1] for attr in OVERRIDES if attr.startswith(name + ".")}
        clashes = sorted((recorded | own) & theirs - overriding)
        if clashes:
            problems.append(f"{name}'s {clashes} are now also the library class's")
    if problems:
        raise FenceBroken(
            "; ".join(problems) + ". Re-check those classes (hundredten/layers.py,"
            " games/consumers/live.py) and the lists in tests/fences/."
        )


def test_every_override_of_a_library_attribute_is_fenced() -> None:
    check_overrides(library_overrides(SCANNED_MODULES), OVERRIDES)
    targets = {fence.target for fence in ALL_FENCES}
    tests = {name for name in globals() if name.startswith("test_")}
    for name, fenced_by in OVERRIDES.items():
        assert fenced_by.startswith("documented: ") or fenced_by in targets | tests, (
            f"{name} is fenced by {fenced_by}, which is no fence or test of this module"
        )
    stale = sorted(set(OVERRIDES) - set(library_overrides(SCANNED_MODULES)))
    assert not stale, f"no longer overrides (drop from OVERRIDES): {stale}"


def test_every_file_a_fence_names_is_ours() -> None:
    named = {path for fence in ALL_FENCES for path in fence.ours.split(", ")}
    assert named, "no fences"
    unversioned = sorted({fence.distribution for fence in ALL_FENCES} - set(WRITTEN_AGAINST))
    assert not unversioned, f"add the version written against to WRITTEN_AGAINST: {unversioned}"
    missing = sorted(path for path in named | {ASGI} if not (ROOT / path).is_file())
    assert not missing, f"fences name files that do not exist: {missing}"
    for path in sorted(named | {ASGI}):
        text = (ROOT / path).read_text()
        assert "tests/fences/" in text, (
            f"{path} relies on a library's internals but its comment does not say so"
        )
