"""The waiting room's websocket, through the real ASGI app: the room is live, the start
sends everyone to the table, and a player removed from a private game is sent away and the
socket closed.

Personas: alice organizes and sits in seat 0, bob in seat 1, dave is an outsider.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games.models import Membership
from games.services import lobby
from tests.games.conftest import seat_game
from tests.realtime.conftest import open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def next_redirect(ws) -> str:
    """The URL of the next redirect frame. A render already under way when the change
    committed may still send the room once before it (the next render sees the change)."""
    frame = await ws.receive_from(timeout=5)
    if frame.lstrip().startswith("<"):
        assert 'id="room"' in frame
        frame = await ws.receive_from(timeout=5)
    return str(json.loads(frame)["redirect"])


# --- the waiting room -------------------------------------------------------------------------


async def test_the_waiting_room_is_live_and_the_start_sends_everyone_to_the_table(alice, bob):
    from games.services import lobby

    game = await database_sync_to_async(lobby.create_game)(
        organizer=alice, name="Friday", public=False, max_players=4
    )
    cookie = await database_sync_to_async(session_cookie)(alice)
    ws, first = await open_socket(f"/ws/games/{game.pk}/room/", cookie)
    assert 'id="room"' in first and "Bob" not in first

    await database_sync_to_async(lobby.invite)(game_id=game.pk, by=alice, username="bob")
    pushed = await ws.receive_from(timeout=5)
    assert 'id="room"' in pushed and "Bob" in pushed

    await database_sync_to_async(lobby.accept)(game_id=game.pk, user=bob)
    assert "Bob" in await ws.receive_from(timeout=5)

    await database_sync_to_async(lobby.start_game)(game_id=game.pk, by=alice)
    assert await next_redirect(ws) == f"/games/{game.pk}/table/"
    await ws.disconnect()


async def test_a_player_removed_from_a_private_game_is_sent_away_and_closed(alice, bob, carol):
    game = await database_sync_to_async(seat_game)([alice, bob, carol], name="Three")
    cookie = await database_sync_to_async(session_cookie)(carol)
    ws, first = await open_socket(f"/ws/games/{game.pk}/room/", cookie)

    def remove_carol() -> None:
        member = Membership.objects.get(game=game, user=carol)
        lobby.remove(game_id=game.pk, by=alice, membership_id=member.pk)

    await database_sync_to_async(remove_carol)()
    assert await next_redirect(ws) == "/"
    assert (await ws.receive_output(timeout=5))["type"] == "websocket.close"


async def test_the_chat_panel_s_list_of_people_follows_who_sits_down(alice, bob):
    """The chat panel is outside the room's redraw: its "At the table" list (with a mute
    button each) is sent out of band when the seats change, and only then; the composer
    with the first frame."""
    game = await database_sync_to_async(lobby.create_game)(
        organizer=alice, name="Friday", public=False, max_players=4
    )
    cookie = await database_sync_to_async(session_cookie)(alice)
    ws, first = await open_socket(f"/ws/games/{game.pk}/room/", cookie)
    assert 'id="chat-people" hx-swap-oob="true"' in first and "Mute Bob" not in first
    # The composer too: a page whose socket was down when the organizer changed the table
    # talk setting gets it again with the reconnect's first frame.
    assert 'id="chat-compose" hx-swap-oob="true"' in first

    await database_sync_to_async(lobby.invite)(game_id=game.pk, by=alice, username="bob")
    invited = await ws.receive_from(timeout=5)
    assert "Bob" in invited and 'id="chat-people"' not in invited  # nobody sat down

    await database_sync_to_async(lobby.accept)(game_id=game.pk, user=bob)
    seated = await ws.receive_from(timeout=5)
    people = seated[seated.index('id="chat-people"') :]
    assert 'aria-label="Mute Bob"' in people
    await ws.disconnect()
