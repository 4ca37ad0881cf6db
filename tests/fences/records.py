"""The fences' records: what each of our files takes from a library's inside (see
tests/fences/test_fences_hold.py), as the installed libraries had it when written."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# The versions our comments name, and the first version outside the series each is accepted
# in: a later patch release passes when every digest below still matches (a patch that
# changes a fenced method fails its fence); a new minor series fails even so.
WRITTEN_AGAINST: dict[str, tuple[str, str]] = {
    "django": ("5.2.19", "5.3"),
    "channels": ("4.3.2", "4.4"),
    "asgiref": ("3.13.0", "3.14"),
    "daphne": ("4.2.3", "4.3"),
    "twisted": ("26.10.0", "26.11"),
}
# The interpreter the garbage collector tuning was written and measured on (pyproject.toml:
# requires-python).
PYTHON = (3, 11)

# Where the distribution of a target's top-level package is named differently.
DISTRIBUTION: dict[str, str] = {}

# Our files, named by the fences that guard them.
HANDLERS = "hundredten/handlers.py"
LAYERS = "hundredten/layers.py"
ORIGIN = "hundredten/origin.py"
SESSIONS = "accounts/sessions.py"
REALTIME = "games/live/realtime.py"
ASGI = "hundredten/asgi.py"
DRAIN = "hundredten/drain.py"


class FenceBroken(AssertionError):
    """A library changed something our code relies on."""


@dataclasses.dataclass(frozen=True)
class Fence:
    """`target` ("module:Name.attr", looked up as our subclasses find it, through the MRO)
    had `signature` and a source whose sha256 began with `digest` when `ours` was written."""

    target: str
    signature: str
    digest: str
    ours: str

    @property
    def distribution(self) -> str:
        return distribution_of(self.target)


@dataclasses.dataclass(frozen=True)
class ValueFence:
    """`target` (an attribute, not code) equalled `expected` when `ours` was written."""

    target: str
    expected: Any
    ours: str

    @property
    def distribution(self) -> str:
        return distribution_of(self.target)


FENCES = [
    # The kept request threads: ASGIHandler's __init__ skipped, __call__ and
    # get_response_async replaced; handle and run_get_response kept; asgiref's
    # ThreadSensitiveContext(executor=...) and SyncToAsync routing to it.
    Fence("django.core.handlers.asgi:ASGIHandler.__init__", "(self)", "41379d4f4b69f900", HANDLERS),
    Fence(
        "django.core.handlers.asgi:ASGIHandler.__call__",
        "(self, scope, receive, send)",
        "f756809e9c9308dc",
        HANDLERS,
    ),
    Fence(
        "django.core.handlers.asgi:ASGIHandler.handle",
        "(self, scope, receive, send)",
        "98faeb5bef800331",
        HANDLERS,
    ),
    Fence(
        "django.core.handlers.asgi:ASGIHandler.run_get_response",
        "(self, request)",
        "0234ea5fe09a5777",
        HANDLERS,
    ),
    Fence(
        "django.core.handlers.asgi:ASGIHandler.get_response_async",
        "(self, request)",
        "ad82c920df0cebbb",
        HANDLERS,
    ),
    Fence(
        "django.core.handlers.asgi:ASGIHandler.get_response",
        "(self, request)",
        "3d6a79b124c2cccb",
        HANDLERS,
    ),
    Fence(
        "django.core.handlers.asgi:ASGIHandler.load_middleware",
        "(self, is_async=False)",
        "a1fb7ee5f8586195",
        HANDLERS,
    ),
    Fence(
        "asgiref.sync:ThreadSensitiveContext.__init__",
        "(self, *, executor=None)",
        "588b5c0a4d8d60f3",
        HANDLERS,
    ),
    Fence("asgiref.sync:ThreadSensitiveContext.__aenter__", "(self)", "b0355bf6b275a7c2", HANDLERS),
    Fence(
        "asgiref.sync:ThreadSensitiveContext.__aexit__",
        "(self, exc, value, tb)",
        "5571fec562fa6e84",
        HANDLERS,
    ),
    Fence(
        "asgiref.sync:SyncToAsync.__init__",
        "(self, func, thread_sensitive=True, executor=None, context=None)",
        "3d9c15ea0c461c73",
        HANDLERS,
    ),
    Fence(
        "asgiref.sync:SyncToAsync.__call__",
        "(self, *args, **kwargs)",
        "6376e33c6d3d94c5",
        HANDLERS,
    ),
    # games.live.realtime: which loop async_to_sync runs a push on (a stopped one hangs).
    Fence(
        "asgiref.sync:AsyncToSync.__call__", "(self, *args, **kwargs)", "811b9e33968648b2", REALTIME
    ),
    # The in-memory channel layer: receive and group_send call _clean_expired, which calls
    # _remove_from_groups.
    Fence(
        "channels.layers:InMemoryChannelLayer.__init__",
        "(self, expiry=60, group_expiry=86400, capacity=100, channel_capacity=None, **kwargs)",
        "a868dc26b1c1947d",
        LAYERS,
    ),
    Fence(
        "channels.layers:InMemoryChannelLayer.receive",
        "(self, channel)",
        "e615f8ae40b60e12",
        LAYERS,
    ),
    Fence(
        "channels.layers:InMemoryChannelLayer._clean_expired", "(self)", "604032dae1cc01d2", LAYERS
    ),
    Fence(
        "channels.layers:InMemoryChannelLayer._remove_from_groups",
        "(self, channel)",
        "791d451199f668ed",
        LAYERS,
    ),
    Fence(
        "channels.layers:InMemoryChannelLayer.group_send",
        "(self, group, message)",
        "693c3172deb6431b",
        LAYERS,
    ),
    # The websocket origin check.
    Fence(
        "channels.security.websocket:OriginValidator.__call__",
        "(self, scope, receive, send)",
        "0b82a945801a5ca2",
        ORIGIN,
    ),
    Fence(
        "channels.security.websocket:OriginValidator.valid_origin",
        "(self, parsed_origin)",
        "0e2c8a742b652ce7",
        ORIGIN,
    ),
    Fence(
        "channels.security.websocket:OriginValidator.validate_origin",
        "(self, parsed_origin)",
        "84c1edc62d936ec1",
        ORIGIN,
    ),
    Fence(
        "channels.security.websocket:OriginValidator.match_allowed_origin",
        "(self, parsed_origin, pattern)",
        "4e31c6d1a2150eb6",
        ORIGIN,
    ),
    Fence(
        "channels.security.websocket:OriginValidator.get_origin_port",
        "(self, origin)",
        "d61a7d4eacbaf559",
        ORIGIN,
    ),
    Fence("django.http.request:split_domain_port", "(host)", "f5b689856eb30adc", ORIGIN),
    Fence("django.http.request:validate_host", "(host, allowed_hosts)", "b50ef400349861dc", ORIGIN),
    Fence("django.http.request:HttpRequest.get_host", "(self)", "02735c918f5ce9f1", ORIGIN),
    Fence("django.http.request:HttpRequest.scheme", "(self)", "c0908b0322122369", ORIGIN),
    # A socket's session check.
    Fence("django.contrib.auth:get_user", "(request)", "08a852f701f765bc", SESSIONS),
    # The drain at shutdown: daphne loads the application (whose import registers the drain's
    # "before shutdown" trigger) before its server registers kill_all_applications, and
    # Twisted calls a phase's triggers in the order registered; kill_all_applications cancels
    # each application instance and waits for it; a reply is written while the connection is
    # open; the listening ports are Twisted endpoints' (readers of the reactor); what the
    # before phase leaves unwritten, disconnectAll drops.
    Fence("daphne.cli:CommandLineInterface.run", "(self, args)", "039cb21244f402ac", DRAIN),
    Fence("daphne.server:Server.run", "(self)", "447c6bd42c62e98c", DRAIN),
    Fence("daphne.server:Server.kill_all_applications", "(self)", "4e1618c6f7871758", DRAIN),
    Fence(
        "daphne.server:Server.handle_reply", "(self, protocol, message)", "9d9dbaea6de0657a", DRAIN
    ),
    Fence(
        "daphne.management.commands.runserver:Command.inner_run",
        "(self, *args, **options)",
        "20342ad7c9e029c9",
        DRAIN,
    ),
    Fence("twisted.internet.base:_ThreePhaseEvent.fireEvent", "(self)", "f5a747b7ec2c3df9", DRAIN),
    Fence("twisted.internet.base:ReactorBase.disconnectAll", "(self)", "f333aa36c01587cc", DRAIN),
]

VALUES = [
    # KeptThreadsASGIHandler.__init__ calls BaseHandler.__init__ directly: there is none.
    ValueFence("django.core.handlers.base:BaseHandler.__init__", object.__init__, HANDLERS),
]

ALL_FENCES: list[Fence | ValueFence] = [*FENCES, *VALUES]


def distribution_of(target: str) -> str:
    package = target.split(":", 1)[0].split(".", 1)[0]
    return DISTRIBUTION.get(package, package)
