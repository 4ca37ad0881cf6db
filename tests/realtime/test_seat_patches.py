"""A change that only moves the seats' marks reaches the other players' table sockets as a
patch (games/consumers/marks.py): another player's commitment at One Hundred and Four, or
another player's pass at Hearts, sends that seat and the banner, not the whole table;
anything more sends the whole table (the commitment that closes a turn:
tests/realtime/test_steps.py)."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from games.consumers import marks
from games.live import presence
from games.models import Game
from games.presenters.context import table_context
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import start_table
from tests.games.table_helpers import post
from tests.games.test_hearts_table import codes, hand_of
from tests.realtime.conftest import frames_until_quiet, open_socket, session_cookie, version_in
from tests.realtime.test_steps import _choose

KIND = "one-hundred-and-four"
PATCH_VERSION = re.compile(r'data-table-version="(\d+)"')
CARD = re.compile(r'data-card="(\d+)"')
SWAPPED = re.compile(r'hx-swap-oob="outerHTML:#table ([^"]+)"')


@pytest.fixture
def four(db):
    return [make_user(name) for name in ("alice", "bob", "carol", "dave")]


def _all_present(game, users) -> None:
    """Everybody has the table open, as players do: a move then changes no one's presence
    (the absence panel is part of the whole table, and a mover counts as present)."""
    for user in users:
        presence.seen(game.pk, user.pk)


def _current(game_id: int) -> int:
    return Game.objects.get(pk=game_id).version


@pytest.mark.django_db(transaction=True)
async def test_another_players_commitment_is_a_patch_of_its_seat_and_the_banner(four):
    game = await database_sync_to_async(start_table)(four, kind=KIND, seed="patch")
    _all_present(game, four)
    cookie = await database_sync_to_async(session_cookie)(four[0])
    ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
    assert 'id="table"' in first
    mine = set(CARD.findall(first))
    bob = await database_sync_to_async(logged_in_client)(four[1])
    await database_sync_to_async(_choose)(bob, game, 1)
    frames = await frames_until_quiet(ws, quiet=0.5)
    assert len(frames) == 1
    frame = frames[0]
    now = await database_sync_to_async(_current)(game.pk)
    # Bob's seat (chosen, no longer to act) at the new version; nothing else. Alice has
    # still to choose: her banner says so already, and is not sent again.
    assert 'id="table"' not in frame
    assert SWAPPED.findall(frame) == [".seat[data-seat='1']"]
    assert set(PATCH_VERSION.findall(frame)) == {str(now)}
    assert "chosen" in frame and "seat-active" not in frame
    assert "turn-banner" not in frame
    assert not CARD.search(frame)  # no card at all: not bob's, not alice's
    assert len(frame) < len(first) / 4
    # Alice commits: her own table changes beyond the marks (her choice, her controls).
    alice = await database_sync_to_async(logged_in_client)(four[0])
    await database_sync_to_async(_choose)(alice, game, 0)
    frames = await frames_until_quiet(ws, quiet=0.5)
    assert len(frames) == 1 and version_in(frames[0]) == now + 1
    assert "You chose" in frames[0] and set(CARD.findall(frames[0])) <= mine
    # Then carol's commitment patches alice's page again: the banner names who is left.
    carol = await database_sync_to_async(logged_in_client)(four[2])
    await database_sync_to_async(_choose)(carol, game, 2)
    frames = await frames_until_quiet(ws, quiet=0.5)
    assert len(frames) == 1 and 'id="table"' not in frames[0]
    assert SWAPPED.findall(frames[0]) == [".seat[data-seat='2']", ".turn-banner"]
    assert "Waiting for Dave to choose a card." in frames[0]
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_another_players_pass_at_hearts_is_a_patch_too(four):
    game = await database_sync_to_async(start_table)(four, kind="hearts", seed="patch")
    _all_present(game, four)
    cookie = await database_sync_to_async(session_cookie)(four[0])
    ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
    assert 'id="table"' in first and "pass-form" in first

    def bob_passes() -> list[str]:
        cards: list[str] = codes(hand_of(game, 1)[:3])
        response = post(logged_in_client(four[1]), game, {"kind": "pass", "cards": cards})
        assert response.status_code == 200, response.content.decode()[:300]
        return cards

    passed = await database_sync_to_async(bob_passes)()
    frames = await frames_until_quiet(ws, quiet=0.5)
    assert len(frames) == 1
    frame = frames[0]
    assert 'id="table"' not in frame  # alice's ticks in her pass picker stay as they are
    # Her banner ("your turn: choose three cards…") says what it said: not sent again.
    assert SWAPPED.findall(frame) == [".seat[data-seat='1']"]
    assert "passed" in frame and "turn-banner" not in frame
    assert not set(passed) & set(re.findall(r'data-card="([^"]+)"', frame))
    await ws.disconnect()


def test_a_patch_only_when_nothing_but_the_seats_and_the_banner_changed(four):
    game = start_table(four, kind=KIND, seed="outline")
    before = table_context(game, four[0])
    drawn = marks.Drawn.of(before)
    assert marks.patch(drawn, before) is None  # the same version: nothing to patch
    later = {**before, "version": before["version"] + 1}
    patched = marks.patch(drawn, later)
    assert patched is not None
    frame, after = patched
    assert after.version == later["version"]
    assert SWAPPED.findall(frame) == [".turn-banner"]  # no seat changed
    # A seat's marks changed: its element, and the banner only if its words did.
    seats = [dict(s) for s in before["seats"]]
    seats[1]["active"] = not seats[1]["active"]
    moved = {**later, "seats": seats}
    frame, _ = marks.patch(drawn, moved) or ("", None)
    assert SWAPPED.findall(frame) == [".seat[data-seat='1']"]
    frame, _ = marks.patch(drawn, {**moved, "turn_text": "Waiting for Carol."}) or ("", None)
    assert SWAPPED.findall(frame) == [".seat[data-seat='1']", ".turn-banner"]
    assert "Waiting for Carol." in frame
    # Anything else the table draws makes it a whole table.
    for changed in (
        {"phase": "over"},
        {"my_turn": not before["my_turn"]},
        {"turn": "another decision"},
        {"watching": 3},
        {"side_key": "9.9.9.1"},
        {"step": 0},
        {"g": {**before["g"], "hand": []}},
        {"g": {**before["g"], "something new": 1}},
        {"a key added later": True},
    ):
        assert marks.patch(drawn, {**later, **changed}) is None, changed
    me = before["me"]
    me.automated = True  # the same membership row, now played by a bot
    assert marks.patch(drawn, later) is None
