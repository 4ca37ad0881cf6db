"""A game's addresses, worked out once per process.

`reverse` walks the URL patterns on every call (tens of microseconds), and a move's redraws
asked for the same few addresses of the same game in every table and turn banner they drew
(bench/results/scaleout.md). An address depends only on the game's id (or a kind's slug) and
the URL patterns, which do not change while the process runs.
"""

from __future__ import annotations

from functools import lru_cache

from django.urls import reverse

# The addresses a table shows (`TableBasis.urls`, templates/games/table.html).
TABLE_URLS = (
    "move",
    "hint",
    "undo",
    "automate",
    "reclaim",
    "rematch",
    "table",
    "replay",
    "export",
)


@lru_cache(maxsize=65536)
def game_url(name: str, game_id: int) -> str:
    """reverse(name, kwargs={"game_id": game_id}), kept."""
    return reverse(name, kwargs={"game_id": game_id})


@lru_cache(maxsize=64)
def rules_url(slug: str) -> str:
    """The rules page of a game kind."""
    return reverse("rules", args=[slug])


def table_urls(game_id: int, slug: str) -> dict[str, str]:
    """Every address the table of a game shows, by name (`rules`: its kind's rules)."""
    return {**{name: game_url(name, game_id) for name in TABLE_URLS}, "rules": rules_url(slug)}
