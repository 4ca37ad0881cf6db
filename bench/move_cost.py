"""What does a move cost the table service? A Hundred and Ten game of four people played
through `games.services.table.submit_move` (each seat makes the naive bot's move; the target
out of reach), on a throwaway SQLite database with the in-memory channel layer: the median
milliseconds of a move (the transaction, the log row, the state, whose turn, the pushes
handed to the layer), after 100 moves to warm up.

Prints one JSON line. Compare two trees by running this script in each, alternately, from
the tree's folder (bench/results/undo.md):

    uv run --locked python bench/move_cost.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
WORKDIR = tempfile.mkdtemp(prefix="move-cost-")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)
os.environ["SQLITE_PATH"] = os.path.join(WORKDIR, "bench.sqlite3")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from accounts.models import User  # noqa: E402
from games.kinds.hundred_and_ten import engine  # noqa: E402
from games.models import Game, Membership  # noqa: E402
from games.services import states, table  # noqa: E402
from games.services.table import ActionChoice  # noqa: E402

WARM, MEASURED = 100, 500


def choice_of(move: engine.Move) -> ActionChoice:
    """The engine's own move, as the service takes a choice."""

    def choice(kind: object, seat: int) -> engine.Move:
        return move

    return choice


def main() -> None:
    call_command("migrate", verbosity=0)
    people = [
        User.objects.create_user(username=f"bench{i}", password=None, display_name=f"Bench {i}")
        for i in range(4)
    ]
    game = Game.objects.create(
        name="Move cost", organizer=people[0], seed="move-cost", options={"target": 1_000_000}
    )
    for seat, user in enumerate(people):
        role = "organizer" if seat == 0 else "player"
        Membership.objects.create(game=game, user=user, role=role, seat=seat)
    with transaction.atomic():
        table.begin(game)
    times = []
    for number in range(WARM + MEASURED):
        game.refresh_from_db()
        state = states.load_state(game)
        move = engine.suggestion(state)
        start = time.perf_counter()
        table.submit_move(
            game_id=game.pk,
            user=people[state.active_seat or 0],
            choice=choice_of(move),
            seen_version=game.version,
        )
        if number >= WARM:
            times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"move_ms": round(statistics.median(times), 3)}))


if __name__ == "__main__":
    main()
