"""How much does loading a game for a request cost as the game grows?

Plays one 4-seat game through `games.services.table.submit_move` (every seat chooses the
naive bot's move; the target score is set out of reach so the game keeps going) on a
throwaway SQLite database, and at 50, 400 and 1,600 actions measures:

* `load_state` when this process made the move (the state is kept: no query);
* `load_state` from the latest snapshot (parsed once per process) + the actions after it
  (another process made the move, or the state was evicted);
* the same in a fresh process (the snapshot fetched and parsed too);
* a full replay of the whole log from Snapshot(seq=0) (what we avoid);
* `table_context` + rendering the `#table` partial for a player, with the table's shared
  parts (members, names, side panel) already built for this version, and without.

Writes bench/results/load_cost.md. Run: `uv run --locked python bench/load_cost.py`.
"""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORKDIR = tempfile.mkdtemp(prefix="load-cost-")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)
os.environ["SQLITE_PATH"] = os.path.join(WORKDIR, "bench.sqlite3")
os.environ.setdefault("DEBUG", "1")
os.environ["BOT_DELAY_SECONDS"] = "0"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")

import warnings  # noqa: E402

import django  # noqa: E402

django.setup()
# Rendering outside a request: the partial's {% csrf_token %} has no token to print.
warnings.filterwarnings("ignore", message=".*csrf_token.*")

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402

from accounts.models import User  # noqa: E402
from games.kinds.hundred_and_ten import engine  # noqa: E402
from games.models import Game, GameAction, Membership, Snapshot  # noqa: E402
from games.presenters import basis  # noqa: E402
from games.presenters.context import table_context  # noqa: E402
from games.services import states, table  # noqa: E402
from games.services.table import ActionChoice  # noqa: E402

CHECKPOINTS = (50, 400, 1600)
REPEATS = 200


def choice_of(move: engine.Move) -> ActionChoice:
    """The engine's own move, as the service takes a choice (games/services/table.py)."""
    return lambda kind, seat: move


def render_for(game: Game, user: User) -> str:
    return render_to_string("games/table.html#table", table_context(game, user))


def median_ms(function: object, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def replay_from_snapshot(game: Game) -> engine.GameState:
    """load_state with the snapshot parsed but the exact state not kept (another process
    made the move): forget just that one state, then load."""
    states.STATES.forget(states._key(game, game.action_count))
    return states.load_state(game)


def full_replay(game: Game) -> engine.GameState:
    initial = engine.state_from_json(Snapshot.objects.get(game=game, seq=0).state)
    moves = GameAction.objects.filter(game=game).order_by("seq").values_list("move", flat=True)
    return engine.replay(initial, (engine.move_from_json(m) for m in moves))


def main() -> None:
    call_command("migrate", verbosity=0)
    users = [
        User.objects.create_user(username=f"bench{i}", password=None, display_name=f"Bench {i}")
        for i in range(4)
    ]
    game = Game.objects.create(
        name="Load cost", organizer=users[0], seed="load-cost", options={"target": 1_000_000}
    )
    for seat, user in enumerate(users):
        Membership.objects.create(
            game=game, user=user, role="organizer" if seat == 0 else "player", seat=seat
        )
    with transaction.atomic():
        table.begin(game)
    rows = []
    actions = 0
    for checkpoint in CHECKPOINTS:
        while actions < checkpoint:
            game.refresh_from_db()
            state = states.load_state(game)
            user = users[state.active_seat or 0]
            table.submit_move(
                game_id=game.pk,
                user=user,
                choice=choice_of(engine.suggestion(state)),
                seen_version=game.version,
            )
            actions += 1
        game.refresh_from_db()
        state = states.load_state(game)
        assert state == full_replay(game)
        latest = Snapshot.objects.filter(game=game).order_by("-seq").first()
        assert latest is not None
        replayed = actions - latest.seq
        rows.append(
            {
                "actions": actions,
                "rounds": state.round_index + 1,
                "replayed": replayed,
                "hit": median_ms(lambda: states.load_state(game)),
                "load": median_ms(lambda: replay_from_snapshot(game)),
                "cold": median_ms(lambda: (states.clear_state_cache(), states.load_state(game))),
                "full": median_ms(lambda: full_replay(game), repeats=20),
                "render": median_ms(lambda: render_for(game, users[0]), repeats=20),
                "render_cold": median_ms(
                    lambda: (basis.clear_table_cache(), render_for(game, users[0])), repeats=20
                ),
            }
        )
        print(rows[-1], flush=True)
    write(rows)


def write(rows: list[dict[str, float]]) -> None:
    out = ROOT / "bench" / "results" / "load_cost.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Load cost of a game as it grows",
        "",
        "`uv run --locked python bench/load_cost.py`: one 4-seat game played through",
        "`submit_move` on a throwaway SQLite file (naive-bot moves, target out of reach).",
        f"Medians of {REPEATS} loads (20 for the other columns), in milliseconds, on "
        f"{platform.machine()} / Python {platform.python_version()} / {os.cpu_count()} cores "
        f"(load average {os.getloadavg()[0]:.1f} when written: read the trend, not the digits).",
        "",
        "| actions | rounds | actions replayed | load_state: kept | load_state: snapshot "
        "+ replay | load_state: fresh process | full replay from action 1 | table_context "
        "+ #table | the same, shared parts built anew |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['actions']} | {r['rounds']} | {r['replayed']} | {r['hit']:.3f} ms "
            f"| {r['load']:.2f} ms | {r['cold']:.2f} ms | {r['full']:.2f} ms "
            f"| {r['render']:.2f} ms | {r['render_cold']:.2f} ms |"
        )
    lines += [
        "",
        "*Kept*: the process that applied a move keeps the state after it (keyed by game and",
        "action number, so it can never be stale), and the page answering the move and every",
        "socket's redraw load nothing. *Snapshot + replay* (another daphne process made the",
        "move, or the state was evicted): a snapshot is written whenever an action starts a",
        "new round and is parsed once per process, so a load is two small queries plus at most",
        "one round of `apply`, whatever the length of the game. *Fresh process*: the snapshot",
        "is fetched and parsed once; it carries the finished rounds' records (the score",
        "sheet), so that one-off cost grows with the game.",
        "",
        "The table's shared parts (members, names, and the side panel with the score sheet,",
        "chart and past rounds) are built once per game version and process; each viewer's",
        "render then costs the same at any length of game. Built anew, the side panel grows",
        "with the score sheet (one row per round; full details of the last three rounds).",
        "",
    ]
    out.write_text("\n".join(lines))
    shutil.rmtree(WORKDIR, ignore_errors=True)
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
