"""Who is connected to a game right now, across every daphne process.

A count of open game sockets per (game, user) lives in the Django cache: the shared Redis
cache when REDIS_URL is set (settings), the per-process local-memory cache otherwise (one
process, so that is the whole truth). Each key expires after `TTL` seconds unless a live
socket refreshes it (`touch`, every `HEARTBEAT` seconds from the consumer), so a process
that dies without saying goodbye leaves at most `TTL` seconds of stale "connected".

The consumers call `join`/`leave`/`touch` and broadcast `realtime.presence_changed` when a
user's first socket opens or last socket closes; `table_context` calls
`connected_user_ids(game_id)` to draw a dot next to each connected seat.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

HEARTBEAT = 20  # seconds between refreshes by a live socket
TTL = 3 * HEARTBEAT  # a key outlives two missed heartbeats


def in_process() -> bool:
    """Whether the counts live in this process's memory (reading them does no I/O)."""
    return isinstance(caches["default"], LocMemCache)


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


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
    """Count one socket fewer; True if the user has no socket left on the game."""
    key = _key(game_id, user_id)
    try:
        count = cache.decr(key)
    except ValueError:  # already expired: nobody is counted
        return True
    # Keep the key at zero rather than delete it: a delete could race with a new join.
    return count <= 0


def touch(game_id: int, user_id: int) -> None:
    """Heartbeat: keep the user's count alive; restore it if the key was lost."""
    key = _key(game_id, user_id)
    if not cache.touch(key, TTL):
        cache.add(key, 1, TTL)


def connected_user_ids(game_id: int, user_ids: Iterable[int] | None = None) -> set[int]:
    """The ids of users with at least one open socket on the game.

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
        return set()
    counts = cache.get_many([_key(game_id, uid) for uid in candidates])
    return {uid for uid in candidates if int(counts.get(_key(game_id, uid)) or 0) > 0}
