"""Where a move's redraws run: on the event loop itself when everything they draw is held in
this process's memory (the game's version or the one before it, and presence), else in the
render threads. The hop to a thread and back costs about as much as a small table's render
(bench/results/realtime.md), and with Redis it is taken once per socket and move.
"""

from __future__ import annotations

import threading

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.live import presence, realtime
from games.live.committed import game_identity
from games.models import Game
from games.presenters import basis
from tests.games.conftest import active_seat
from tests.realtime.conftest import bid, calls_to, open_socket, settled, version_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def render_threads(monkeypatch) -> list[str]:
    """The thread of every table or waiting-room render from now on."""
    from games import consumers

    return calls_to(
        monkeypatch, consumers.GameConsumer, "render", lambda *_: threading.current_thread().name
    )


def hold_presence(game: Game) -> None:
    """What this process's first render of the game after news reads (in a thread): the
    seated users' counts and the watchers."""
    seated = [m.user_id for m in game.memberships.filter(seat__isnull=False) if m.user_id]
    presence.presence_of(game.pk, seated)
    presence.watchers(game.pk, seated)


async def test_a_moves_redraws_in_the_process_that_made_it_read_no_game_row(
    duel, cookies, bob, monkeypatch
):
    from games import consumers

    reads = calls_to(monkeypatch, consumers.GameConsumer, "read_game", lambda c: c.user.username)
    alice_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])
    await settled(alice_ws, bob_ws)
    assert reads  # connecting (and presence) read the row
    reads.clear()
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    assert version_in(await alice_ws.receive_from(timeout=5)) == 1
    assert version_in(await bob_ws.receive_from(timeout=5)) == 1
    assert reads == []  # the row of version 1 came with the table basis the move built
    await alice_ws.disconnect()
    await bob_ws.disconnect()


async def test_a_moves_redraws_run_on_the_event_loop_when_presence_is_held_here(
    duel, cookies, bob, render_threads
):
    alice_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])
    await settled(alice_ws, bob_ws)
    assert render_threads and all(name.startswith("ws-render") for name in render_threads)
    render_threads.clear()
    # With the counts in Redis, the renders that followed the connects read them; which of
    # them was kept depends on the order news and reads met. Read them once more.
    await database_sync_to_async(hold_presence)(duel)
    assert presence.held(duel.pk)
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    assert version_in(await alice_ws.receive_from(timeout=5)) == 1
    assert version_in(await bob_ws.receive_from(timeout=5)) == 1
    assert render_threads == [threading.current_thread().name] * 2  # this test's event loop
    await alice_ws.disconnect()
    await bob_ws.disconnect()


async def test_without_a_recent_read_of_shared_presence_the_redraws_run_in_the_threads(
    duel, cookies, alice, bob, render_threads, monkeypatch
):
    monkeypatch.setattr(presence, "in_process", lambda: False)  # as with Redis
    alice_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])
    await settled(alice_ws, bob_ws)
    presence.forget(duel.pk)  # news came (or the read expired)
    assert not presence.held(duel.pk)
    render_threads.clear()
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    assert version_in(await alice_ws.receive_from(timeout=5)) == 1
    assert version_in(await bob_ws.receive_from(timeout=5)) == 1
    # The first redraw reads presence in a render thread, none being held here. A socket
    # whose redraw starts after that read (Channels' dispatch hands each event to a thread
    # first, so the two sockets' events may come one after the other) may draw on the loop.
    assert len(render_threads) == 2 and render_threads[0].startswith("ws-render")
    # That render read presence again, and kept it: the next move's redraw needs no thread.
    assert presence.held(duel.pk)
    game = await database_sync_to_async(Game.objects.get)(pk=duel.pk)
    seat = await database_sync_to_async(active_seat)(game)
    mover = alice if seat == 0 else bob
    await database_sync_to_async(bid)(duel.pk, mover, 20)
    assert version_in(await alice_ws.receive_from(timeout=5)) == 2
    assert version_in(await bob_ws.receive_from(timeout=5)) == 2
    assert render_threads[2:] == [threading.current_thread().name] * 2
    await alice_ws.disconnect()
    await bob_ws.disconnect()


async def test_a_move_another_process_made_is_followed_and_drawn_on_the_event_loop(
    duel, cookies, bob, render_threads, monkeypatch
):
    from games import consumers

    alice_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["alice"])
    bob_ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookies["bob"])  # bob is here
    await settled(alice_ws, bob_ws)
    await database_sync_to_async(hold_presence)(duel)
    announced = []
    monkeypatch.setattr(
        realtime,
        "game_changed",
        lambda game_id, version, change=None: announced.append((game_id, version, change)),
    )
    await database_sync_to_async(bid)(duel.pk, bob, 15)
    (game_id, version, change) = announced[-1]
    # This process did not make the move: it keeps the table of version 0 only.
    moved = await database_sync_to_async(Game.objects.get)(pk=duel.pk)
    basis._BASES.forget((*game_identity(moved), version))
    reads = calls_to(monkeypatch, consumers.GameConsumer, "read_game", lambda c: 0)
    render_threads.clear()

    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(
        realtime.game_group(game_id),
        {"type": "game.changed", "game_id": game_id, "version": version, "change": change},
    )
    frame = await alice_ws.receive_from(timeout=5)
    assert version_in(frame) == 1 and "Bob" in frame
    assert version_in(await bob_ws.receive_from(timeout=5)) == 1
    # The first redraw followed the move; the second found the version it built.
    assert render_threads == [threading.current_thread().name] * 2 and reads == []
    await alice_ws.disconnect()
    await bob_ws.disconnect()
