"""A move's pushes (its game's pages, the players' lobbies) go to the channel layer together,
in one hop (games.live.realtime.together): with no server loop in the process, one
`async_to_sync` instead of one per group, and each group gets its event."""

from __future__ import annotations

from typing import Any

import asgiref.sync
import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.kinds.hundred_and_ten import engine
from games.live import realtime
from games.services import states, table
from tests.games.conftest import bid_choice, start_table


@pytest.fixture
def hops(monkeypatch):
    """Each hop to the channel layer from sync code (the coroutine function it runs)."""
    made = []
    real = asgiref.sync.async_to_sync

    def counted(func):
        made.append(func)
        return real(func)

    monkeypatch.setattr(realtime, "async_to_sync", counted)
    return made


def layer() -> Any:
    found = get_channel_layer()
    assert found is not None
    return found


def listening(group: str) -> str:
    channel = str(async_to_sync(layer().new_channel)())
    async_to_sync(layer().group_add)(group, channel)
    return channel


def received(channel: str) -> dict[str, Any]:
    return dict(async_to_sync(layer().receive)(channel))


def test_a_move_s_pushes_go_in_one_hop(alice, bob, carol, hops, django_capture_on_commit_callbacks):
    game = start_table([alice, bob, carol], target=60)
    seat = engine.perspective_of(states.load_state(game), None).active_seat
    assert seat is not None
    players = [alice, bob, carol]
    mover, following = players[seat], players[(seat + 1) % 3]
    page = listening(realtime.game_group(game.pk))
    lobby = listening(realtime.user_group(following.pk))
    hops.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table.submit_move(
            game_id=game.pk, user=mover, choice=bid_choice(15), seen_version=game.version
        )
    assert len(hops) == 1
    changed = received(page)
    assert (changed["type"], changed["version"]) == ("game.changed", game.version + 1)
    turn = received(lobby)
    assert (turn["type"], turn["turn_game"]) == ("lobby.changed", game.pk)


def test_pushes_inside_together_wait_for_its_end_and_keep_their_order(hops):
    channel = listening(realtime.game_group(999))
    with realtime.together():
        for version in (1, 2, 3):
            realtime.game_changed(999, version)
        assert hops == []  # held until the end
    assert len(hops) == 1
    assert [received(channel)["version"] for _ in range(3)] == [1, 2, 3]
