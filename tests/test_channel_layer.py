"""The embedded channel layer (hundredten.layers): Channels' in-memory layer whose expiry
sweep runs at most once per interval instead of on every message."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull

from hundredten.layers import SweepingInMemoryChannelLayer


async def test_a_group_send_reaches_every_member_once_with_its_own_copy():
    layer = SweepingInMemoryChannelLayer()
    names = [await layer.new_channel() for _ in range(3)]
    for name in names:
        await layer.group_add("game-1", name)
    await layer.group_add("game-2", names[0])

    ids = [1]
    await layer.group_send("game-1", {"type": "game.changed", "game_id": 1, "ids": ids})
    ids.append(2)  # the sender's later change reaches nobody

    received = [await asyncio.wait_for(layer.receive(name), 1) for name in names]
    assert received == [{"type": "game.changed", "game_id": 1, "ids": [1]}] * 3
    assert all(layer.channels[name].empty() for name in names)  # nothing else queued


async def test_a_full_channel_misses_the_message_and_the_others_still_get_it():
    layer = SweepingInMemoryChannelLayer(capacity=1)
    full, free = "full.inmemory!a", "free.inmemory!b"
    await layer.group_add("game-1", full)
    await layer.group_add("game-1", free)
    await layer.send(full, {"type": "first"})
    with pytest.raises(ChannelFull):
        await layer.send(full, {"type": "x"})

    await layer.group_send("game-1", {"type": "second"})
    assert await layer.receive(full) == {"type": "first"}
    assert await layer.receive(free) == {"type": "second"}


async def test_expired_messages_are_swept_once_per_interval_not_on_every_message():
    layer = SweepingInMemoryChannelLayer(expiry=0.01, sweep_interval=3600)
    layer._clean_expired()  # the first sweep: the next one is an hour away
    await layer.group_add("game-1", "gone.inmemory!a")
    await layer.send("gone.inmemory!a", {"type": "never.read"})
    await asyncio.sleep(0.05)  # the message has expired

    await layer.group_send("game-1", {"type": "more"})
    assert "gone.inmemory!a" in layer.groups["game-1"]  # no sweep yet

    layer._next_sweep = 0.0  # the interval has passed
    await layer.group_send("game-1", {"type": "more"})
    # The sweep drops the expired message and, as Channels does, the channel from its
    # groups (a consumer that stopped reading is gone).
    assert "gone.inmemory!a" not in layer.groups.get("game-1", {})


async def test_a_channel_keeps_its_queue_while_its_consumer_reads_it():
    layer = SweepingInMemoryChannelLayer()
    name = await layer.new_channel()
    reader = asyncio.ensure_future(layer.receive(name))
    await asyncio.sleep(0)
    queue = layer.channels[name]

    await layer.send(name, {"type": "first"})
    assert await asyncio.wait_for(reader, 1) == {"type": "first"}
    assert layer.channels[name] is queue  # the next wait reuses it: nothing new to collect
    reader = asyncio.ensure_future(layer.receive(name))
    await layer.send(name, {"type": "second"})
    assert await asyncio.wait_for(reader, 1) == {"type": "second"}
    assert layer.channels[name] is queue


async def test_a_reader_that_stops_waiting_takes_its_empty_queue_with_it():
    layer = SweepingInMemoryChannelLayer()
    kept, gone = await layer.new_channel(), await layer.new_channel()
    readers = [asyncio.ensure_future(layer.receive(name)) for name in (kept, gone)]
    await asyncio.sleep(0)
    readers[1].cancel()  # that consumer ended
    with pytest.raises(asyncio.CancelledError):
        await readers[1]

    assert gone not in layer.channels
    assert kept in layer.channels
    layer._next_sweep = 0.0
    layer._clean_expired()
    assert kept in layer.channels  # still read: the sweep leaves it
    await layer.send(kept, {"type": "still.here"})
    assert await asyncio.wait_for(readers[0], 1) == {"type": "still.here"}


async def test_the_sweep_drops_empty_queues_nobody_reads():
    layer = SweepingInMemoryChannelLayer(expiry=0.01)
    name = await layer.new_channel()
    await layer.send(name, {"type": "read.once"})
    assert await layer.receive(name) == {"type": "read.once"}
    assert name in layer.channels  # kept for the consumer's next wait

    layer._next_sweep = 0.0  # no consumer came back for it by the next sweep
    layer._clean_expired()
    assert name not in layer.channels
    assert not layer.readers


async def test_a_cancelled_reader_leaves_the_queue_to_another_still_reading_it():
    layer = SweepingInMemoryChannelLayer()
    name = await layer.new_channel()
    readers = [asyncio.ensure_future(layer.receive(name)) for _ in range(2)]
    await asyncio.sleep(0)
    readers[0].cancel()
    with pytest.raises(asyncio.CancelledError):
        await readers[0]

    assert name in layer.channels
    await layer.send(name, {"type": "for.the.other"})
    assert await asyncio.wait_for(readers[1], 1) == {"type": "for.the.other"}
