"""A resolution played out step by step on one socket (games/steps.py): which step a render
draws, how ticks and skips move it, and that a socket's first render never replays."""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.urls import reverse

from games.kinds.one_hundred_and_four.engine import RULES
from games.models import Membership
from games.presenters.context import table_context
from games.services import states
from games.steps import NO_STEPS, Steps
from tests.conftest import HX, logged_in_client, make_user
from tests.games.conftest import start_table
from tests.realtime.conftest import frames_until_quiet, open_socket, session_cookie

KIND = "one-hundred-and-four"


def test_the_first_render_shows_the_current_state_not_a_replay():
    steps = Steps()
    assert steps.step_for("0.3", 4) is None
    assert not steps.active


def test_a_new_resolution_is_played_from_step_0_to_the_current_state():
    steps = Steps()
    steps.step_for("0.0", 3)
    drawn = [steps.step_for("0.1", 3)]
    while steps.active:
        steps.advance()
        drawn.append(steps.step_for("0.1", 3))
    assert drawn == [0, 1, 2, None]
    assert steps.step_for("0.1", 3) is None  # once played out, it stays the current state


def test_renders_between_ticks_draw_the_same_step():
    steps = Steps()
    steps.step_for("a", 2)
    assert steps.step_for("b", 5) == 0
    assert steps.step_for("b", 5) == 0  # another player's commitment redraws: same step
    steps.advance()
    assert steps.step_for("b", 5) == 1


def test_skip_ends_the_replay_only_for_its_own_key():
    steps = Steps()
    steps.step_for("a", 2)
    steps.step_for("b", 4)
    assert not steps.skip("a")
    assert steps.active
    assert steps.skip("b")
    assert steps.step_for("b", 4) is None


def test_a_newer_resolution_replaces_the_one_being_played():
    steps = Steps()
    steps.step_for("a", 2)
    steps.step_for("b", 4)
    steps.advance()
    assert steps.step_for("c", 3) == 0


def test_nothing_to_play_out():
    steps = Steps()
    steps.step_for("a", 2)
    assert steps.step_for(*NO_STEPS) is None
    assert not steps.active


# --- on a table socket: One Hundred and Four's placements ---------------------------------

STEP = re.compile(r'data-step="([^"]+):(\d+)"')


def _choose_all_but(game, last_seat: int):
    """Every seat but `last_seat` commits its highest card; returns the clients."""
    users = [m.user for m in Membership.objects.filter(game=game).order_by("seat")]
    clients = [logged_in_client(user) for user in users]
    for seat, client in enumerate(clients):
        if seat != last_seat:
            _choose(client, game, seat)
    return clients


def _choose(client, game, seat: int) -> None:
    game.refresh_from_db()
    state = states.load_state(game)
    card = max(RULES.view(state, seat).hand)
    url = reverse("move", kwargs={"game_id": game.pk})
    response = client.post(
        url, {"version": game.version, "kind": "choose", "card": card}, headers=HX
    )
    assert response.status_code == 200, response.content.decode()[:300]


@pytest.fixture
def three(db):
    return [make_user(name) for name in ("alice", "bob", "carol")]


@pytest.mark.django_db(transaction=True)
async def test_the_last_commitment_plays_the_placements_out_one_step_at_a_time(three, settings):
    settings.TABLE_STEP_SECONDS = 0.05
    game = await database_sync_to_async(start_table)(three, kind=KIND, seed="steps")
    cookie = await database_sync_to_async(session_cookie)(three[1])
    ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
    assert not STEP.search(first)  # a fresh socket shows the current state
    clients = await database_sync_to_async(_choose_all_but)(game, 2)
    await frames_until_quiet(ws, quiet=0.5)  # the commitments' redraws
    await database_sync_to_async(_choose)(clients[2], game, 2)
    frames = await frames_until_quiet(ws, quiet=0.5)
    steps = [STEP.search(frame) for frame in frames]
    keys = {m.group(1) for m in steps if m}
    assert keys == {"0.0"}
    # Step 0 (the reveal), then one step per placement (3 cards), then the current state.
    assert [int(m.group(2)) for m in steps if m] == [0, 1, 2, 3]
    assert steps[-1] is None and 'data-round="2"' in frames[-1]
    assert "Cards revealed" in frames[0] and 'class="reveal-cards"' in frames[0]
    # Step 0 redraws the table; the later steps only the middle of the felt.
    assert 'id="table"' in frames[0]
    assert all(frame.startswith('<div id="center-area"') for frame in frames[1:-1])


@pytest.mark.django_db(transaction=True)
async def test_skip_jumps_to_the_current_state_and_junk_is_ignored(three, settings):
    settings.TABLE_STEP_SECONDS = 5  # slow: only a skip gets past step 0 in time
    game = await database_sync_to_async(start_table)(three, kind=KIND, seed="skip")
    cookie = await database_sync_to_async(session_cookie)(three[0])
    ws, _ = await open_socket(f"/ws/games/{game.pk}/", cookie)
    clients = await database_sync_to_async(_choose_all_but)(game, 1)
    await frames_until_quiet(ws)
    await database_sync_to_async(_choose)(clients[1], game, 1)
    frames = await frames_until_quiet(ws)
    step = STEP.search(frames[-1])
    assert step is not None and step.group(2) == "0"
    for junk in (" ", "not json", "[1, 2]", '{"skip": 7}', '{"skip": "9.9"}', "{" * 500):
        await ws.send_to(text_data=junk)
    assert await ws.receive_nothing(timeout=0.3)  # nothing moved, nothing broke
    await ws.send_to(text_data=json.dumps({"skip": step.group(1)}))
    after = await ws.receive_from(timeout=3)
    assert not STEP.search(after) and 'data-round="2"' in after


def test_a_later_steps_middle_is_the_same_from_the_lighter_context(three):
    """A later step redraws the felt's middle alone, drawn once from a spectator's chair (no
    seats, presence or offers): the same middle the viewer's whole context draws."""
    game = start_table(three, kind=KIND, seed="middle")
    clients = _choose_all_but(game, 1)
    _choose(clients[1], game, 1)
    game.refresh_from_db()
    light, whole = Steps(), Steps()
    for steps in (light, whole):
        steps.step_for("", 0)  # a socket that has drawn the table before the resolution
    middles = []
    for steps, middle_only in ((light, True), (whole, False)):
        assert table_context(game, three[0], steps=steps, middle_only=middle_only)["step"] == 0
        steps.advance()
        context = table_context(game, three[0], steps=steps, middle_only=middle_only)
        assert context["step"] == 1
        if middle_only:
            assert "seats" not in context
            middles.append(context["middle"])
        else:
            assert context["seats"]
            middles.append(render_to_string("games/table.html#center", context))
    assert middles[0] == middles[1] and "reveal-current" in middles[0]
