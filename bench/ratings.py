"""What the leaderboard and a player page cost with 10,000 rated games in the database.

One player with 10,000 rated games of one game (a `RatingChange` each, the games and their
seats), and 2,000 other rated, verified players on the leaderboard, written in bulk into a
throwaway test database (Django's test utilities); then whole requests through Django's
test client: the leaderboard's first and last page, the player's own page and the same
page seen by another player. The same pages with 100 rated games first, for the trend.

Writes bench/results/ratings.md (or prints only, with --no-write).
Run: `uv run --locked python bench/ratings.py` (SQLite; `BENCH_DATABASE_URL=postgres://...`
for PostgreSQL).
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# bench/history.py prepares the environment (SQLite, or BENCH_DATABASE_URL) and Django.
from bench.history import database, median_ms, page, queries  # noqa: E402

# isort: split
from allauth.account.models import EmailAddress  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import Game, Membership, Rating, RatingChange  # noqa: E402
from games.ratings.board import PAGE_SIZE  # noqa: E402
from games.ratings.scale import conservative  # noqa: E402

KIND = "one-hundred-and-four"
SIZES = (100, 10_000)
BOARD = 2_000
BATCH = 2_000


def rated_history(player: User, other: User, count: int) -> None:
    """`count` rated, finished two-seat games of `player` against `other`, written in bulk."""
    start = timezone.now() - timedelta(days=count)
    for first in range(0, count, BATCH):
        numbers = range(first, min(first + BATCH, count))
        games = Game.objects.bulk_create(
            Game(
                name=f"Game {n}",
                kind=KIND,
                organizer=player,
                max_players=2,
                status=Game.Status.FINISHED,
                outcome={"scores": [n % 7, 3], "winners": [0], "winning_team": None},
                finished_at=start + timedelta(minutes=10 * n),
            )
            for n in numbers
        )
        Membership.objects.bulk_create(
            m
            for game in games
            for m in (
                Membership(game=game, user=player, role="organizer", seat=0),
                Membership(game=game, user=other, role="player", seat=1),
            )
        )
        RatingChange.objects.bulk_create(
            RatingChange(
                game=game,
                user=player,
                kind=KIND,
                number=n + 1,
                place=n % 2,
                mu=25 + (n % 50) / 10,
                sigma=max(1.0, 8.3 - n / 100),
            )
            for n, game in zip(numbers, games, strict=True)
        )
    Rating.objects.create(
        user=player,
        kind=KIND,
        mu=27.0,
        sigma=1.0,
        games=count,
        conservative=conservative(27.0, 1.0),
    )


def leaderboard_people(tag: str) -> None:
    users = User.objects.bulk_create(
        User(username=f"{tag}-{i}", email=f"{tag}-{i}@example.com", password="!")
        for i in range(BOARD)
    )
    EmailAddress.objects.bulk_create(
        EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users
    )
    Rating.objects.bulk_create(
        Rating(
            user=u,
            kind=KIND,
            mu=20 + i % 97 / 10,
            sigma=2.5,
            games=30,
            conservative=conservative(20 + i % 97 / 10, 2.5),
        )
        for i, u in enumerate(users)
    )


def measure(count: int) -> dict[str, Any]:
    player = User.objects.create_user(username=f"p{count}", password=None, display_name="Pat")
    other = User.objects.create_user(username=f"o{count}", password=None)
    rated_history(player, other, count)
    leaderboard_people(f"b{count}")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    mine, theirs = Client(), Client()
    mine.force_login(player)
    theirs.force_login(other)
    board = reverse("leaderboard", args=[KIND])
    last = Rating.objects.filter(kind=KIND).count() // PAGE_SIZE + 1
    pages = {
        "leaderboard, page 1": page(mine, board),
        "leaderboard, last page": page(mine, f"{board}?page={last}"),
        "own player page": page(mine, reverse("player", args=[player.username])),
        "player page seen by another": page(theirs, reverse("player", args=[player.username])),
    }
    found = {
        "games": count,
        "ms": {name: median_ms(run) for name, run in pages.items()},
        "queries": {name: queries(run) for name, run in pages.items()},
    }
    print(found, flush=True)
    return found


def write(rows: list[dict[str, Any]], label: str, version: str) -> None:
    out = ROOT / "bench" / "results" / "ratings.md"
    lines = [
        "# Ratings: the leaderboard and a player page with 10,000 rated games",
        "",
        "`uv run --locked python bench/ratings.py` (bench/ratings.py says what it writes).",
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {label} {version}, 2 shared cores "
        f"(load average {os.getloadavg()[0]:.1f}: read the trend, not the digits). Medians of "
        "30 requests through Django's test client; the leaderboard holds "
        f"{BOARD:,} other rated players as well.",
        "",
        "| page | " + " | ".join(f"{r['games']:,} rated games" for r in rows) + " | queries |",
        "| --- | " + " | ".join("---:" for _ in rows) + " | --- |",
    ]
    for name in rows[0]["ms"]:
        counts = " / ".join(str(r["queries"][name]) for r in rows)
        lines.append(
            f"| {name} | " + " | ".join(f"{r['ms'][name]:.1f} ms" for r in rows) + f" | {counts} |"
        )
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


def main() -> None:
    setup_test_environment(debug=False)
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
