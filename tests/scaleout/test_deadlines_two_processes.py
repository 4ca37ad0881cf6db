"""Two daphne processes on one PostgreSQL database both sweep for due deadlines: each
expired deadline is applied once (games/clocks/deadlines.py, games/services/seats.expire),
and each due bot move is made once (games/services/bot_moves.play_due: claimed, decided,
stored if the game has not moved)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.servers import shell_json
from tests.timeouts import SERVER_TIMEOUT

pytestmark = [pytest.mark.scaleout, pytest.mark.timeout(SERVER_TIMEOUT)]

GAMES = 24

SETUP = """
import json
from django.db import transaction
from accounts.models import User
from games.models import Game, Membership
from games.services import table

def person(name):
    return User.objects.filter(username=name).first() or User.objects.create_user(
        username=name, password="a-good-long-password-1")

alice, bob = person("{prefix}alice"), person("{prefix}bob")
ids = []
for n in range({count}):
    # A day per move: only the deadlines the test sets in the past fall due.
    game = Game.objects.create(name=f"Due {{n}}", organizer=alice, max_players=2,
                               move_seconds=86400, seed=f"due-{{n}}")
    Membership.objects.create(game=game, user=alice, seat=0, role="organizer")
    Membership.objects.create(game=game, user=bob, seat=1, role="player")
    with transaction.atomic():
        table.begin(game)
    ids.append(game.pk)
print("SETUP" + json.dumps({{"games": ids}}))
"""

EXPIRE_ALL = """
import json
from django.utils import timezone
from games.models import Membership
n = Membership.objects.filter(game_id__in={ids}, must_act=True).update(deadline=timezone.now())
print("SETUP" + json.dumps({{"expired": n}}))
"""

STATE = """
import json
from games.models import Game, GameAction, Membership
games = Game.objects.filter(pk__in={ids})
print("SETUP" + json.dumps({{
    "actions": {{str(g.pk): GameAction.objects.filter(game=g).count() for g in games}},
    "counts": {{str(g.pk): g.action_count for g in games}},
    "automated": Membership.objects.filter(game_id__in={ids}, automated=True).count(),
    "due": Membership.objects.filter(game_id__in={ids}, must_act=True,
                                     deadline__isnull=False, automated=False).count(),
}}))
"""


def test_each_expired_deadline_is_applied_once_by_two_processes(two_servers) -> None:
    env, _, _ = two_servers
    ids = shell_json(env, SETUP.format(prefix="due-", count=GAMES))["games"]
    # Every game's deadline falls due at the same moment: both sweeps see all of them.
    assert shell_json(env, EXPIRE_ALL.format(ids=ids))["expired"] == GAMES
    state: dict[str, Any] = {}
    for _ in range(60):
        state = shell_json(env, STATE.format(ids=ids))
        if state["automated"] == GAMES:
            break
        time.sleep(0.5)
    assert state["automated"] == GAMES, state
    # One move per game (the timed-out seat's bot), never two; the log matches the count.
    assert set(state["actions"].values()) == {1}, state
    assert state["counts"] == state["actions"]
    # The next seat waits on its own fresh day-long clock.
    assert state["due"] == GAMES


BOT_SETUP = """
import json
from django.db import transaction
from accounts.models import User
from games.models import Game, Membership
from games.services import table

alice = User.objects.filter(username="bots-alice").first() or User.objects.create_user(
    username="bots-alice", password="a-good-long-password-1")
ids = []
for n in range({count}):
    # Hearts: three bots and alice pass at once. Made with a long pause between machine
    # moves, so nothing is played here and the bots' moves wait for the test's moment.
    game = Game.objects.create(name=f"Bots {{n}}", kind="hearts", options={{"target": 100}},
                               organizer=alice, max_players=4, seed=f"bots-{{n}}")
    Membership.objects.create(game=game, user=alice, seat=0, role="organizer")
    for seat in (1, 2, 3):
        Membership.objects.create(game=game, seat=seat, role="player", bot="medium",
                                  bot_name=f"Bot {{seat}}")
    with transaction.atomic():
        table.begin(game)
    ids.append(game.pk)
print("SETUP" + json.dumps({{"games": ids}}))
"""

BOTS_DUE = """
import json
from django.utils import timezone
from games.models import Membership
due = Membership.objects.filter(game_id__in={ids}, must_act=True).exclude(bot="")
print("SETUP" + json.dumps({{"due": due.update(deadline=timezone.now())}}))
"""

BOT_STATE = """
import json
from collections import Counter
from games.models import GameAction
seats = Counter(GameAction.objects.filter(game_id__in={ids}).values_list("game_id", "seat"))
print("SETUP" + json.dumps({{"moves": [[g, s, n] for (g, s), n in seats.items()]}}))
"""


def test_each_due_bot_move_is_made_once_by_two_processes(two_servers) -> None:
    env, _, _ = two_servers
    setup_env = {**env, "BOT_DELAY_SECONDS": "3600"}
    ids = shell_json(setup_env, BOT_SETUP.format(count=GAMES))["games"]
    # Every bot's pass falls due at the same moment: both sweeps see all of them.
    assert shell_json(env, BOTS_DUE.format(ids=ids))["due"] == 3 * GAMES
    moves: list[list[int]] = []
    for _ in range(60):
        moves = shell_json(env, BOT_STATE.format(ids=ids))["moves"]
        if len(moves) == 3 * GAMES:
            break
        time.sleep(0.5)
    # Each bot passed once in each game (alice's pass waits for her), never twice.
    assert sorted((g, s) for g, s, _ in moves) == [(g, s) for g in sorted(ids) for s in (1, 2, 3)]
    assert {n for _, _, n in moves} == {1}, moves
