"""That each fence can fail, and says what to re-check: a changed digest or signature, a
method or module gone, a source that cannot be read, a changed value, a version outside the
series (a later patch passes), an override of a library attribute with no fence. What a
fence is: test_fences_hold.py.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from channels.layers import InMemoryChannelLayer

from tests.fences.checks import check_fence, check_overrides, check_value, check_version, qualified
from tests.fences.overrides import OVERRIDES
from tests.fences.records import FENCES, HANDLERS, VALUES, Fence, FenceBroken

# --- that each fence can fail ----------------------------------------------------------------

SOME_FENCE = next(
    fence for fence in FENCES if fence.target == "django.core.handlers.asgi:ASGIHandler.__init__"
)
SOME_VALUE = next(fence for fence in VALUES if fence.ours == HANDLERS)


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        (dataclasses.replace(SOME_FENCE, digest="0" * 16), "changed: its source's digest is"),
        (dataclasses.replace(SOME_FENCE, signature="(self, using)"), "now takes (self)"),
        (
            dataclasses.replace(SOME_FENCE, target="django.core.handlers.asgi:ASGIHandler._gone"),
            "is gone in django",
        ),
        (
            dataclasses.replace(SOME_FENCE, target="django.core.handlers.gone:Handler.__init__"),
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
    assert f"Re-check {HANDLERS} (written against django 5.2.19)" in message


def test_a_fence_fails_when_the_source_cannot_be_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.handlers import asgi

    # A method now implemented in C (or shipped without its source): no digest to compare.
    monkeypatch.setattr(asgi.ASGIHandler, "__init__", len)
    with pytest.raises(FenceBroken, match="cannot be read as Python source") as failure:
        check_fence(SOME_FENCE)
    assert f"Re-check {HANDLERS}" in str(failure.value)


def test_a_value_fence_fails_naming_our_file() -> None:
    with pytest.raises(FenceBroken, match=re.escape(f", recorded 2.0. Re-check {HANDLERS}")):
        check_value(dataclasses.replace(SOME_VALUE, expected=2.0))


@pytest.mark.parametrize("version", ["5.2.18", "5.3", "5.3.0a1", "6.0.1"])
def test_a_version_outside_the_series_fails(version: str) -> None:
    with pytest.raises(FenceBroken, match=r"Re-check .*hundredten/handlers\.py"):
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
