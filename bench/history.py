"""How do the history pages cost as a player's history grows?

Gives one player no games, then 1,000 and 10,000 finished games (3 seats: the player, one of twelve
opponents in turn, a bot; half Hundred and Ten, half Hearts; a third of them public),
written with bulk inserts into a throwaway test database made by Django's test utilities,
then times whole requests through Django's test client (middleware, queries, templates):

* the lobby (its "Past games" list: the latest five), the profile (a page of twenty),
  the past-games page (first and last page), the player's own page and the same page seen
  by an opponent (only the games they may see);
* and the two grouped queries behind a player page alone: the per-kind record (played and
  won, read from the stored outcome) and the recent opponents.

Writes bench/results/history.md (or prints only, with --no-write).
Run: `uv run --locked python bench/history.py` (SQLite). With
`BENCH_DATABASE_URL=postgres://...` it runs on PostgreSQL instead (a test database
`test_<name>` is created and dropped there) and adds its table to the results file.
"""

from __future__ import annotations

import os
import platform
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.pop("REDIS_URL", None)
if os.environ.get("BENCH_DATABASE_URL"):
    os.environ["DATABASE_URL"] = os.environ["BENCH_DATABASE_URL"]
else:
    os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import Game, Membership  # noqa: E402
from games.services import past_games  # noqa: E402

SIZES = (0, 1_000, 10_000)  # none: what the pages cost anyway
REPEATS = 30
OPPONENTS = 12
BATCH = 2_000


def median_ms(function: Callable[[], Any], repeats: int = REPEATS) -> float:
    function()  # warm up (templates, the first query plans)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def history(player: User, opponents: list[User], count: int) -> None:
    """`count` finished games of `player`, written in bulk."""
    start = timezone.now() - timedelta(days=count)
    kinds = ("hundred-and-ten", "hearts")
    for first in range(0, count, BATCH):
        numbers = range(first, min(first + BATCH, count))
        games = Game.objects.bulk_create(
            Game(
                name=f"Game {n}",
                kind=kinds[n % 2],
                organizer=player,
                public=n % 3 == 0,
                max_players=3,
                status=Game.Status.FINISHED,
                outcome={"scores": [1, 2, 3], "winners": [n % 3], "winning_team": None},
                started_at=start + timedelta(minutes=10 * n),
                finished_at=start + timedelta(minutes=10 * n + 5),
            )
            for n in numbers
        )
        members = []
        for n, game in zip(numbers, games, strict=True):
            members += [
                Membership(game=game, user=player, role="organizer", seat=0),
                Membership(game=game, user=opponents[n % len(opponents)], role="player", seat=1),
                Membership(game=game, role="player", seat=2, bot="naive", bot_name="Bot Ada"),
            ]
        Membership.objects.bulk_create(members)


def page(client: Client, url: str) -> Callable[[], Any]:
    def get() -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    return get


def queries(function: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        function()
    return len(captured)


def measure(count: int) -> dict[str, Any]:
    player = User.objects.create_user(username=f"p{count}", password=None, display_name="Pat")
    opponents = [
        User.objects.create_user(username=f"o{count}-{i}", password=None) for i in range(OPPONENTS)
    ]
    started = time.perf_counter()
    history(player, opponents, count)
    if connection.vendor == "postgresql":  # statistics, as a live database has them
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    setup_s = time.perf_counter() - started
    mine, theirs = Client(), Client()
    mine.force_login(player)
    theirs.force_login(opponents[0])
    last = max(1, (count + past_games.PAGE_SIZE - 1) // past_games.PAGE_SIZE)
    pages = {
        "lobby": page(mine, reverse("lobby")),
        "profile": page(mine, reverse("profile")),
        "past games, page 1": page(mine, reverse("past-games")),
        "past games, last page": page(mine, f"{reverse('past-games')}?page={last}"),
        "own player page": page(mine, reverse("player", args=[player.username])),
        "player page seen by an opponent": page(theirs, reverse("player", args=[player.username])),
        "record query": lambda: past_games.records(player),
        "opponents query": lambda: past_games.recent_people(player, player),
    }
    found = {
        "games": count,
        "setup": setup_s,
        "ms": {name: median_ms(run) for name, run in pages.items()},
        "queries": {name: queries(run) for name, run in pages.items()},
    }
    print(found, flush=True)
    return found


def table(rows: list[dict[str, Any]]) -> list[str]:
    names = list(rows[0]["ms"])
    lines = [
        "| page | " + " | ".join(f"{r['games']:,} games" for r in rows) + " | queries |",
        "| --- | " + " | ".join("---:" for _ in rows) + " | ---: |",
    ]
    for name in names:
        # Empty lists skip their prefetch: count at the sizes that have games.
        counts = sorted({r["queries"][name] for r in rows if r["games"]})
        lines.append(
            f"| {name} | "
            + " | ".join(f"{r['ms'][name]:.1f} ms" for r in rows)
            + f" | {' / '.join(str(c) for c in counts)} |"
        )
    return lines


def database() -> tuple[str, str]:
    """The database's name and version, e.g. ("SQLite", "3.40.1") (while connected)."""
    vendor = connection.vendor
    label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(vendor, vendor)
    version = sqlite3.sqlite_version if vendor == "sqlite" else ""
    if vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            version = str(cursor.fetchone()[0]).split()[0]  # "15.20 (Debian ...)"
    return label, version


def write(rows: list[dict[str, Any]], label: str, version: str) -> None:
    out = ROOT / "bench" / "results" / "history.md"
    section = [
        f"## {label} {version}",
        "",
        f"Medians of {REPEATS} requests, in milliseconds, on {platform.machine()} / Python "
        f"{platform.python_version()} / {os.cpu_count()} cores (load average "
        f"{os.getloadavg()[0]:.1f} when written: read the trend, not the digits). Setting up "
        + ", ".join(f"{r['games']:,} games took {r['setup']:.1f} s" for r in rows)
        + ".",
        "",
        *table(rows),
        "",
    ]
    header = [
        "# History pages as a player's history grows",
        "",
        "`uv run --locked python bench/history.py` (SQLite; `BENCH_DATABASE_URL=postgres://...`",
        "for PostgreSQL, which adds its own section). A player with no games (what the pages",
        "cost anyway), then players with 1,000 and 10,000 finished games (three seats: the",
        "player, one of twelve opponents, a bot), written in bulk into a throwaway test",
        "database (on PostgreSQL then ANALYZEd: without statistics its plans for the",
        "opponent's view flip between 20 and 100 ms); whole requests through Django's test",
        "client (no query log while timing).",
        "*Queries*: how many each page ran with 1,000 and with 10,000 games (one figure: the",
        "same at both).",
        "The last two rows are the player page's two grouped queries alone.",
        "",
        "The number of queries stays flat; their time does not: each list sorts (or, for the",
        "pager and the record, counts and groups) all of the player's seats, found through the",
        "membership's user index, so the cost grows with the history, about 30 to 45 ms more",
        "per page at 10,000 games. The recent opponents look at the latest 200 games only",
        "(`RECENT_WINDOW`), which took that query from about 60 ms to 12 ms at 10,000 games",
        "on SQLite. Flat times would need the end time on the membership row with an index",
        "on (user, end): a migration, not made here. The profile's 50 ms with no games is",
        "the page itself (its forms), not the list.",
        "",
    ]
    sections: dict[str, list[str]] = {}
    if out.exists():  # keep the other database's section
        current = ""
        for line in out.read_text().splitlines():
            if line.startswith("## "):
                current = line.split()[1]
                sections[current] = []
            if current:
                sections[current].append(line)
    sections[label] = section
    body = ["\n".join(sections[key]).strip() + "\n" for key in sorted(sections, reverse=True)]
    out.write_text("\n".join(header) + "\n" + "\n".join(body))
    print(f"wrote {out.relative_to(ROOT)}")


def main() -> None:
    setup_test_environment(debug=False)  # as the tests run: no query log while timing
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rows = [measure(count) for count in SIZES]
        label, version = database()
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)
    if "--no-write" not in sys.argv:
        write(rows, label, version)


if __name__ == "__main__":
    main()
