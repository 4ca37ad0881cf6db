"""hundredten.dispatch: how consumers wait for messages (one reader task per source)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.exceptions import StopConsumer

from hundredten.dispatch import dispatch_in_turn


def source_of(queue: asyncio.Queue[dict[str, Any]]) -> Any:
    return queue.get


async def test_messages_are_dispatched_one_at_a_time_each_in_full():
    socket: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    log: list[str] = []

    async def dispatch(message: dict[str, Any]) -> None:
        log.append(f"start {message['type']}")
        await asyncio.sleep(0.01)  # another source's message arrives meanwhile
        log.append(f"end {message['type']}")
        if message["type"] == "websocket.disconnect":
            raise StopConsumer

    running = asyncio.ensure_future(
        dispatch_in_turn([source_of(socket), source_of(layer)], dispatch)
    )
    for n in range(3):
        layer.put_nowait({"type": f"game.changed{n}"})
        socket.put_nowait({"type": f"websocket.receive{n}"})
    await asyncio.sleep(0.2)
    socket.put_nowait({"type": "websocket.disconnect"})
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(running, 1)

    assert len(log) == 14
    assert all(
        first == f"start {m}" and second == f"end {m}"
        for first, second in zip(log[::2], log[1::2], strict=True)
        for m in [first.removeprefix("start ")]
    )  # never two at once
    for source in ("game.changed", "websocket.receive"):  # each source in its own order
        seen = [line for line in log if line.startswith(f"start {source}")]
        assert seen == [f"start {source}{n}" for n in range(3)]


async def test_one_reader_task_per_source_however_many_messages_arrive():
    loop = asyncio.get_running_loop()
    created: list[Any] = []

    def counting_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
        task = asyncio.Task(coro, loop=loop, **kwargs)
        created.append(task)
        return task

    socket: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    handled: list[dict[str, Any]] = []

    async def dispatch(message: dict[str, Any]) -> None:
        handled.append(message)
        if message["type"] == "websocket.disconnect":
            raise StopConsumer

    loop.set_task_factory(counting_factory)
    try:
        running = asyncio.ensure_future(
            dispatch_in_turn([source_of(socket), source_of(layer)], dispatch)
        )
        for n in range(50):
            layer.put_nowait({"type": "game.changed", "version": n})
            await asyncio.sleep(0)
        socket.put_nowait({"type": "websocket.disconnect"})
        with pytest.raises(StopConsumer):
            await asyncio.wait_for(running, 1)
    finally:
        loop.set_task_factory(None)

    assert [m.get("version") for m in handled] == [*range(50), None]
    # The call itself, its two readers and wait_for's: Channels' loop made one per message.
    assert len(created) <= 4


async def test_a_failing_dispatch_stops_every_reader_and_raises():
    socket: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    reading: list[asyncio.Task[Any]] = []

    def layer_source() -> Any:
        task = asyncio.current_task()
        assert task is not None
        reading.append(task)
        return layer.get()

    async def dispatch(message: dict[str, Any]) -> None:
        raise ValueError(f"No handler for message type {message['type']}")

    socket.put_nowait({"type": "bogus"})
    with pytest.raises(ValueError, match="bogus"):
        await asyncio.wait_for(dispatch_in_turn([source_of(socket), layer_source], dispatch), 1)
    assert reading and all(task.done() for task in reading)
