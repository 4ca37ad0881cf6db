"""Fences around what our code takes from the inside of Django, Channels, channels-redis and
asgiref: private or undocumented methods, functions and attributes that one of our files
overrides, replaces, calls or mirrors (the kept request threads, the SQLite writer lock, the
channel layer, the consumers' dispatch, the origin check), and the
Python-level behaviour the render pool and the garbage collector tuning were measured on.

Each fence records the signature and a digest of the source of one such method as it was
when our file was written, and names that file. An upgrade that removes the method, changes
its signature or changes one character of its code fails here, loudly, with the file of ours
to re-check. The installed versions must also stay in the series each comment names
(WRITTEN_AGAINST), for what digests cannot see.

When a fence fails: read the library's new code, re-check (and adjust) the file of ours that
the failure names, update the version its comment names, then record the new values here.
`DEBUG=1 .tools/bin/uv run --locked python -m tests.fences.test_private_overrides` prints
every fence as the installed libraries have it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import inspect
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from importlib.metadata import version as installed_version
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.utils.functional import cached_property as django_cached_property
from packaging.version import Version

from tests.fences.records import (
    ALL_FENCES,
    ASGI,
    FENCES,
    HANDLERS,
    LIBRARY_PACKAGES,
    NOT_SCANNED,
    OVERRIDES,
    POOL,
    PYTHON,
    ROOT,
    SCANNED_MODULES,
    SQLITE,
    VALUES,
    WRITTEN_AGAINST,
    Fence,
    FenceBroken,
    ValueFence,
)

# --- the fences ---------------------------------------------------------------------------


def resolve(target: str) -> Any:
    """The object `target` ("module:Name.attr") names, as attribute lookup finds it."""
    module_name, _, path = target.partition(":")
    found: Any = importlib.import_module(module_name)
    for name in path.split("."):
        found = getattr(found, name)
    return found


def code_of(found: Any) -> Any:
    """The function behind a property or cached property (what its source is)."""
    if isinstance(found, property):
        return found.fget
    if isinstance(found, (functools.cached_property, django_cached_property)):
        return found.func
    return found


def plain_signature(function: Callable[..., Any]) -> str:
    """The call's shape: names, kinds and defaults (annotations are in the digest)."""
    signature = inspect.signature(function)
    empty = inspect.Parameter.empty
    parameters = [p.replace(annotation=empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=parameters, return_annotation=empty))


def source_digest(function: Callable[..., Any]) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


def re_check(ours: str, distribution: str) -> str:
    written = WRITTEN_AGAINST[distribution][0]
    return (
        f" Re-check {ours} (written against {distribution} {written}) with the new code, then"
        " update the version its comment names and record the new value in"
        " tests/fences/."
    )


def installed(distribution: str) -> str:
    return installed_version(distribution)


def look_up(target: str, ours: str, distribution: str) -> Any:
    try:
        return resolve(target)
    except (ImportError, AttributeError) as exc:
        raise FenceBroken(
            f"{target} is gone in {distribution} {installed(distribution)} ({exc})."
            + re_check(ours, distribution)
        ) from exc


def check_fence(fence: Fence) -> None:
    """Raise FenceBroken, naming our file, unless `fence.target` is as recorded."""
    where = f"{fence.target} in {fence.distribution} {installed(fence.distribution)}"
    function = code_of(look_up(fence.target, fence.ours, fence.distribution))
    try:
        signature, digest = plain_signature(function), source_digest(function)
    except (OSError, TypeError, ValueError) as exc:  # not Python code any more, or no source
        raise FenceBroken(
            f"{where} cannot be read as Python source ({exc!r})."
            + re_check(fence.ours, fence.distribution)
        ) from exc
    if signature != fence.signature:
        raise FenceBroken(
            f"{where} now takes {signature}, recorded {fence.signature}."
            + re_check(fence.ours, fence.distribution)
        )
    if digest != fence.digest:
        raise FenceBroken(
            f"{where} changed: its source's digest is {digest}, recorded {fence.digest}."
            + re_check(fence.ours, fence.distribution)
        )


def check_value(fence: ValueFence) -> None:
    value = look_up(fence.target, fence.ours, fence.distribution)
    if value != fence.expected:
        raise FenceBroken(
            f"{fence.target} in {fence.distribution} {installed(fence.distribution)} is"
            f" {value!r}, recorded {fence.expected!r}." + re_check(fence.ours, fence.distribution)
        )


def relying_on(distribution: str) -> list[str]:
    """Our files that rely on `distribution`'s internals."""
    files = {
        path
        for fence in ALL_FENCES
        if fence.distribution == distribution
        for path in fence.ours.split(", ")
    }
    return sorted(files)


def check_version(distribution: str, version: str) -> None:
    written, below = WRITTEN_AGAINST[distribution]
    # By release numbers: a pre-release of the next series (5.3.0a1) is outside it too.
    if not (
        Version(written) <= Version(version) and Version(version).release < Version(below).release
    ):
        raise FenceBroken(
            f"{distribution} {version} is installed; our overrides of its internals were written"
            f" against {written} (accepted: >={written},<{below}). Re-check"
            f" {', '.join(relying_on(distribution))} against its code, then update the versions"
            " their comments name and WRITTEN_AGAINST in tests/fences/."
        )


def qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def library_overrides(modules: Iterable[str]) -> dict[str, str]:
    """ "module.Class.attr" -> the library class it overrides, for every attribute a class
    defined in `modules` shares with a library class it inherits from."""
    found: dict[str, str] = {}
    for module_name in modules:
        module = importlib.import_module(module_name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module_name:
                continue
            bases = [
                base
                for base in cls.__mro__[1:]
                if base.__module__.split(".", 1)[0] in LIBRARY_PACKAGES
            ]
            for name in vars(cls):
                owner = next((base for base in bases if name in vars(base)), None)
                if owner is not None and name not in NOT_SCANNED:
                    found[f"{qualified(cls)}.{name}"] = qualified(owner)
    return found


def check_overrides(found: dict[str, str], listed: dict[str, str]) -> None:
    unlisted = sorted(set(found) - set(listed))
    if unlisted:
        raise FenceBroken(
            "These override an attribute of a library class with no fence: "
            + ", ".join(f"{name} (of {found[name]})" for name in unlisted)
            + ". Add a fence for what each relies on (or say why it needs none) to OVERRIDES"
            " in tests/fences/, and a comment naming the library's method"
            " and version where it is overridden."
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


def test_python_is_the_one_the_pool_and_the_collector_tuning_were_measured_on() -> None:
    if sys.version_info[:2] != PYTHON:
        raise FenceBroken(
            f"Python {sys.version_info[0]}.{sys.version_info[1]} runs this; {ASGI} tuned the"
            f" garbage collector and {POOL} subclassed ThreadPoolExecutor on"
            f" {PYTHON[0]}.{PYTHON[1]}. Re-check both (re-measure the tuning: bench/realtime.py)."
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


async def test_render_pool_uses_an_executor_as_python_does() -> None:
    """games.consumers.pool.RenderPool: asgiref and asyncio hand it work through `submit`
    alone, ThreadPoolExecutor.__init__ starts no thread, and `submit` keeps its shape."""
    calls: list[str] = []

    class Inline(ThreadPoolExecutor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            calls.append("submit")
            future: Future[Any] = Future()
            future.set_result(fn(*args, **kwargs))
            return future

    executor = Inline(max_workers=1, thread_name_prefix="fence-probe")
    try:
        answer = await sync_to_async(lambda: 42, thread_sensitive=False, executor=executor)()
        started = [t.name for t in threading.enumerate() if t.name.startswith("fence-probe")]
    finally:
        executor.shutdown(wait=False)
    problems = []
    if answer != 42 or calls != ["submit"]:
        problems.append(f"sync_to_async(executor=...) called submit {len(calls)} times")
    if started:
        problems.append(f"ThreadPoolExecutor started threads of its own: {started}")
    if plain_signature(ThreadPoolExecutor.submit) != "(self, fn, /, *args, **kwargs)":
        problems.append(
            f"ThreadPoolExecutor.submit takes {plain_signature(ThreadPoolExecutor.submit)}"
        )
    if problems:
        raise FenceBroken("; ".join(problems) + f". Re-check RenderPool in {POOL}.")


def instance_attributes_added() -> list[tuple[type, set[str], set[str], set[str]]]:
    """For each class of ours that adds state to a library class: the instance attributes
    ours has and the library's has not, the names it is recorded to add, and every name an
    instance of the library class has (class attributes included)."""
    from django.db import connections
    from django.db.backends.sqlite3 import base as sqlite_base

    from games.consumers.live import LiveConsumer
    from games.consumers.pool import RenderPool
    from hundredten.layers import SweepingInMemoryChannelLayer
    from hundredten.sqlite.base import DatabaseWrapper as WriterLockWrapper

    sqlite_settings = {**connections.settings["default"], "NAME": ":memory:"}
    pairs: list[tuple[type, Any, Any, set[str]]] = [
        (
            WriterLockWrapper,
            WriterLockWrapper(sqlite_settings),
            sqlite_base.DatabaseWrapper(sqlite_settings),
            {"holds_writer_lock"},
        ),
        (
            SweepingInMemoryChannelLayer,
            SweepingInMemoryChannelLayer(),
            InMemoryChannelLayer(),
            {"sweep_interval", "_next_sweep"},
        ),
        (
            RenderPool,
            RenderPool(workers=2),
            ThreadPoolExecutor(max_workers=1),
            {"workers", "_jobs", "_render_threads", "_start_lock"},
        ),
        (
            LiveConsumer,
            LiveConsumer(),
            AsyncWebsocketConsumer(),
            {"joined", "dirty", "render_task", "last_sent", "closing", "request"}
            | {"session_key", "session_checked"},
        ),
    ]
    found = []
    for cls, ours, theirs, recorded in pairs:
        added = set(vars(ours)) - set(vars(theirs))
        found.append((cls, added, recorded, set(vars(theirs)) | set(dir(type(theirs)))))
        for executor in (ours, theirs):
            if isinstance(executor, ThreadPoolExecutor):
                executor.shutdown(wait=False)
    return found


def test_the_names_we_add_are_none_of_the_librarys() -> None:
    """An upgrade that gives the parent an attribute of the name ours uses (`_queue`, `_jobs`,
    `holds_writer_lock`...) would have one silently overwrite the other."""
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
            "; ".join(problems) + ". Re-check those classes (hundredten/sqlite/base.py,"
            " hundredten/layers.py, games/consumers/pool.py, games/consumers/live.py) and the"
            " lists in tests/fences/."
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


# --- that each fence can fail ----------------------------------------------------------------

SOME_FENCE = next(fence for fence in FENCES if fence.ours == SQLITE)
SOME_VALUE = next(fence for fence in VALUES if fence.ours == HANDLERS)


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        (dataclasses.replace(SOME_FENCE, digest="0" * 16), "changed: its source's digest is"),
        (dataclasses.replace(SOME_FENCE, signature="(self, using)"), "now takes (self)"),
        (
            dataclasses.replace(
                SOME_FENCE, target="django.db.backends.sqlite3.base:DatabaseWrapper._gone"
            ),
            "is gone in django",
        ),
        (
            dataclasses.replace(SOME_FENCE, target="django.db.backends.gone:Wrapper._commit"),
            "is gone",
        ),
    ],
    ids=["digest", "signature", "attribute", "module"],
)
def test_a_fence_fails_naming_our_file(broken: Fence, says: str) -> None:
    with pytest.raises(FenceBroken) as failure:
        check_fence(broken)
    message = str(failure.value)
    assert says in message
    assert f"Re-check {SQLITE} (written against django 5.2.19)" in message


def test_a_fence_fails_when_the_source_cannot_be_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db.backends.sqlite3 import base as sqlite_base

    # A method now implemented in C (or shipped without its source): no digest to compare.
    monkeypatch.setattr(sqlite_base.DatabaseWrapper, "_start_transaction_under_autocommit", len)
    with pytest.raises(FenceBroken, match="cannot be read as Python source") as failure:
        check_fence(SOME_FENCE)
    assert f"Re-check {SQLITE}" in str(failure.value)


def test_a_value_fence_fails_naming_our_file() -> None:
    with pytest.raises(FenceBroken, match=re.escape(f", recorded 2.0. Re-check {HANDLERS}")):
        check_value(dataclasses.replace(SOME_VALUE, expected=2.0))


@pytest.mark.parametrize("version", ["5.2.18", "5.3", "5.3.0a1", "6.0.1"])
def test_a_version_outside_the_series_fails(version: str) -> None:
    with pytest.raises(FenceBroken, match=r"Re-check .*hundredten/sqlite/base\.py"):
        check_version("django", version)


@pytest.mark.parametrize("version", ["5.2.19", "5.2.25"])
def test_a_later_patch_passes_the_version_fence(version: str) -> None:
    check_version("django", version)


def test_an_unfenced_override_fails() -> None:
    class Probe(InMemoryChannelLayer):
        def _remove_from_groups(self, channel: str) -> None:
            pass

    name = f"{qualified(Probe)}._remove_from_groups"
    with pytest.raises(FenceBroken, match="no fence"):
        check_overrides({name: qualified(InMemoryChannelLayer)}, OVERRIDES)


if __name__ == "__main__":  # print every fence as the installed libraries have it
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")
    django.setup()
    for distribution in sorted(WRITTEN_AGAINST):
        print(f"{distribution} {installed(distribution)}")
    for fence in FENCES:
        try:
            function = code_of(resolve(fence.target))
        except (ImportError, AttributeError) as exc:
            print(f"{fence.target}: gone ({exc})")
            continue
        print(f"{fence.target} {plain_signature(function)} {source_digest(function)}")
    for value in VALUES:
        print(f"{value.target} = {resolve(value.target)!r}")
