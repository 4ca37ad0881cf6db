"""A move's pushes (its game's pages, the players' lobbies) go to the channel layer together,
in one hop (games.live.realtime.together): with no server loop in the process, one
`async_to_sync` instead of one per group, and each group is sent its event, in order. The
layer's `group_send` is recorded, not delivered: the same on both topologies."""

from __future__ import annotations

from typing import Any

import asgiref.sync
import pytest
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


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, dict[str, Any]]]:
    """What the channel layer was asked to send: (group, event), in order."""
    layer = get_channel_layer()
    assert layer is not None
    got: list[tuple[str, dict[str, Any]]] = []

    async def group_send(group: str, event: dict[str, Any]) -> None:
        got.append((group, event))

    monkeypatch.setattr(layer, "group_send", group_send)
    return got


def test_a_move_s_pushes_go_in_one_hop(
    alice, bob, carol, hops, sent, django_capture_on_commit_callbacks
):
    game = start_table([alice, bob, carol], target=60)
    seat = engine.perspective_of(states.load_state(game), None).active_seat
    assert seat is not None
    players = [alice, bob, carol]
    mover, following = players[seat], players[(seat + 1) % 3]
    hops.clear()
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table.submit_move(
            game_id=game.pk, user=mover, choice=bid_choice(15), seen_version=game.version
        )
    assert len(hops) == 1
    events = dict(sent)
    changed = events[realtime.game_group(game.pk)]
    assert (changed["type"], changed["version"]) == ("game.changed", game.version + 1)
    turn = events[realtime.user_group(following.pk)]
    assert (turn["type"], turn["turn_game"]) == ("lobby.changed", game.pk)
    assert sent[0][0] == realtime.game_group(game.pk)  # the pages first, then the lobbies


def test_pushes_inside_together_wait_for_its_end_and_keep_their_order(hops, sent):
    with realtime.together():
        for version in (1, 2, 3):
            realtime.game_changed(999, version)
        assert hops == [] and sent == []  # held until the end
    assert len(hops) == 1
    assert [event["version"] for _, event in sent] == [1, 2, 3]
