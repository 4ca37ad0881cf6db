"""How a fence is checked (what a fence is: test_fences_hold.py; the fences: records.py).

A fence's target is looked up as our subclasses find it, and its signature and the digest of
its source compared with the recorded ones; a value fence's value likewise, and each installed
version against the series our comments name. `library_overrides` finds every attribute a
class of ours shares with a library class it inherits from. A failure raises FenceBroken
naming the file of ours to re-check.

`DEBUG=1 .tools/bin/uv run --locked python -m tests.fences.checks` prints every fence as the
installed libraries have it.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from collections.abc import Callable, Iterable
from importlib.metadata import version as installed_version
from typing import Any

from django.utils.functional import cached_property as django_cached_property
from packaging.version import Version

from tests.fences.overrides import LIBRARY_PACKAGES, NOT_SCANNED
from tests.fences.records import (
    ALL_FENCES,
    FENCES,
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
