"""Rated games ending at the same moment in two processes on PostgreSQL: each game is rated
exactly once and no update is lost (the rating rows are locked in one fixed order:
docs/ratings.md). tests/games/test_ratings_concurrency.py races threads in one process;
here two `manage.py shell` processes, each with its own connection to the test database,
end their games when the test says go."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games.models import BotRating, Rating, RatingChange
from games.services import seats
from tests.conftest import ROOT
from tests.games.test_ratings_concurrency import (
    KIND,
    almost_over,
    assert_both_rated_once,
    two_games_a_move_from_the_end,
)

pytestmark = [pytest.mark.scaleout, pytest.mark.django_db(transaction=True)]

# Each process waits for the go file, then hands the last person's seat of its game to a bot
# and ticks the sweep until no bot is due (tests/bots.py play_bots), which ends the game;
# it prints what happened on a line starting with RESULT. The library's update is slowed in
# both, so that the two games' rating updates overlap: without the row locks both would read
# the same ratings and one update would be lost.
ENDS = """
import json, os, time
from accounts.models import User
from games.services import seats
from games.services.errors import RefusedMove
from tests.bots import play_bots
from openskill.models import PlackettLuce

library_rate = PlackettLuce.rate

def slow_rate(self, *args, **kwargs):  # hold the window between reading and writing open
    time.sleep(1.5)
    return library_rate(self, *args, **kwargs)

PlackettLuce.rate = slow_rate
print("READY", flush=True)
while not os.path.exists({go!r}):
    time.sleep(0.002)
try:
    seats.automate(game_id={game}, user=User.objects.get(pk={user}))
    play_bots()
    print("RESULT" + json.dumps("ended"))
except RefusedMove as exc:
    print("RESULT" + json.dumps("refused: " + str(exc)))
"""


def this_tests_database() -> str:
    s = connection.settings_dict
    return f"postgresql://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


def at_once(tmp_path: Path, *ends: tuple[int, int]) -> list[str]:
    """Start one process per (game, user), wait until each is ready, then let all go."""
    go = tmp_path / "go"
    # No pause between bot moves (the test settings'): their moves are due at once.
    env = {**os.environ, "DATABASE_URL": this_tests_database(), "BOT_DELAY_SECONDS": "0"}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "shell",
                "--no-imports",
                "-c",
                ENDS.format(go=str(go), game=g, user=u),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for g, u in ends
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            said = [proc.stdout.readline()]
            while said[-1] and said[-1].strip() != "READY":  # until ready, or it ended
                said.append(proc.stdout.readline())
            assert said[-1].strip() == "READY", "".join(said)
        go.touch()
        results = []
        for proc in procs:
            out, _ = proc.communicate(timeout=120)
            assert proc.returncode == 0, out
            line = next(line for line in out.splitlines() if line.startswith("RESULT"))
            results.append(json.loads(line[len("RESULT") :]))
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()  # when it failed early: no pipe left for the next test
    return results


def test_two_processes_ending_games_together_rate_each_once(alice, bob, carol, tmp_path):
    assert connection.vendor == "postgresql"
    first, second = two_games_a_move_from_the_end(alice, bob, carol, "processes")
    # Their rating rows exist already (a first rating's insert would line the two up).
    for user in (alice, bob, carol):
        Rating.objects.create(kind=KIND, user=user)
    BotRating.objects.create(kind=KIND, level="hard")

    results = at_once(tmp_path, (first.pk, carol.pk), (second.pk, alice.pk))

    assert results == ["ended", "ended"]
    assert_both_rated_once((first, second), (alice, bob, carol))


def test_two_processes_ending_one_game_rate_it_once(alice, bob, tmp_path):
    game = almost_over([alice, bob], "processes-one")
    seats.automate(game_id=game.pk, user=alice)

    results = at_once(tmp_path, (game.pk, bob.pk), (game.pk, bob.pk))

    assert sorted(r.split(":")[0] for r in results) == ["ended", "refused"], results
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=bob, kind=KIND).games == 1
