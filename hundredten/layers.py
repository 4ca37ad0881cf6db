"""Our channel layers: Channels' in-memory one without its per-message sweep (the embedded
default), and channels-redis with a blocking pop that ends before the socket's read timeout.

Channels' `InMemoryChannelLayer` looks through every channel's queue and every group
membership for expired entries on each `receive` and each `group_send`, so with N sockets
every message costs O(N): at a few hundred sockets that sweep was the largest single cost of
a move in one daphne process (bench/realtime.py, profiled with py-spy). Here the sweep runs
at most once every `sweep_interval` seconds. Nothing else changes: messages still expire
after `expiry` seconds (a second late at most) and group memberships after `group_expiry`.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    def __init__(self, sweep_interval: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sweep_interval = sweep_interval
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_interval
        super()._clean_expired()  # type: ignore[misc]  # not in channels' type stubs

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """As the parent's, without a task per member: `send` never waits (it puts the
        message on the channel's queue at once or raises ChannelFull), so awaiting each
        send in turn delivers the same messages with less work."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            with contextlib.suppress(ChannelFull):  # as the parent: a full channel misses it
                await self.send(channel, message)


class RedisLayer(RedisChannelLayer):  # type: ignore[misc]  # untyped
    """channels-redis, with each wait for a message shorter than a Redis read may take.

    channels-redis receives by asking Redis to block (BZPOPMIN) for up to `brpop_timeout`
    seconds, 5, and asks again when that ends empty. redis-py 8 gives up on any read after
    its `socket_timeout`, also 5 s by default, and raises TimeoutError: so the consumer of a
    socket that had heard nothing for 5 s could die, and the page had to reconnect. Here
    each wait lasts at most half the shortest read timeout configured (2 s by default).
    """

    brpop_timeout = 2.0  # s; redis-py reads time out after 5 s unless a host sets otherwise

    def __init__(self, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(hosts=hosts, **kwargs)
        for timeout in (host.get("socket_timeout") for host in self.hosts):
            if timeout:  # None or 0: no read timeout, nothing to stay under
                self.brpop_timeout = min(self.brpop_timeout, float(timeout) / 2)
