"""A player who closed the table shows as away, and for how long, by their seat on the other
players' open tables: at once when they leave (the dots' small frame), and on any later
redraw with the time since."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.live import presence
from tests.games.conftest import start_table
from tests.realtime.conftest import open_socket, session_cookie, settled

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_player_who_closed_the_table_is_away_by_their_seat_with_how_long(
    alice, bob, monkeypatch
):
    clock = [1_700_000_000.0]
    monkeypatch.setattr(presence, "now", lambda: clock[0])
    duel = await database_sync_to_async(start_table)([alice, bob], name="Duel")
    alice_cookie = await database_sync_to_async(session_cookie)(alice)
    bob_cookie = await database_sync_to_async(session_cookie)(bob)
    alice_ws, first = await open_socket(f"/ws/games/{duel.pk}/", alice_cookie)
    assert '<span id="away-1" class="presence-away"></span>' in first  # bob never came
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", bob_cookie)
    await alice_ws.receive_from(timeout=5)  # bob's dot lights up
    await bob_ws.disconnect()
    left = await alice_ws.receive_from(timeout=5)
    # A departure redraws the table (it offers what to do about the absent player).
    assert 'id="presence-1" class="presence-dot"' in left
    assert 'id="away-1" class="presence-away"' in left
    assert ">away &lt;1 min</time>" in left
    assert 'id="table"' in left
    await alice_ws.disconnect()

    clock[0] += 3 * 60 + 20  # alice comes back later: bob's seat says how long
    alice_ws, again = await open_socket(f"/ws/games/{duel.pk}/", alice_cookie)
    assert 'data-away-for="200">away 3 min</time>' in again
    assert '<span id="away-0" class="presence-away"></span>' in again  # alice is here
    await alice_ws.disconnect()


async def test_a_player_who_comes_back_is_taken_off_the_away_panel(alice, bob):
    duel = await database_sync_to_async(start_table)([alice, bob], name="Duel")
    alice_cookie = await database_sync_to_async(session_cookie)(alice)
    bob_cookie = await database_sync_to_async(session_cookie)(bob)
    alice_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", alice_cookie)
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", bob_cookie)
    await alice_ws.receive_from(timeout=5)  # bob's dot lights up
    await bob_ws.disconnect()  # bob closes the table (a reload, a page of the lobby)
    left = await alice_ws.receive_from(timeout=5)
    assert 'id="absence-panel"' in left and "Away from the table: " in left
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", bob_cookie)
    back = await alice_ws.receive_from(timeout=5)
    assert 'id="table"' not in back  # a small frame: bob's dot and the away panel
    assert 'id="presence-1" class="presence-dot is-connected" hx-swap-oob="true"' in back
    assert '<div id="absence" class="absence" hx-swap-oob="true">' in back
    assert "Away from the table" not in back
    await bob_ws.disconnect()
    await alice_ws.disconnect()


async def test_the_away_panel_redrawn_for_a_returning_player_keeps_its_offers(
    alice, bob, carol, settings
):
    """The panel redrawn out of band draws its forms too (their addresses name the game)."""
    settings.COVER_GRACE_SECONDS = 0  # a bot may cover an absent player at once
    game = await database_sync_to_async(start_table)([alice, bob, carol], name="Three")
    cookies = [await database_sync_to_async(session_cookie)(u) for u in (alice, bob, carol)]
    path = f"/ws/games/{game.pk}/"
    alice_ws, _ = await open_socket(path, cookies[0])
    carol_ws, _ = await open_socket(path, cookies[2])
    await settled(alice_ws)  # carol's dot lit (a redraw coalesces what happened meanwhile)
    await carol_ws.disconnect()  # carol is away: alice may ask a bot to cover her
    frames = ""
    while "away from the table: bob, carol" not in frames.lower():  # bob never came
        frames += await alice_ws.receive_from(timeout=5)
    bob_ws, _ = await open_socket(path, cookies[1])  # bob comes: the panel, out of band
    back = ""
    while '<div id="absence" class="absence" hx-swap-oob="true">' not in back:
        back += await alice_ws.receive_from(timeout=5)
    assert f'action="/games/{game.pk}/cover/"' in back
    await bob_ws.disconnect()
    await alice_ws.disconnect()
