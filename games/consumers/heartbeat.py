"""One presence heartbeat per process for all its game sockets (games.live.presence.touch).

Every open game socket must refresh its user's count before it expires (`presence.TTL`).
A task per socket did that with three cache commands per socket every `HEARTBEAT` seconds
(the count, the game's roster read and refreshed), the largest share of a move's Redis
commands with the shared cache (bench/results/scaleout.md). Here each process keeps the
(game, user) pairs its sockets have open, and one task per event loop refreshes each game
once per interval (one command per user and two for the roster, however many sockets),
the games spread evenly over the interval so that no burst queues in the render threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import Counter

from games.consumers.pool import presence_call
from games.live import presence


class Heartbeat:
    """The game sockets open in one event loop, and the task that keeps them counted."""

    def __init__(self) -> None:
        self.open: dict[int, Counter[int]] = {}  # game -> user -> sockets
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while self.open:
            games = sorted(self.open)
            pause = presence.HEARTBEAT / len(games)
            for game_id in games:
                await asyncio.sleep(pause)
                users = sorted(self.open.get(game_id, ()))
                if users:
                    with contextlib.suppress(Exception):  # the cache is best effort
                        await presence_call(presence.touch, game_id, users)
        self.task = None


_beats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat]
_beats = weakref.WeakKeyDictionary()


def _here() -> Heartbeat:
    loop = asyncio.get_running_loop()
    beat = _beats.get(loop)
    if beat is None:
        beat = _beats[loop] = Heartbeat()
    return beat


def opened(game_id: int, user_id: int) -> None:
    """A socket of `user_id` on `game_id` opened (its count was joined): keep it counted."""
    beat = _here()
    beat.open.setdefault(game_id, Counter())[user_id] += 1
    if beat.task is None:
        beat.task = asyncio.get_running_loop().create_task(beat.run())


def closed(game_id: int, user_id: int) -> None:
    """That socket closed (before its count is left)."""
    beat = _here()
    users = beat.open[game_id]
    users[user_id] -= 1
    if users[user_id] <= 0:
        del users[user_id]
        if not users:
            del beat.open[game_id]
    if not beat.open and beat.task is not None:
        beat.task.cancel()
        beat.task = None
