"""The table's websocket, through the real ASGI app: every socket renders for its own user
(its own hand, never another's; a working CSRF token), gets the current table on every
(re)connect, ignores malformed frames, renders a burst once, never turns the table back,
pushes the side panel only when it changed, and pushes a bot's move made on its timer.

Personas: alice organizes and sits in seat 0, bob in seat 1, dave is an outsider.
Events on the channel layer carry ids only.
"""

from __future__ import annotations

import json
import random
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.kinds.hundred_and_ten import engine
from games.live import realtime
from games.models import Game, Membership
from games.services import states
from games.services import table as table_service
from tests.games.conftest import choice_of, start_table
from tests.realtime.conftest import (
    bid,
    cards_in,
    hand_of,
    open_socket,
    session_cookie,
    settled,
    version_in,
)
from tests.servers import found

pytestmark = pytest.mark.django_db(transaction=True)


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
    state = states.load_state(game)
    move = rng.choice(engine.perspective_of(state, state.active_seat).legal_moves)
    user = Membership.objects.get(game=game, seat=state.active_seat).user
    assert user is not None  # a person's seat, not a bot's
    table_service.submit_move(
        game_id=game_id, user=user, choice=choice_of(move), seen_version=game.version
    )
    after = states.load_state(Game.objects.get(pk=game_id))
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


async def test_a_bots_move_made_by_the_sweep_is_pushed_live(alice, settings):
    from games.clocks import deadlines

    settings.BOT_DELAY_SECONDS = 1.0  # the bot's move falls due a pause after the start
    cookie = await database_sync_to_async(session_cookie)(alice)
    game = await database_sync_to_async(start_table)([alice], bots=1, name="Versus bot")
    ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
    before = version_in(first)
    # The bot (left of the dealer) bids first, made by the sweep, not by a request.
    later = timezone.now() + timedelta(seconds=2)
    assert await database_sync_to_async(deadlines.tick)(later) == 1
    frame = await ws.receive_from(timeout=10)
    assert version_in(frame) > before
    await ws.disconnect()
