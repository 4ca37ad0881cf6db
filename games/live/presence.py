"""Who is connected to a game right now, across every daphne process.

A count of open game sockets per (game, user) lives in the Django cache: the shared Redis
cache when REDIS_URL is set (settings), the per-process local-memory cache otherwise (one
process, so that is the whole truth). Each key expires after `TTL` seconds unless its
process's heartbeat refreshes it (`touch`, every `HEARTBEAT` seconds while a socket is open:
games/consumers/heartbeat.py), so a process that dies without saying goodbye leaves at most
`TTL` seconds of stale "connected".

When a user's socket on a game closes, the time is kept in the same cache for `LEFT_TTL`
seconds, so once their last one has closed their seat can say how long they have been away
("away 3 min").

A request on one of the game's pages counts as presence too (`seen`, from
games/middleware.py): a player who moves over HTTP with no socket open is present for
`away_threshold()` seconds after their last request (the same 2 minutes a bot waits before
it may cover a seat). A player's absence therefore starts when their last page of the game
closes (`leave`) or, when a request came after that, once that request is older than the
threshold; `Away.since` is that moment, and the cover, abandon and turn mail rules all
count from it.

The consumers call `join`/`leave` and broadcast `realtime.presence_changed` when a user's
first socket opens or last socket closes; `table_context` calls `presence_of(game_id)`
to draw a dot next to each seat (lit when connected) and how long the others have been away.

Being online anywhere on the site, what friends see, is games/live/online.py (a socket open
here counts there too).

Spectators open the table too (a public game), and their sockets are counted the same way.
The counts are keyed per user, so to count watchers (`watchers`) each game also keeps a
roster of the users who have it open: the candidates whose counts are read. The roster is
written only when a user's first socket opens (and healed by heartbeats: two processes
writing it at once may drop an id, which the next heartbeat puts back); ids whose count
fell to zero are pruned when it is written. The counts stay the truth: a stale roster id
is simply not counted.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import SynchronousOnlyOperation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.live import online

HEARTBEAT = 20  # seconds between refreshes by a live socket
TTL = 3 * HEARTBEAT  # a key outlives two missed heartbeats
LEFT_TTL = 7 * 24 * 3600  # how long a departure is remembered (then the seat just says away)
# A request writes its time (`seen`) at the pace of the online stamp: one figure for both.
SEEN_EVERY = online.SEEN_EVERY


def now() -> float:
    """The time in seconds since the epoch (tests move it)."""
    return time.time()


def in_process() -> bool:
    """Whether the counts live in this process's memory (reading them does no I/O)."""
    return isinstance(caches["default"], LocMemCache)


# A process's recent reads of the shared counts (Redis, or its own memory), by game: every
# table a move redraws shows the same dots, so one read serves them all. A read is dropped
# when the counts may have changed: a socket of this process joined or left the game, or a
# `presence.changed` came from any process (every process with a socket on the game gets
# those: `forget`), and in any case after READ_SECONDS (a process with no socket on the
# game gets no such news).
# The shared cache stays the truth: mail is sent or held on a fresh read of it.
# Tables are drawn in worker threads, so news may come while a read is under way (a socket
# left between the read and its keeping): the count of news (`_news`, of any game) is noted
# before a read, and the read is kept only if no news came meanwhile.
READ_SECONDS = 10.0
# By game, then by what was read ("counts" or "watchers", and of which users): when, what.
_reads: dict[int, dict[tuple[str, frozenset[int]], tuple[float, Any]]] = {}
_news = 0


def forget_all() -> None:
    """Drop every recent read (tests: game ids are reused once a database is emptied)."""
    _reads.clear()


def forget(game_id: int) -> None:
    """The game's presence may have changed: read it afresh next time."""
    global _news
    _news += 1
    _reads.pop(game_id, None)


class NotHeld(SynchronousOnlyOperation):
    """A read of the shared counts asked for on an event loop, where this process holds no
    recent one: the table being drawn there is drawn again in a render thread (as Django
    refuses a query on an event loop, with the exception this one extends)."""


def held(game_id: int) -> bool:
    """Whether drawing the game's table now needs no I/O for presence: the counts live in
    this process's memory, or it holds recent reads of the game's counts and watchers. A
    socket's redraw then runs on the event loop (games/consumers/tables.py); should it ask
    for a read this process does not hold after all, `NotHeld` sends it to a thread."""
    if in_process():
        return True
    at = time.monotonic()
    kept = list(_reads.get(game_id, {}).items())
    return {what for (what, _), (when, _) in kept if at - when < READ_SECONDS} >= {
        "counts",
        "watchers",
    }


def _recent(key: tuple[int, str, frozenset[int]], read: Callable[[], Any]) -> Any:
    at = time.monotonic()
    game_id, what = key[0], key[1:]
    kept = _reads.get(game_id, {}).get(what)
    if kept is not None and at - kept[0] < READ_SECONDS:
        return kept[1]
    # In this process's memory (the embedded default) a read is no I/O, but it is not free
    # either (a lock and an unpickling per key): it is kept as a shared read is.
    if not in_process():
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a thread: read
            pass
        else:
            raise NotHeld("presence: a read of the shared counts on the event loop")
    if len(_reads) > 50_000:  # games long closed: start again
        _reads.clear()
    news = _news
    value = read()
    if _news == news:
        _reads.setdefault(game_id, {})[what] = (at, value)
    return value


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def _left_key(game_id: int, user_id: int) -> str:
    return f"presence-left:{game_id}:{user_id}"


def _seen_key(game_id: int, user_id: int) -> str:
    return f"presence-seen:{game_id}:{user_id}"


def _roster_key(game_id: int) -> str:
    return f"presence-roster:{game_id}"


def _count(value: object) -> int:
    return value if isinstance(value, int) else 0


def _enrol(game_id: int, user_ids: Iterable[int]) -> None:
    """Put `user_ids` on the game's roster (those missing), dropping users no longer
    connected; one read and one refresh when all are on it already."""
    key = _roster_key(game_id)
    roster = cache.get(key)
    ids = [int(uid) for uid in roster] if isinstance(roster, list) else []
    missing = [uid for uid in user_ids if uid not in ids]
    if not missing:
        cache.touch(key, TTL)
        return
    found = cache.get_many([_key(game_id, uid) for uid in ids])
    kept = [uid for uid in ids if _count(found.get(_key(game_id, uid))) > 0]
    cache.set(key, [*kept, *missing], TTL)


def join(game_id: int, user_id: int) -> bool:
    """Count one more socket of `user_id` on `game_id`; True if it is the user's first."""
    forget(game_id)
    key = _key(game_id, user_id)
    cache.add(key, 0, TTL)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, TTL)
        count = 1
    cache.touch(key, TTL)
    if count == 1:
        _enrol(game_id, [user_id])
    online.mark([user_id])
    return count == 1


def leave(game_id: int, user_id: int) -> bool:
    """Count one socket fewer, noting the time; True if the user has no socket left on the
    game (the time is then when they left)."""
    forget(game_id)
    # The time first: a table drawn between the two writes finds the user still connected,
    # never gone with no time. (A tab closed while others stay open notes a time nobody is
    # shown: the user is connected, and the last tab to close notes it again.)
    cache.set(_left_key(game_id, user_id), now(), LEFT_TTL)
    key = _key(game_id, user_id)
    try:
        count = cache.decr(key)
    except ValueError:  # already expired: nobody is counted
        count = 0
    # Keep the key at zero rather than delete it: a delete could race with a new join.
    return count <= 0


def touch(game_id: int, user_ids: Iterable[int]) -> None:
    """Heartbeat of a process's sockets on a game (games/consumers/heartbeat.py): keep each
    user's count alive, restoring it if the key was lost; keep the users on the game's
    roster (and the roster alive)."""
    user_ids = list(user_ids)
    for user_id in user_ids:
        key = _key(game_id, user_id)
        if not cache.touch(key, TTL):
            cache.add(key, 1, TTL)
    _enrol(game_id, user_ids)
    online.mark(user_ids)  # a socket open is being online


def away_threshold() -> int:
    """Seconds a request on a game's pages keeps its user present (settings: the grace a bot
    waits before covering a seat, so one figure says what "away" means)."""
    return int(settings.COVER_GRACE_SECONDS)


def seen(game_id: int, user_id: int) -> None:
    """`user_id` was answered a request on one of the game's pages: they count as present
    until `away_threshold()` seconds after it. One cache read; a write only when the stamp
    is older than SEEN_EVERY seconds or a page of the game closed after it (so the last
    request after a closed page is never lost)."""
    seen_key, left_key = _seen_key(game_id, user_id), _left_key(game_id, user_id)
    sockets = _key(game_id, user_id)
    found = cache.get_many([seen_key, left_key, sockets])
    stamp, left = found.get(seen_key), found.get(left_key)
    at = now()
    if isinstance(stamp, int | float) and at - stamp < SEEN_EVERY:
        closed_since = isinstance(left, int | float) and left >= stamp
        if not closed_since:
            return
    cache.set(seen_key, at, LEFT_TTL)
    # A user with a page of the game open is present with or without the stamp: this
    # process's recent reads still hold (their last page's closing drops them: `leave`).
    if _count(found.get(sockets)) <= 0:
        forget(game_id)


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
    """Who has a game open (`connected`), who has no page of it open but made a request on
    it less than `away_threshold()` ago (`recent`), and since when the others known to have
    had it open have been away (`away`, by user id)."""

    connected: set[int] = field(default_factory=set)
    away: dict[int, Away] = field(default_factory=dict)
    recent: set[int] = field(default_factory=set)

    def present(self, user_id: int) -> bool:
        return user_id in self.connected or user_id in self.recent


def away_text(seconds: float) -> str:
    """How long somebody has been away, in a few characters: "away 3 min", "away 2 h"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        # Translators: how long a player has been away from the table, in a few characters.
        return _("away <1 min")
    if minutes < 60:
        return ngettext("away %(count)s min", "away %(count)s min", minutes) % {"count": minutes}
    if minutes < 48 * 60:
        hours = minutes // 60
        return ngettext("away %(count)s h", "away %(count)s h", hours) % {"count": hours}
    days = minutes // (24 * 60)
    return ngettext("away %(count)s day", "away %(count)s days", days) % {"count": days}


def presence_of(
    game_id: int,
    user_ids: Iterable[int] | None = None,
    *,
    fresh: bool = False,
    at: float | None = None,
) -> Presence:
    """Who has the game open, and how long the others have been away (one cache read, or
    this process's recent one unless `fresh`: see `forget`), at `at` (seconds since the
    epoch; by default `now()`).

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
    keys = [
        k
        for uid in candidates
        for k in (_key(game_id, uid), _left_key(game_id, uid), _seen_key(game_id, uid))
    ]
    if fresh:
        found = cache.get_many(keys)
    else:
        found = _recent((game_id, "counts", frozenset(candidates)), lambda: cache.get_many(keys))
    connected = {uid for uid in candidates if int(found.get(_key(game_id, uid)) or 0) > 0}
    at = now() if at is None else at
    away, recent = {}, set()
    for uid in candidates - connected:
        since = _absent_since(
            found.get(_left_key(game_id, uid)), found.get(_seen_key(game_id, uid))
        )
        if since is None:
            continue
        if since > at:  # a request less than the threshold ago: still here
            recent.add(uid)
        else:
            away[uid] = Away(datetime.fromtimestamp(since, UTC), away_text(at - since))
    return Presence(connected, away, recent)


def _absent_since(left: object, stamp: object) -> float | None:
    """When an absence began (seconds since the epoch; may lie ahead: still present), from
    when the user's last page closed and their last request; None if neither is known."""
    closed = float(left) if isinstance(left, int | float) else None
    asked = float(stamp) if isinstance(stamp, int | float) else None
    if asked is not None and (closed is None or asked > closed):
        return asked + away_threshold()
    return closed


def connected_user_ids(game_id: int, user_ids: Iterable[int] | None = None) -> set[int]:
    """The ids of users with at least one open socket on the game now (a fresh read)."""
    return presence_of(game_id, user_ids, fresh=True).connected


def present_user_ids(game_id: int, user_ids: Iterable[int] | None = None) -> set[int]:
    """The ids of users with a page of the game open, or a request on it less than
    `away_threshold()` ago (see `presence_of`; always a fresh read: mail is sent or not
    on it)."""
    here = presence_of(game_id, user_ids, fresh=True)
    return here.connected | here.recent


def watchers(game_id: int, seated_user_ids: Iterable[int | None]) -> int:
    """How many users have the game open without holding a seat in it (spectators).

    `seated_user_ids`: the users of the game's seats (the caller has them loaded; None for
    bots is fine). Reads the cache only (the roster, then the candidates' counts), never the
    database; with the local-memory cache that is no I/O at all.
    """
    seated = frozenset(int(uid) for uid in seated_user_ids if uid is not None)
    return int(_recent((game_id, "watchers", seated), lambda: _watchers(game_id, seated)))


def _watchers(game_id: int, seated: frozenset[int]) -> int:
    roster = cache.get(_roster_key(game_id))
    if not isinstance(roster, list):
        return 0
    candidates = {int(uid) for uid in roster} - seated
    if not candidates:
        return 0
    found = cache.get_many([_key(game_id, uid) for uid in candidates])
    return sum(1 for uid in candidates if _count(found.get(_key(game_id, uid))) > 0)
