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
    assert not any(layer.channels.get(name) for name in names)  # nothing else queued


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
