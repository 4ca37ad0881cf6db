"""Presence through the websockets: each user's sockets are counted, open tables keep their
presence fresh with one heartbeat per game, and the table shows who is connected (an arrival
redraws the dots, a departure the table).

Personas: alice organizes and sits in seat 0, bob in seat 1, dave is an outsider.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from games.live import presence, sockets
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


connected = database_sync_to_async(presence.connected_user_ids)


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


async def test_the_process_knows_which_games_it_holds_sockets_of(duel, cookies):
    """What a commit builds for the redraws is built where a socket of the game is open
    (games/live/sockets.py): counted as each opens and closes, tables and rooms alike."""
    before = sockets.any_open(duel.pk)  # False, unless an earlier test left one of its id open
    table, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    room, _ = await open_socket(f"/ws/games/{duel.pk}/room/", cookies["bob"])
    assert sockets.any_open(duel.pk)
    await table.disconnect()
    assert sockets.any_open(duel.pk)
    await room.disconnect()
    assert sockets.any_open(duel.pk) == before


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
    tabs = [
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
    for ws in tabs:
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
