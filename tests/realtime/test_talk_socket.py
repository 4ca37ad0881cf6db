"""Table talk over the game sockets (games/consumers/game.py `talk_said`): a line is a
fragment of its own appended to #chat-log (never a redraw of the table), sent to each
socket whose user may read it. The spectators' channel does not reach the players during
play; a private game's outsider hears nothing; a mute holds on the socket too.

alice (seat 0) and bob (seat 1) play a public, unrated duel; carol is an unseated invitee;
dave watches (or, at the private game, is an outsider).
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.live import realtime
from games.models import ChatMessage, Membership
from games.presenters import basis
from games.talk import service
from games.talk.models import Channel
from tests.games.conftest import start_table
from tests.realtime.conftest import open_socket, session_cookie, settled, socket

pytestmark = pytest.mark.django_db(transaction=True)


def say(game, user, text):
    service.say(game_id=game.pk, user=user, text=text, limiter=lambda: True)


def react(game, user, code):
    service.react(game_id=game.pk, user=user, code=code, limiter=lambda: True)


@database_sync_to_async
def a_duel(alice, bob, carol, **kwargs):
    game = start_table([alice, bob], name="Duel", rated="no", **kwargs)
    Membership.objects.create(game=game, user=carol, role="invitee")
    basis.clear_table_cache()  # as an invitation's new version would
    return game


@database_sync_to_async
def cookies_of(*users):
    return [session_cookie(user) for user in users]


async def sockets_for(game, *users):
    found = []
    for cookie in await cookies_of(*users):
        ws, _ = await open_socket(f"/ws/games/{game.pk}/", cookie)
        found.append(ws)
    await settled(*found)
    return found


async def test_a_message_reaches_every_page_as_a_fragment_of_its_own(alice, bob, carol, dave):
    game = await a_duel(alice, bob, carol, public=True)
    sockets = await sockets_for(game, alice, bob, carol, dave)
    await database_sync_to_async(say)(game, alice, "Good <b>luck</b>")
    for ws in sockets:
        frame = await ws.receive_from(timeout=5)
        assert 'hx-swap-oob="beforeend:#chat-log"' in frame
        assert "Good &lt;b&gt;luck&lt;/b&gt;" in frame
        assert 'id="table"' not in frame  # the table is not redrawn
        assert await ws.receive_nothing(timeout=0.2)


def drawn_per_socket(*args):
    raise AssertionError("a socket drew a line the sender had drawn")


@pytest.mark.parametrize("drawn_once", [True, False], ids=["drawn once", "left to each socket"])
async def test_the_spectators_channel_does_not_reach_the_players(
    alice, bob, carol, dave, monkeypatch, drawn_once
):
    if drawn_once:  # and no socket draws it again (games/talk/presenter.py drawn)
        monkeypatch.setattr("games.consumers.game.talk.pushed", drawn_per_socket)
    else:  # a sender hidden from very many: each socket draws it, with queries
        monkeypatch.setattr("games.talk.presenter.MOST_HIDING", -1)
    game = await a_duel(alice, bob, carol, public=True)
    a, b, c, d = await sockets_for(game, alice, bob, carol, dave)
    await database_sync_to_async(say)(game, dave, "bid high, Alice")
    for ws in (c, d):
        assert "bid high, Alice" in await ws.receive_from(timeout=5)
    for ws in (a, b):
        assert await ws.receive_nothing(timeout=0.3)


async def test_a_line_pushed_in_an_unknown_shape_is_drawn_by_each_socket(alice, bob, carol):
    """Another release's event (a rolling restart): each socket draws the line itself."""
    game = await a_duel(alice, bob, carol)
    a, b = await sockets_for(game, alice, bob)
    message = await database_sync_to_async(ChatMessage.objects.create)(
        game=game, user=alice, channel=Channel.PLAYERS, text="older shape", seat=0, at_action=0
    )
    event = {"type": "talk.said", "game_id": game.pk, "message_id": message.pk}
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(realtime.game_group(game.pk), {**event, "drawn": {"sender": alice.pk}})
    for ws in (a, b):
        assert "older shape" in await ws.receive_from(timeout=5)


async def test_a_reaction_pushes_a_bubble_by_the_senders_seat(alice, bob, carol):
    game = await a_duel(alice, bob, carol)
    a, b = await sockets_for(game, alice, bob)
    await database_sync_to_async(react)(game, bob, "well_played")
    for ws in (a, b):
        frame = await ws.receive_from(timeout=5)
        assert 'class="talk-bubble" data-seat="1"' in frame
        assert "Well played" in frame


async def test_an_outsider_of_a_private_game_hears_nothing(alice, bob, carol, dave):
    game = await a_duel(alice, bob, carol)
    (a,) = await sockets_for(game, alice)
    (dave_cookie,) = await cookies_of(dave)
    refused = socket(f"/ws/games/{game.pk}/", dave_cookie)
    connected, code = await refused.connect()
    assert not connected and code == 4403
    lobby, _ = await open_socket("/ws/user/", dave_cookie)
    await settled(lobby)
    await database_sync_to_async(say)(game, alice, "private words")
    assert "private words" in await a.receive_from(timeout=5)
    assert await lobby.receive_nothing(timeout=0.3)
    assert await refused.receive_nothing(timeout=0.1)


async def test_a_member_removed_since_the_socket_opened_hears_nothing_more(alice, bob, carol):
    game = await a_duel(alice, bob, carol)
    a, c = await sockets_for(game, alice, carol)
    await database_sync_to_async(Membership.objects.filter(game=game, user=carol).delete)()
    await database_sync_to_async(say)(game, alice, "now we are alone")
    assert "now we are alone" in await a.receive_from(timeout=5)
    assert await c.receive_nothing(timeout=0.3)


async def test_a_muted_player_is_not_pushed_to_the_one_who_muted(alice, bob, carol):
    game = await a_duel(alice, bob, carol)
    await database_sync_to_async(say)(game, bob, "first")
    await database_sync_to_async(service.mute)(
        game_id=game.pk, user=alice, other_id=bob.pk, muted=True
    )
    a, b = await sockets_for(game, alice, bob)
    await database_sync_to_async(say)(game, bob, "second")
    assert "second" in await b.receive_from(timeout=5)
    assert await a.receive_nothing(timeout=0.3)


async def test_the_waiting_room_gets_the_line_too(alice, bob):
    from games.services import lobby

    game = await database_sync_to_async(lobby.create_game)(
        organizer=alice, name="Soon", public=False, max_players=4
    )
    (cookie,) = await cookies_of(alice)
    room, _ = await open_socket(f"/ws/games/{game.pk}/room/", cookie)
    await settled(room)
    await database_sync_to_async(say)(game, alice, "waiting for Bob")
    frame = await room.receive_from(timeout=5)
    assert 'hx-swap-oob="beforeend:#chat-log"' in frame
    assert "waiting for Bob" in frame
    assert 'id="room"' not in frame


async def frames_until_quiet(ws, quiet=0.5):
    found = []
    while not await ws.receive_nothing(timeout=quiet):
        found.append(await ws.receive_from(timeout=5))
    return found


async def test_the_organizer_s_setting_redraws_each_page_s_composer(alice, bob, carol):
    game = await a_duel(alice, bob, carol)
    a, b, c = await sockets_for(game, alice, bob, carol)
    set_mode = database_sync_to_async(service.set_mode)
    await set_mode(game_id=game.pk, user=alice, mode="reactions")
    for ws in (a, b, c):
        frame = await ws.receive_from(timeout=5)
        assert 'id="chat-compose" hx-swap-oob="true"' in frame
        assert 'id="chat-text"' not in frame and "Reactions only" in frame
        assert 'id="table"' not in frame  # never a table redraw
    await set_mode(game_id=game.pk, user=alice, mode="on")
    on = {name: await ws.receive_from(timeout=5) for name, ws in (("a", a), ("b", b), ("c", c))}
    assert 'id="chat-text"' in on["b"] and "chat-reaction" in on["b"]
    assert "csrfmiddlewaretoken" in on["b"]  # the form works without script too
    assert "chat-reaction" not in on["c"]  # an unseated invitee: no reactions
    await set_mode(game_id=game.pk, user=alice, mode="off")
    off = await b.receive_from(timeout=5)
    assert 'id="chat-text"' not in off and "chat-reaction" not in off
    assert "turned table talk off" in off


async def test_a_render_under_way_does_not_bring_the_setting_of_before_back(
    alice, bob, carol, monkeypatch
):
    """A redraw that read the row before the organizer changed the setting, and finishes
    after: the composer the page keeps is the new one (before, the socket drew the new
    composer beside its render task, and the render under way then sent the old one: a CI
    failure in the browser)."""
    import threading

    from games.consumers.game import GameConsumer

    game = await a_duel(alice, bob, carol)
    (b,) = await sockets_for(game, bob)
    read, go = threading.Event(), threading.Event()
    read_game = GameConsumer.read_game

    def held(consumer):  # in the render pool's thread: the loop goes on meanwhile
        row = read_game(consumer)
        read.set()
        assert go.wait(10)
        return row

    monkeypatch.setattr(GameConsumer, "read_game", held)
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(
        realtime.game_group(game.pk), {"type": "game.started", "game_id": game.pk}
    )
    assert await asyncio.to_thread(read.wait, 10)  # the redraw read the row: talk on
    await database_sync_to_async(service.set_mode)(game_id=game.pk, user=alice, mode="reactions")
    await asyncio.sleep(0.3)  # the event reaches the socket while its render is held
    go.set()
    composers = [f for f in await frames_until_quiet(b) if 'id="chat-compose"' in f]
    assert composers, "the composer was not redrawn"
    assert 'id="chat-text"' not in composers[-1] and "Reactions only" in composers[-1]


async def test_a_rated_hand_s_first_move_closes_the_message_box_live(alice, bob, carol):
    from tests.talk.conftest import bid

    game = await database_sync_to_async(start_table)([alice, bob], name="Rated duel")
    a, b = await sockets_for(game, alice, bob)
    await database_sync_to_async(bid)(game, bob)
    frames = await frames_until_quiet(a)
    composer = [f for f in frames if 'id="chat-compose"' in f]
    assert len(composer) == 1 and 'id="chat-text"' not in composer[0]
    assert 'id="table"' in composer[0]  # with the table's redraw, drawn from its basis
    assert "chat-reaction" in composer[0]  # reactions stay
