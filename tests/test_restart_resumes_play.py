"""After a restart, what was due happens with no page open: a bot whose turn it was plays,
and a seat whose clock ran out while the server was down is played by its bot.

A real daphne process is started, stopped, the game is left in that state in its database
(as a shutdown mid-game leaves it), and a new daphne is started: nobody opens the table or a
socket; the database alone shows the moves being made (games/clocks/deadlines.py).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.servers import manage, server_env, shell_json, start_daphne, stop_daphne
from tests.timeouts import SERVER_TIMEOUT

# It starts, kills and restarts daphne: the limit of a test of real server processes.
pytestmark = pytest.mark.timeout(SERVER_TIMEOUT)

SETUP = """
import json
from datetime import timedelta
from django.db import transaction
from django.utils import timezone
from accounts.models import User
from games.models import Game, Membership
from games.services import table

def person(name):
    return User.objects.create_user(username=name, password="a-good-long-password-1")

def game_of(name, humans, bots, seconds):
    game = Game.objects.create(name=name, organizer=humans[0], max_players=len(humans) + bots,
                               move_seconds=seconds, seed=name)
    for seat, user in enumerate(humans):
        Membership.objects.create(game=game, user=user, seat=seat,
                                  role="organizer" if seat == 0 else "player")
    for i in range(bots):
        Membership.objects.create(game=game, role="player", seat=len(humans) + i,
                                  bot="naive", bot_name=f"Bot {i}")
    with transaction.atomic():
        table.begin(game)
    return game

alice, bob, carol = person("alice"), person("bob"), person("carol")
# One human and three bots, waiting for a bot (the human passes first if it was theirs).
bots = game_of("bots", [alice], 3, 0)
waiting = Membership.objects.filter(game=bots, must_act=True).first()
if waiting.user_id is not None:
    from games.kinds.hundred_and_ten import engine
    bots.refresh_from_db()
    table.submit_move(game_id=bots.pk, user=alice, seen_version=bots.version,
                      choice=lambda kind, seat: engine.Bid(seat, 0))
# Two humans on a 30 s clock; the one to act ran out while the server was down.
clocked = game_of("clocked", [bob, carol], 0, 30)
past = timezone.now() - timedelta(seconds=5)
Membership.objects.filter(must_act=True).update(deadline=past)  # both overdue now
print("SETUP" + json.dumps({"bots": bots.pk, "clocked": clocked.pk,
    "bots_count": Game.objects.get(pk=bots.pk).action_count}))
"""

STATE = """
import json
from games.models import Game, Membership
print("SETUP" + json.dumps({
    str(g.pk): [g.action_count, list(Membership.objects.filter(game=g, automated=True)
                                     .values_list("seat", flat=True))]
    for g in Game.objects.all()}))
"""


def test_a_restarted_server_plays_what_is_due_without_anyone_looking(tmp_path: Path) -> None:
    # Bots wait 5 s between moves in the setup process, so it exits before playing any.
    env = server_env(tmp_path, BOT_DELAY_SECONDS="5")
    manage(env, "migrate", "--noinput", "-v0")
    if env.get("DATABASE_URL"):
        manage(env, "flush", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    proc, _ = start_daphne(env, tmp_path / "first.log")
    stop_daphne(proc)  # a server went down...
    ids = shell_json(env, SETUP)  # ...leaving a bot to play and a clock run out
    before = shell_json(env, STATE)
    assert before[str(ids["bots"])][0] == ids["bots_count"]
    assert before[str(ids["clocked"])] == [0, []]

    proc, _ = start_daphne(env, tmp_path / "second.log")  # ...and comes back
    try:
        state = before
        for _ in range(60):
            state = shell_json(env, STATE)
            if state[str(ids["bots"])][0] > ids["bots_count"] and state[str(ids["clocked"])][0]:
                break
            time.sleep(0.5)
    finally:
        stop_daphne(proc)
    assert state[str(ids["bots"])][0] > ids["bots_count"], "the bots did not resume"
    moves, away = state[str(ids["clocked"])]
    assert moves == 1, "the overdue seat was not played exactly once"
    assert len(away) == 1, "the seat whose clock ran out is not marked as played by a bot"
    log = (tmp_path / "second.log").read_text()
    assert "Traceback" not in log, log
