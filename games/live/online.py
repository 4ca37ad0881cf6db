"""Who is online anywhere on the site, for friends (games/services/friends.py, docs/friends.md).

A user is online when they made any request, or had a game socket open, less than
ONLINE_SECONDS ago: one stamp per user (not per game, unlike games/live/presence.py), written by
PresenceMiddleware at most every SEEN_EVERY seconds (one cache read a signed-in request) and
by the heartbeat of their open sockets (`presence.touch`, through `mark`). Nothing says
goodbye: a closed tab stays online until the stamp is that old.

Apart from games/live/presence.py because it answers another question (anywhere on the site,
not at a game) for other readers; presence builds on it (a socket open is being online),
never the other way, so this module imports nothing of ours.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.core.cache import cache

ONLINE_SECONDS = 5 * 60
SEEN_EVERY = 10  # seconds: a request writes its time only when the stamp is older than this


def now() -> float:
    """The time in seconds since the epoch (tests move it; each module reads and writes its
    own stamps with its own clock, so moving one never mixes clocks on a stamp)."""
    return time.time()


def _online_key(user_id: int) -> str:
    return f"presence-online:{user_id}"


def stamp_online(user_id: int) -> bool:
    """`user_id` was answered a request: online for ONLINE_SECONDS from now. True if they
    have just come online (no stamp was left), for their friends' lobbies to show it."""
    key = _online_key(user_id)
    stamp = cache.get(key)
    at = now()
    if isinstance(stamp, int | float) and at - stamp < SEEN_EVERY:
        return False
    cache.set(key, at, ONLINE_SECONDS)
    return not isinstance(stamp, int | float) or at - stamp >= ONLINE_SECONDS


def mark(user_ids: Iterable[int]) -> None:
    """`user_ids` have a game socket open: online for ONLINE_SECONDS from now (one write)."""
    at = now()
    cache.set_many({_online_key(uid): at for uid in user_ids}, ONLINE_SECONDS)


def online_user_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of `user_ids` are online now (one cache read)."""
    return set(online_until(user_ids))


def online_until(user_ids: Iterable[int]) -> dict[int, float]:
    """When each of `user_ids` who is online now stops being so, unless they are seen again
    before (seconds since the epoch; one cache read): a lobby redraws its friends then."""
    ids = {int(uid) for uid in user_ids}
    if not ids:
        return {}
    found = cache.get_many([_online_key(uid) for uid in ids])
    at = now()
    return {
        uid: stamp + ONLINE_SECONDS
        for uid in ids
        if isinstance(stamp := found.get(_online_key(uid)), int | float)
        and at - stamp < ONLINE_SECONDS
    }
