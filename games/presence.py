"""Who is connected to a game right now, across every daphne process.

A count of open game sockets per (game, user) lives in the Django cache: the shared Redis
cache when REDIS_URL is set (settings), the per-process local-memory cache otherwise (one
process, so that is the whole truth). Each key expires after `TTL` seconds unless a live
socket refreshes it (`touch`, every `HEARTBEAT` seconds from the consumer), so a process
that dies without saying goodbye leaves at most `TTL` seconds of stale "connected".

When a user's last socket on a game closes, the time is kept in the same cache for `LEFT_TTL`
seconds, so their seat can say how long they have been away ("away 3 min").

The consumers call `join`/`leave`/`touch` and broadcast `realtime.presence_changed` when a
user's first socket opens or last socket closes; `table_context` calls `presence_of(game_id)`
to draw a dot next to each seat (lit when connected) and how long the others have been away.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

HEARTBEAT = 20  # seconds between refreshes by a live socket
TTL = 3 * HEARTBEAT  # a key outlives two missed heartbeats
LEFT_TTL = 7 * 24 * 3600  # how long a departure is remembered (then the seat just says away)


def now() -> float:
    """The time in seconds since the epoch (tests move it)."""
    return time.time()


def in_process() -> bool:
    """Whether the counts live in this process's memory (reading them does no I/O)."""
    return isinstance(caches["default"], LocMemCache)


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def _left_key(game_id: int, user_id: int) -> str:
    return f"presence-left:{game_id}:{user_id}"


def join(game_id: int, user_id: int) -> bool:
    """Count one more socket of `user_id` on `game_id`; True if it is the user's first."""
    key = _key(game_id, user_id)
    cache.add(key, 0, TTL)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, TTL)
        count = 1
    cache.touch(key, TTL)
    return count == 1


def leave(game_id: int, user_id: int) -> bool:
    """Count one socket fewer; True if the user has no socket left on the game (then the
    time they left is noted)."""
    key = _key(game_id, user_id)
    try:
        count = cache.decr(key)
    except ValueError:  # already expired: nobody is counted
        count = 0
    # Keep the key at zero rather than delete it: a delete could race with a new join.
    if count > 0:
        return False
    cache.set(_left_key(game_id, user_id), now(), LEFT_TTL)
    return True


def touch(game_id: int, user_id: int) -> None:
    """Heartbeat: keep the user's count alive; restore it if the key was lost."""
    key = _key(game_id, user_id)
    if not cache.touch(key, TTL):
        cache.add(key, 1, TTL)


@dataclass(frozen=True)
class Away:
    """A user with no socket open on a game, and since when."""

    since: datetime
    text: str  # "away 3 min"

    @property
    def seconds(self) -> int:
        return max(0, int(now() - self.since.timestamp()))


@dataclass(frozen=True)
class Presence:
    """Who has a game open (`connected`), and since when the others known to have had it
    open have been away (`away`, by user id)."""

    connected: set[int] = field(default_factory=set)
    away: dict[int, Away] = field(default_factory=dict)


def away_text(seconds: float) -> str:
    """How long somebody has been away, in a few characters: "away 3 min", "away 2 h"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "away <1 min"
    if minutes < 60:
        return f"away {minutes} min"
    if minutes < 48 * 60:
        return f"away {minutes // 60} h"
    return f"away {minutes // (24 * 60)} days"


def presence_of(game_id: int, user_ids: Iterable[int] | None = None) -> Presence:
    """Who has the game open, and how long the others have been away (one cache read).

    `user_ids` are the candidates (e.g. the seated users already loaded by the caller);
    by default every human member of the game.
    """
    if user_ids is None:
        from games.models import Membership

        user_ids = Membership.objects.filter(game_id=game_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    candidates = {int(uid) for uid in user_ids if uid is not None}
    if not candidates:
        return Presence()
    keys = [k for uid in candidates for k in (_key(game_id, uid), _left_key(game_id, uid))]
    found = cache.get_many(keys)
    connected = {uid for uid in candidates if int(found.get(_key(game_id, uid)) or 0) > 0}
    at = now()
    away = {}
    for uid in candidates - connected:
        left = found.get(_left_key(game_id, uid))
        if isinstance(left, int | float):
            away[uid] = Away(datetime.fromtimestamp(left, UTC), away_text(max(0.0, at - left)))
    return Presence(connected, away)


def connected_user_ids(game_id: int, user_ids: Iterable[int] | None = None) -> set[int]:
    """The ids of users with at least one open socket on the game (see `presence_of`)."""
    return presence_of(game_id, user_ids).connected
