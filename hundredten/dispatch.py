"""How our consumers wait for messages: one reader task per source for the socket's life.

Channels' consumers wait with `channels.utils.await_many_dispatch`, which starts a new task
for a source after each message it delivers, and calls `asyncio.wait` again (a waiter, a
callback on each task, a set). A socket then waits seconds for its next message, so each
message left a dozen objects that lived long enough for the garbage collector to copy them
into its older generations before they died; at 2,400 sockets that churn made most of the
young objects, and the collections that stop the whole process took that much longer
(bench/results/realtime.md). Here each source keeps one reader task. Messages are still
handled one at a time, each in full before the next, as Channels does.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

Message = dict[str, Any]


async def dispatch_in_turn(
    sources: list[Callable[[], Awaitable[Message]]],
    dispatch: Callable[[Message], Awaitable[None]],
) -> None:
    """Hand every message from `sources` to `dispatch`, one at a time, until a dispatch (or
    a source) raises; then stop reading every source and raise that."""
    turn = asyncio.Lock()

    async def read(source: Callable[[], Awaitable[Message]]) -> None:
        while True:
            message = await source()
            async with turn:
                await dispatch(message)

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        done, _ = await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
        for reader in done:
            reader.result()  # a reader ends only by raising (StopConsumer: the socket closed)
    finally:
        for reader in readers:
            if not reader.done():
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader


class ReadersKeptConsumer(AsyncConsumer):
    """An `AsyncConsumer` whose `__call__` waits with `dispatch_in_turn`. The set-up is
    Channels' own; only the wait differs.

    Replaces channels.consumer.AsyncConsumer.__call__ and the channels.utils.await_many_dispatch
    it waits with, written against Channels 4.3.2 (tests/fences/ fails when
    an upgrade changes either). Unlike Channels', it sets no `channel_receive` (nothing in
    Channels 4.3.2 reads it) and no `_sync` send wrapper (async consumers only)."""

    async def __call__(
        self, scope: Any, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        self.scope = scope
        layer = get_channel_layer(self.channel_layer_alias)
        sources: list[Callable[[], Awaitable[Any]]] = [receive]
        if layer is not None:
            self.channel_layer = layer
            self.channel_name = await layer.new_channel()
            sources.append(functools.partial(layer.receive, self.channel_name))
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await dispatch_in_turn(sources, self.dispatch)
