"""The lobby's new lists live: "Past games" and "Watch a game" are inside #lobby-lists, so the
user socket's pushes redraw them (games/consumers/user.py renders games/lobby.html#lists)."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from games.services import absence
from tests.games.conftest import start_table
from tests.realtime.conftest import open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def section(html: str, heading: str) -> str:
    match = re.search(rf"<h2[^>]*>{heading}</h2>(.*?)</section>", html, re.S)
    assert match, heading
    return match.group(1)


async def lists_with(ws, wanted):
    """The next pushed #lobby-lists for which `wanted(html)` holds."""
    while True:
        frame = await ws.receive_from(timeout=5)
        if 'id="lobby-lists"' in frame and wanted(frame):
            return frame


async def test_a_public_game_ending_moves_live_from_watching_to_past_games(alice, dave):
    game = await database_sync_to_async(start_table)([alice], bots=1, name="Solo", public=True)
    alice_ws, alice_first = await open_socket(
        "/ws/user/?page=lobby", await database_sync_to_async(session_cookie)(alice)
    )
    dave_ws, dave_first = await open_socket(
        "/ws/user/?page=lobby", await database_sync_to_async(session_cookie)(dave)
    )
    assert "Solo" in section(dave_first, "Watch a game")
    assert "Solo" not in section(alice_first, "Watch a game")  # her own game

    await database_sync_to_async(absence.abandon)(game_id=game.pk, by=alice)

    alice_lists = await lists_with(alice_ws, lambda html: "Solo" in section(html, "Past games"))
    assert "Abandoned" in section(alice_lists, "Past games")
    dave_lists = await lists_with(dave_ws, lambda html: "Solo" not in html)
    assert "No public games are being played" in section(dave_lists, "Watch a game")
    await alice_ws.disconnect()
    await dave_ws.disconnect()
