"""What do languages cost a request? The table page, its `#table` partial and the lobby,
each fetched through Django's test client (every middleware, LocaleMiddleware and the
profile's language included) for a player of a Hundred and Ten game against three bots, on
a throwaway SQLite database; in English, and in German when the tree has German.

Prints one JSON line of median milliseconds per page and language. Compare two trees by
running this script in each, alternately (bench/results/languages.md):

    uv run --locked python bench/languages.py
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
WORKDIR = tempfile.mkdtemp(prefix="languages-")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)
os.environ["SQLITE_PATH"] = os.path.join(WORKDIR, "bench.sqlite3")
os.environ.setdefault("DEBUG", "1")
os.environ["BOT_DELAY_SECONDS"] = "0"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import Game, Membership  # noqa: E402
from games.services import table  # noqa: E402

REPEATS = 150


def median_ms(client: Client, url: str, headers: dict[str, str]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        response = client.get(url, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return round(statistics.median(times), 3)


def main() -> None:
    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["*"]
    alice = User.objects.create_user(username="alice", password=None, display_name="Alice")
    game = Game.objects.create(name="Bench", organizer=alice, seed="languages", max_players=4)
    Membership.objects.create(game=game, user=alice, role="organizer", seat=0)
    for seat in (1, 2, 3):
        Membership.objects.create(
            game=game, role="player", seat=seat, bot="naive", bot_name=f"Bot {seat}"
        )
    with transaction.atomic():
        table.begin(game)
    languages = ["en"] + (["de"] if any(code == "de" for code, _ in settings.LANGUAGES) else [])
    pages = {
        "table": (reverse("table", args=[game.pk]), {}),
        "partial": (reverse("table", args=[game.pk]), {"HX-Request": "true"}),
        "lobby": (reverse("lobby"), {}),
    }
    result: dict[str, float] = {}
    for language in languages:
        client = Client()
        client.force_login(alice)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for name, (url, headers) in pages.items():
            median_ms(client, url, headers)  # warm: templates, catalogues, the table basis
            result[f"{name}.{language}"] = median_ms(client, url, headers)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
