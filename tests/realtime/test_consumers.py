"""The websockets, through the real ASGI app (auth + origin check + routing).

Personas: alice organizes and sits in seat 0, bob in seat 1, dave is an outsider.
Every socket renders for its own user; events on the channel layer carry ids only.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import presence, realtime
from games.kinds.hundred_and_ten import engine
from games.models import Game, Membership
from games.services import lobby
from games.services import table as table_service
from tests.games.conftest import active_seat, choice_of, seat_game, start_table
from tests.realtime.conftest import (
    bid,
    calls_to,
    frames_until_quiet,
    open_socket,
    session_cookie,
    settled,
    socket,
    version_in,
)

pytestmark = pytest.mark.django_db(transaction=True)


connected = database_sync_to_async(presence.connected_user_ids)


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not found"
    return match.group(1)


def cards_in(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def hand_of(game: Game, seat: int) -> set[str]:
    state = table_service.load_state(game)
    return {engine.format_card(card) for card in state.hands[seat]}


async def next_redirect(ws) -> str:
    """The URL of the next redirect frame. A render already under way when the change
    committed may still send the room once before it (the next render sees the change)."""
    frame = await ws.receive_from(timeout=5)
    if frame.lstrip().startswith("<"):
        assert 'id="room"' in frame
        frame = await ws.receive_from(timeout=5)
    return str(json.loads(frame)["redirect"])


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


# --- rendering for its own user ---------------------------------------------------------------


async def test_each_socket_renders_its_own_hand_and_never_the_others(duel, cookies):
    alice_ws, alice_frame = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    bob_ws, bob_frame = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])
    hands = await database_sync_to_async(lambda: (hand_of(duel, 0), hand_of(duel, 1)))()
    alice_hand, bob_hand = hands
    assert alice_hand <= cards_in(alice_frame)
    assert not cards_in(alice_frame) & bob_hand
    assert bob_hand <= cards_in(bob_frame)
    assert not cards_in(bob_frame) & alice_hand
    await alice_ws.disconnect()
    await bob_ws.disconnect()


async def test_a_move_reaches_the_other_players_table_without_a_reload(duel, cookies, bob):
    alice_ws, first = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    assert version_in(first) == 0
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    pushed = await alice_ws.receive_from(timeout=5)
    assert version_in(pushed) == 1
    assert "Bob" in pushed and "15" in pushed
    await alice_ws.disconnect()


async def test_the_pushed_table_carries_a_working_csrf_token(duel, cookies, bob):
    from django.test import Client

    ws, frame = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])
    token = found(r'name="csrfmiddlewaretoken" value="([^"]+)"', frame)
    csrf_cookie = found(r"csrftoken=([^;]+)", cookies["bob"].decode())
    session = found(r"sessionid=([^;]+)", cookies["bob"].decode())

    def post():
        client = Client(enforce_csrf_checks=True)
        client.cookies["sessionid"] = session
        client.cookies["csrftoken"] = csrf_cookie
        return client.post(
            f"/games/{duel.pk}/move/",
            {"csrfmiddlewaretoken": token, "version": "0", "kind": "bid", "amount": "15"},
        )

    response = await database_sync_to_async(post)()
    assert response.status_code in (200, 302)
    assert (await database_sync_to_async(lambda: Game.objects.get(pk=duel.pk).version)()) == 1
    await ws.disconnect()


async def test_a_malformed_csrf_cookie_on_a_socket_still_gets_the_table(duel, cookies, bob):
    session = found(r"sessionid=([^;]+)", cookies["bob"].decode())
    ws, frame = await open_socket(
        f"/ws/games/{duel.pk}/", f"sessionid={session}; csrftoken=not!a*secret".encode()
    )
    assert version_in(frame) == 0
    assert found(r'name="csrfmiddlewaretoken" value="([^"]+)"', frame)
    await ws.disconnect()


async def test_every_reconnect_gets_the_current_table_at_once(duel, cookies, bob):
    ws, first = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    await ws.disconnect()
    await database_sync_to_async(bid)(duel.pk, bob, 15)  # missed while away
    ws, again = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    assert version_in(first) == 0
    assert version_in(again) == 1
    await ws.disconnect()


async def test_a_malformed_frame_is_ignored_and_the_socket_keeps_working(duel, cookies, bob):
    ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    await ws.send_to(text_data="{not json")
    await ws.send_to(text_data=json.dumps({"type": "game.changed", "kind": "play", "card": "JK"}))
    await ws.send_to(bytes_data=b"\x00\xff" * 100)
    assert await ws.receive_nothing(timeout=0.2)
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    assert version_in(await ws.receive_from(timeout=5)) == 1
    await ws.disconnect()


async def test_a_burst_of_changes_is_rendered_once_not_once_each(duel, cookies, monkeypatch):
    from games import consumers

    renders = []
    original = consumers.TableConsumer.page_frames

    def counting(self, game):
        renders.append(game.pk)
        time.sleep(0.05)  # a render as slow as a busy server's: the burst arrives meanwhile
        return original(self, game)

    monkeypatch.setattr(consumers.TableConsumer, "page_frames", counting)
    ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    renders.clear()
    layer = get_channel_layer()
    assert layer is not None
    for _ in range(20):
        event = {"type": "game.changed", "game_id": duel.pk}
        await layer.group_send(realtime.game_group(duel.pk), event)
    # Nothing changed for alice, so nothing is sent; and far fewer renders than events.
    assert await ws.receive_nothing(timeout=0.5)
    assert 1 <= len(renders) <= 5
    await ws.disconnect()


async def test_a_late_announcement_of_an_older_version_never_turns_the_table_back(
    duel, cookies, bob
):
    ws, first = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    assert version_in(first) == 0
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    assert version_in(await ws.receive_from(timeout=5)) == 1
    await settled(ws)
    # Another process's announcement of version 0 arrives after version 1 was shown.
    layer = get_channel_layer()
    assert layer is not None
    event = {"type": "game.changed", "game_id": duel.pk, "version": 0}
    await layer.group_send(realtime.game_group(duel.pk), event)
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


def play_one(game_id: int, rng: random.Random) -> str:
    """A random legal move by whoever is to act; the side key of the table after it."""
    from games.kinds.hundred_and_ten.table import TABLE

    game = Game.objects.get(pk=game_id)
    state = table_service.load_state(game)
    move = rng.choice(engine.perspective_of(state, state.active_seat).legal_moves)
    user = Membership.objects.get(game=game, seat=state.active_seat).user
    table_service.submit_move(
        game_id=game_id, user=user, choice=choice_of(move), seen_version=game.version
    )
    after = table_service.load_state(Game.objects.get(pk=game_id))
    return TABLE.side_key(engine.perspective_of(after, None))


async def test_the_shared_side_panel_is_pushed_only_when_a_trick_or_round_ends(duel, cookies):
    ws, first = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    assert 'id="table-side"' in first  # a new socket's page is brought fully up to date
    rng, shown = random.Random(5), found(r'data-side="([^"]+)"', first)
    changes = 0
    while changes < 2:  # a trick ends, then another
        key = await database_sync_to_async(play_one)(duel.pk, rng)
        frame = await ws.receive_from(timeout=5)
        assert 'id="table"' in frame
        if key == shown:
            assert 'id="table-side"' not in frame
        else:
            assert f'data-side="{key}"' in frame
            shown, changes = key, changes + 1
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


# --- presence ------------------------------------------------------------------------------------


async def test_presence_counts_each_users_sockets_and_tells_the_table(duel, cookies, alice, bob):
    alice_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    assert await connected(duel.pk, [alice.pk, bob.pk]) == {alice.pk}
    bob_tab1, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])
    bob_tab2, _ = await open_socket(f"/ws/games/{duel.pk}/room/", cookies["bob"])
    ids = await database_sync_to_async(presence.connected_user_ids)(duel.pk)
    assert ids == {alice.pk, bob.pk}
    await bob_tab1.disconnect()
    assert await connected(duel.pk, [alice.pk, bob.pk]) == {
        alice.pk,
        bob.pk,
    }
    await bob_tab2.disconnect()
    assert await connected(duel.pk, [alice.pk, bob.pk]) == {alice.pk}
    await alice_ws.disconnect()
    assert await connected(duel.pk, [alice.pk, bob.pk]) == set()


async def test_open_tables_keep_their_presence_fresh_with_one_heartbeat_per_game(
    duel, cookies, alice, bob, monkeypatch
):
    """One refresh per game and interval for all of a process's sockets on it (two tabs of
    alice's, one of bob's): on the event loop when in memory, in the render threads on Redis."""
    monkeypatch.setattr(presence, "HEARTBEAT", 0.05)
    touched = []
    original = presence.touch

    def touch(game_id, user_ids):
        touched.append((game_id, tuple(user_ids), threading.current_thread().name))
        return original(game_id, user_ids)

    monkeypatch.setattr(presence, "touch", touch)
    sockets = [
        (await open_socket(f"/ws/games/{duel.pk}/", cookies[name]))[0]
        for name in ("alice", "alice", "bob")
    ]
    both = (duel.pk, tuple(sorted([alice.pk, bob.pk])))

    def full() -> int:  # refreshes of both users in one call, once all sockets were open
        return sum(1 for game_id, users, _ in touched if (game_id, users) == both)

    for _ in range(100):  # bounded: a heartbeat every 0.05 s
        if full() >= 2:
            break
        await asyncio.sleep(0.05)
    while_open = list(touched)
    for ws in sockets:
        await ws.disconnect()
    assert full() >= 2
    assert {(game_id, users) for game_id, users, _ in while_open} <= {
        both,
        (duel.pk, (alice.pk,)),  # before bob's socket had opened
    }
    threads = {name for _, _, name in touched}
    if presence.in_process():  # the embedded default: no hop to a thread for a lookup
        assert threads == {threading.current_thread().name}
    else:  # Redis: I/O, in the render threads
        assert all(name.startswith("ws-render") for name in threads)
    # The last socket closed: the heartbeat stops (a refresh already handed to a render
    # thread may still begin: it is let through first).
    await asyncio.sleep(0.5)
    count = len(touched)
    await asyncio.sleep(0.3)
    assert len(touched) == count


async def test_the_table_shows_who_is_connected_redrawing_the_dots_or_the_table(duel, cookies):
    """An arrival redraws only the presence dots; a departure in a game in progress redraws
    the table, which now offers what to do about the absent player (games/_absence.html)."""
    alice_ws, first = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    assert 'id="presence-0" class="presence-dot is-connected"' in first  # alice herself
    assert 'id="presence-1" class="presence-dot"' in first  # bob is away
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])
    arrived = await alice_ws.receive_from(timeout=5)
    assert 'id="presence-1" class="presence-dot is-connected" hx-swap-oob="true"' in arrived
    assert 'id="table"' not in arrived  # a small frame, not the whole table
    await bob_ws.disconnect()
    left = await alice_ws.receive_from(timeout=5)
    assert 'id="table"' in left
    assert 'id="presence-1" class="presence-dot"' in left
    assert "to come back" in left and 'id="absence"' in left
    await alice_ws.disconnect()


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


async def test_a_bots_move_on_its_timer_is_pushed_live(alice, settings):
    from games import bots

    settings.BOT_DELAY_SECONDS = 1.0  # a visible pause: alice is connected before it ends
    cookie = await database_sync_to_async(session_cookie)(alice)
    game = await database_sync_to_async(start_table)([alice], bots=1, name="Versus bot")
    try:
        ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
        before = version_in(first)
        # The bot (left of the dealer) bids first, from a timer thread, not from a request.
        later = await ws.receive_from(timeout=10)
        assert version_in(later) > before
        await ws.disconnect()
    finally:
        bots.cancel_all()
