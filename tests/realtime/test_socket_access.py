"""The websockets, through the real ASGI app (auth + origin check + routing): who may open
what. Signed-out visitors, other sites, outsiders of a private game and missing games are
refused; anybody signed in may watch a public table, without seeing a hand.

Personas: alice organizes and sits in seat 0, bob in seat 1, dave is an outsider.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.games.conftest import start_table
from tests.realtime.conftest import bid, cards_in, hand_of, open_socket, session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)


# --- who may open what ----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/ws/user/", "/ws/games/{id}/", "/ws/games/{id}/room/"])
async def test_a_signed_out_visitor_is_refused_everywhere(duel, path):
    ws = socket(path.format(id=duel.pk), cookie=None)
    connected, code = await ws.connect()
    assert not connected
    assert code == 4401


async def test_a_socket_from_another_site_is_refused(duel, cookies):
    ws = socket(
        f"/ws/games/{duel.pk}/", cookies["alice"], origin=(b"origin", b"http://evil.example")
    )
    connected, _ = await ws.connect()
    assert not connected
    ws = socket("/ws/user/", cookies["alice"], origin=None)
    connected, _ = await ws.connect()
    assert not connected


@pytest.mark.parametrize("path", ["/ws/games/{id}/", "/ws/games/{id}/room/"])
async def test_an_outsider_cannot_open_a_private_game_and_hears_nothing(duel, cookies, bob, path):
    ws = socket(path.format(id=duel.pk), cookies["dave"])
    connected, code = await ws.connect()
    assert not connected
    assert code == 4403
    # Not even after a move: the outsider was never added to the game's group.
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    assert await ws.receive_nothing(timeout=0.2)


async def test_a_socket_for_a_game_that_does_not_exist_is_refused(cookies):
    ws = socket("/ws/games/987654/", cookies["alice"])
    connected, code = await ws.connect()
    assert not connected
    assert code == 4403


async def test_anybody_signed_in_may_watch_a_public_table_without_seeing_a_hand(alice, bob, dave):
    game = await database_sync_to_async(start_table)([alice, bob], public=True, name="Open")
    cookie = await database_sync_to_async(session_cookie)(dave)
    ws, frame = await open_socket(f"/ws/games/{game.pk}/", cookie)
    hands = await database_sync_to_async(lambda: hand_of(game, 0) | hand_of(game, 1))()
    assert 'id="table"' in frame
    assert not cards_in(frame) & hands
    await ws.disconnect()
