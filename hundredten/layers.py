"""Our channel layers: Channels' in-memory one without its per-message sweep (the embedded
default), and channels-redis with a blocking pop that ends before the socket's read timeout.

Channels' `InMemoryChannelLayer` looks through every channel's queue and every group
membership for expired entries on each `receive` and each `group_send`, so with N sockets
every message costs O(N): at a few hundred sockets that sweep was the largest single cost of
a move in one daphne process (bench/realtime.py, profiled with py-spy). Here the sweep runs
at most once every `sweep_interval` seconds. Messages still expire after `expiry` seconds (a
second late at most) and group memberships after `group_expiry`.

It also drops a channel's queue after every message it hands out and makes a new one for
the next wait (and builds a spare queue on every send and receive). A socket waits seconds
between messages, so those queues lived long enough for the garbage collector to copy them
into its older generations, where they died: at 2,400 sockets that churn made most of the
middle generation, whose collections stop the process (bench/results/realtime.md). Here a
channel keeps its queue while a consumer reads it; the queue goes when its reader stops
waiting (the consumer ends) or, unread and empty, at the next sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    # Written against Channels 4.3.2; tests/fences/ fails when an upgrade
    # changes any of these: overrides the private InMemoryChannelLayer._clean_expired (and
    # calls it: it reads asyncio.Queue._queue and _remove_from_groups), and replaces send,
    # receive and group_send, which work on the layer's undocumented `channels` (name ->
    # asyncio.Queue of (expires, message)) and `groups` (name -> {channel: joined at}) dicts
    # and its `expiry`, as InMemoryChannelLayer.__init__ sets them.

    def __init__(self, sweep_interval: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sweep_interval = sweep_interval
        self._next_sweep = 0.0
        self.readers: Counter[str] = Counter()  # channel -> receives waiting on it now

    def _queue(self, channel: str) -> asyncio.Queue[tuple[float, dict[str, Any]]]:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        try:
            self._queue(channel).put_nowait((time.time() + self.expiry, deepcopy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        self.readers[channel] += 1
        try:
            _, message = await queue.get()
        except BaseException:  # cancelled: the consumer is going away
            self._stop_reading(channel, gone=True)
            raise
        self._stop_reading(channel)
        return message

    def _stop_reading(self, channel: str, *, gone: bool = False) -> None:
        """One receive on `channel` has ended; if it was the last and its reader is `gone`,
        an empty queue goes with it."""
        self.readers[channel] -= 1
        if self.readers[channel]:
            return
        del self.readers[channel]
        queue = self.channels.get(channel)
        if gone and queue is not None and queue.empty():
            del self.channels[channel]

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_interval
        super()._clean_expired()  # type: ignore[misc]  # not in channels' type stubs
        for channel, queue in list(self.channels.items()):
            if queue.empty() and channel not in self.readers:  # nobody reads it any more
                del self.channels[channel]

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
