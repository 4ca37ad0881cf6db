"""The connection indicator's ping over a game's socket (games/consumers/live.py): a
{"ping": n} is answered with {"pong": n}; junk of every kind is ignored and the socket
keeps working (it still answers a ping, and still pushes the table).

Personas: alice plays in a game of Hundred and Ten with bots."""

from __future__ import annotations

import json

import pytest

from games.consumers import live
from tests.games.conftest import start_table
from tests.realtime.conftest import open_socket, session_cookie, settled

pytestmark = pytest.mark.django_db(transaction=True)

JUNK = [
    "not json",
    "{",
    "[1, 2, 3]",
    '"ping"',
    "null",
    "12",
    json.dumps({"ping": "x" * 150}),  # a string, not a number
    json.dumps({"ping": 1, "extra": True}),  # extra fields
    json.dumps({"ping": True}),  # a bool is not a number here
    json.dumps({"ping": -1}),
    json.dumps({"ping": 2**60}),
    json.dumps({"ping": 1.5}),
    json.dumps({"ping": None}),
    json.dumps({"ping": [1]}),
    json.dumps({"ping": {"ping": 1}}),
    json.dumps({"skip": 5}),  # the table's skip, of the wrong type
    "[" * 150 + "]" * 150,  # deep nesting
    "x" * 100_000,  # huge
    json.dumps({"ping": 1, "pad": "y" * 100_000}),  # a huge ping
    "\ud800",  # a lone surrogate
]


@pytest.fixture
def no_ping_pause(monkeypatch):
    monkeypatch.setattr(live, "PING_MIN_SECONDS", 0.0)


async def test_a_ping_is_answered_with_its_pong(alice, no_ping_pause):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(start_table)([alice], bots=3)
    cookie = await database_sync_to_async(session_cookie)(alice)
    ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
    assert 'id="table"' in first
    await settled(ws)
    await ws.send_to(text_data=json.dumps({"ping": 41}))
    assert json.loads(await ws.receive_from(timeout=5)) == {"pong": 41}
    await ws.disconnect()


async def test_junk_over_the_socket_is_ignored_and_the_socket_lives_on(alice, no_ping_pause):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(start_table)([alice], bots=3)
    cookie = await database_sync_to_async(session_cookie)(alice)
    ws, _ = await open_socket(f"/ws/games/{game.pk}/", cookie)
    await settled(ws)
    for junk in JUNK:
        await ws.send_to(text_data=junk)
    await ws.send_to(bytes_data=b"\x00\xff" * 1000)
    assert await ws.receive_nothing(timeout=0.5)  # no answer to any of it, and no close
    await ws.send_to(text_data=json.dumps({"ping": 7}))
    assert json.loads(await ws.receive_from(timeout=5)) == {"pong": 7}
    await ws.disconnect()


async def test_the_waiting_room_answers_pings_too_and_a_flood_gets_one_answer(alice):
    from channels.db import database_sync_to_async

    from tests.games.conftest import seat_game

    game = await database_sync_to_async(seat_game)([alice], 1)
    cookie = await database_sync_to_async(session_cookie)(alice)
    ws, _ = await open_socket(f"/ws/games/{game.pk}/room/", cookie)
    await settled(ws)
    for n in range(20):
        await ws.send_to(text_data=json.dumps({"ping": n}))
    assert json.loads(await ws.receive_from(timeout=5)) == {"pong": 0}
    assert await ws.receive_nothing(timeout=0.3)  # the rest came within PING_MIN_SECONDS
    await ws.disconnect()
