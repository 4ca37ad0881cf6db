"""The per-user websocket, through the real ASGI app: the your-turn banner (fresh or a
redraw, cleared once the player moved), invitation notices, the lobby lists live on the
lobby page only (a new public game reaches everyone there), and no render for a change this
page does not show.

Personas: alice organizes and sits in seat 0, bob in seat 1, dave is an outsider.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.live import realtime
from games.models import Game, Membership
from tests.games.conftest import active_seat, start_table
from tests.realtime.conftest import bid, calls_to, frames_until_quiet, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


# --- the per-user socket -------------------------------------------------------------------


def test_the_banner_lists_the_active_games_where_it_is_the_users_own_turn(alice, bob):
    from games.consumers import games_awaiting

    def bob_then_alice(name):  # seat 1 (alice) bids first
        game = start_table([bob, alice], name=name)
        assert active_seat(game) == 1
        return game

    start_table([alice, bob], name="Bob to bid")
    first = bob_then_alice("First")
    handed = bob_then_alice("Handed to the bot")
    Membership.objects.filter(game=handed, user=alice).update(automated=True)
    over = bob_then_alice("Over")
    Game.objects.filter(pk=over.pk).update(status=Game.Status.FINISHED)
    last = bob_then_alice("Last")
    assert games_awaiting(alice) == [(first.pk, "First"), (last.pk, "Last")]
    assert games_awaiting(bob) == [(Game.objects.get(name="Bob to bid").pk, "Bob to bid")]


def test_a_banner_is_drawn_once_for_everybody_it_tells_the_same(alice, bob, monkeypatch):
    """At a table where everybody acts at once, a new turn tells each player the same: the
    banner is drawn once (games/consumers/user.py `_banner`), per language."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.consumers import turn_banner_html, user

    user._banner.cache_clear()
    drawn: list[str] = []

    def counting(name, context, *args, **kwargs):
        drawn.append(name)
        return render_to_string(name, context, *args, **kwargs)

    monkeypatch.setattr("games.consumers.user.render_to_string", counting)
    game = start_table([alice, bob], kind="one-hundred-and-four", seed="banner")
    fresh = {game.pk}
    banners = [turn_banner_html(player, fresh=fresh) for player in (alice, bob, alice)]
    assert len(set(banners)) == 1 and drawn == ["games/_notices.html#turn_banner"]
    assert 'data-fresh="1"' in banners[0] and f'href="/games/{game.pk}/table/"' in banners[0]
    assert 'data-fresh="1"' not in turn_banner_html(alice)  # a redraw: another banner
    with translation.override("de"):
        german = turn_banner_html(bob, fresh=fresh)
    assert german != banners[0] and len(drawn) == 3


async def test_the_user_socket_tells_bob_it_is_his_turn_from_any_page(duel, cookies, alice, bob):
    # Bob bids first; then it is alice's turn; when alice passes, bob (the only bidder)...
    ws, first = await open_socket("/ws/user/", cookies["alice"])
    assert 'id="turn-banner"' in first and 'data-turn-count="0"' in first
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    # One frame: the new turn's banner, marked fresh (the page may chime and notify; a
    # mere redraw is not marked).
    pushed = await ws.receive_from(timeout=5)
    assert 'data-fresh="1"' in pushed
    assert 'data-turn-count="1"' in pushed
    assert "Your turn" in pushed and "Duel" in pushed
    assert f'href="/games/{duel.pk}/table/"' in pushed
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


async def test_a_change_that_shows_nowhere_on_this_page_costs_no_render(
    duel, cookies, alice, monkeypatch
):
    from games import consumers

    renders = calls_to(monkeypatch, consumers.UserConsumer, "render", lambda _, p, *__: set(p))
    ws, _ = await open_socket("/ws/user/", cookies["alice"])  # not the lobby page
    assert renders == [{"banner"}]  # the page's banner, on connect (no lobby lists here)
    layer = get_channel_layer()
    assert layer is not None
    # Somebody else's move: alice's lists changed (not shown here), her banner did not.
    event = {"type": "lobby.changed", "banner": False}
    await layer.group_send(realtime.user_group(alice.pk), event)
    assert await ws.receive_nothing(timeout=0.3)
    assert len(renders) == 1
    await ws.disconnect()


async def test_a_reconnecting_user_socket_redraws_the_banner_without_chiming(duel, cookies):
    ws, first = await open_socket("/ws/user/", cookies["bob"])  # bob is first to bid
    assert 'data-turn-count="1"' in first
    assert "data-fresh" not in first
    await ws.disconnect()


async def test_the_banner_clears_once_the_player_has_moved(duel, cookies, bob):
    ws, first = await open_socket("/ws/user/", cookies["bob"])
    assert 'data-turn-count="1"' in first
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    assert 'data-turn-count="0"' in await ws.receive_from(timeout=5)
    await ws.disconnect()


async def test_an_invitation_appears_as_a_notice_with_accept_and_decline(alice, bob):
    from games.services import lobby

    game = await database_sync_to_async(lobby.create_game)(
        organizer=alice, name="Friday", public=False, max_players=4
    )
    cookie = await database_sync_to_async(session_cookie)(bob)
    ws, _ = await open_socket("/ws/user/", cookie)
    invite = database_sync_to_async(lobby.invite)
    invitation = await invite(game_id=game.pk, by=alice, username="bob")
    frames = await ws.receive_from(timeout=5)
    if "invitation-notice" not in frames:  # the lobby change may come first
        frames += await ws.receive_from(timeout=5)
    assert f'id="invitation-notice-{invitation.pk}"' in frames
    assert "Alice" in frames and "Friday" in frames
    assert f'data-url="/games/{game.pk}/accept/"' in frames
    assert f'data-url="/games/{game.pk}/decline/"' in frames

    await database_sync_to_async(lobby.decline)(game_id=game.pk, user=bob)
    gone = await ws.receive_from(timeout=5)
    assert f'id="invitation-notice-{invitation.pk}" hx-swap-oob="delete"' in gone
    await ws.disconnect()


async def test_an_invitation_that_comes_while_a_render_waits_is_drawn_by_it(
    alice, bob, monkeypatch
):
    """A render waits for its session check; an invitation comes meanwhile, and the render
    takes it with the other news it hands over: it draws the notice then (before, it drew
    only the parts it had been asked for, and the notice was lost)."""
    from games.consumers import UserConsumer
    from games.services import lobby

    game = await database_sync_to_async(lobby.create_game)(
        organizer=alice, name="Friday", public=False, max_players=4
    )
    cookie = await database_sync_to_async(session_cookie)(bob)
    ws, _ = await open_socket("/ws/user/", cookie)
    gate = asyncio.Event()

    async def slow_session_check(self) -> bool:
        await gate.wait()
        return True

    monkeypatch.setattr(UserConsumer, "session_current", slow_session_check)
    layer = get_channel_layer()
    assert layer is not None
    # A move elsewhere redraws bob's banner: that render now waits for its session check.
    await layer.group_send(realtime.user_group(bob.pk), {"type": "lobby.changed"})
    await asyncio.sleep(0.1)
    invitation = await database_sync_to_async(lobby.invite)(
        game_id=game.pk, by=alice, username="bob"
    )
    await asyncio.sleep(0.2)  # the invitation's event has come
    gate.set()
    frames = "".join(await frames_until_quiet(ws))
    assert f'id="invitation-notice-{invitation.pk}"' in frames
    await ws.disconnect()


async def test_the_lobby_lists_refresh_live_on_the_lobby_page_only(alice, bob):
    from games.services import lobby

    cookie = await database_sync_to_async(session_cookie)(bob)
    on_lobby, first = await open_socket("/ws/user/?page=lobby", cookie)
    assert 'id="lobby-lists"' in first
    elsewhere, other = await open_socket("/ws/user/", cookie)
    assert 'id="lobby-lists"' not in other

    game = await database_sync_to_async(lobby.create_game)(
        organizer=alice, name="Friday", public=False, max_players=4
    )
    await database_sync_to_async(lobby.invite)(game_id=game.pk, by=alice, username="bob")
    frames = ""
    while 'id="lobby-lists"' not in frames:
        frames += await on_lobby.receive_from(timeout=5)
    lists = frames[frames.index('id="lobby-lists"') :]
    assert "Friday" in lists
    # The other page's socket got the notice, never the lists.
    assert 'id="lobby-lists"' not in await elsewhere.receive_from(timeout=5)
    await on_lobby.disconnect()
    await elsewhere.disconnect()


async def test_a_new_public_game_reaches_everyone_on_the_lobby(alice, dave):
    from games.services import lobby

    cookie = await database_sync_to_async(session_cookie)(dave)
    ws, first = await open_socket("/ws/user/?page=lobby", cookie)
    assert "Open to all" not in first
    await database_sync_to_async(lobby.create_game)(
        organizer=alice, name="Open to all", public=True, max_players=4
    )
    frames = ""
    while "Open to all" not in frames:
        frames += await ws.receive_from(timeout=5)
    assert 'id="lobby-lists"' in frames
    await ws.disconnect()


async def test_a_friend_coming_online_shows_in_the_lobby_at_once(alice, bob, carol):
    """Bob's lobby follows his friends coming online (no query on their request: each lobby
    socket joins its friends' groups); a stranger coming online tells it nothing."""
    from django.core.cache import cache
    from django.test import Client

    from games.live import online
    from tests.friends.conftest import befriend

    await database_sync_to_async(befriend)(alice, bob)
    cookie = await database_sync_to_async(session_cookie)(bob)
    await database_sync_to_async(cache.delete_many)(
        [online._online_key(alice.pk), online._online_key(carol.pk)]
    )
    ws, first = await open_socket("/ws/user/?page=lobby", cookie)
    assert "friend-status-offline" in first

    def comes_online(user):
        client = Client()
        client.force_login(user)
        assert client.get("/").status_code == 200

    await database_sync_to_async(comes_online)(carol)  # not bob's friend
    assert await ws.receive_nothing(timeout=0.5)
    await database_sync_to_async(comes_online)(alice)
    frame = await ws.receive_from(timeout=5)
    assert 'id="friends"' in frame and "friend-status-online" in frame
    assert "friend-status-offline" not in frame
    await ws.disconnect()


async def test_a_friend_going_offline_shows_in_the_lobby_when_their_time_is_up(alice, bob):
    """Nobody's request says goodbye (a stamp grows old): Bob's lobby redraws his friends
    when the first one shown online stops being so."""
    from django.core.cache import cache

    from games.live import online
    from tests.friends.conftest import befriend

    await database_sync_to_async(befriend)(alice, bob)
    cookie = await database_sync_to_async(session_cookie)(bob)
    # Alice was last seen almost ONLINE_SECONDS ago: online for half a second more.
    seen = online.now() - online.ONLINE_SECONDS + 0.5
    await database_sync_to_async(cache.set)(online._online_key(alice.pk), seen, 600)
    ws, first = await open_socket("/ws/user/?page=lobby", cookie)
    assert "friend-status-online" in first
    frame = await ws.receive_from(timeout=5)
    assert 'id="friends"' in frame and "friend-status-offline" in frame
    assert "friend-status-online" not in frame
    await ws.disconnect()
