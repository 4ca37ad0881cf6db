"""The channel layer as configured (channels-redis's Pub/Sub layer, hundredten/settings.py)
against the real Redis: a consumer waiting with nothing to receive keeps waiting, past
redis-py's default 5 s read timeout, and gets the next message; a group message reaches every
member channel of the process once."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

pytestmark = pytest.mark.scaleout


async def test_a_quiet_receive_keeps_waiting_for_the_next_message() -> None:
    config = settings.CHANNEL_LAYERS["default"]
    assert config["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()

    async def send_later() -> None:
        await asyncio.sleep(6)  # longer than redis-py's 5 s read timeout, nothing to read
        await layer.send(channel, {"type": "game.changed", "version": 7})

    sender = asyncio.ensure_future(send_later())
    try:
        message = await asyncio.wait_for(layer.receive(channel), 15)
    finally:
        await sender
        await layer.flush()
    assert message == {"type": "game.changed", "version": 7}


async def test_a_group_message_reaches_each_member_once() -> None:
    layer = get_channel_layer()
    assert layer is not None
    members = [await layer.new_channel() for _ in range(3)]
    outsider = await layer.new_channel()
    for channel in members:
        await layer.group_add("game-77", channel)
    try:
        await layer.group_send("game-77", {"type": "game.changed", "version": 3})
        got = [await asyncio.wait_for(layer.receive(c), 5) for c in members]
        assert got == [{"type": "game.changed", "version": 3}] * 3
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(outsider), 0.5)
        with pytest.raises(asyncio.TimeoutError):  # once each, not twice
            await asyncio.wait_for(layer.receive(members[0]), 0.5)
    finally:
        await layer.flush()
