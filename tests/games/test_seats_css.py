"""static/css/seats.css: a card just played flies in from its player's side of the felt as the
viewer sits, though the trick is the same bytes for every viewer (games/presenters/seats.py)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from games.presenters import seats
from games.presenters.context import positions
from games.registry import REGISTRY

RULE = re.compile(
    r'\.table\[data-seats="(\d+)"\]\[data-view-seat="(\d+)"\] '
    r'\.trick-play\[data-seat="(\d+)"\] \{ ([^}]*) \}'
)


def written() -> str:
    return (Path(settings.BASE_DIR) / seats.PATH).read_text()


def test_the_file_is_what_the_generator_writes():
    # If this fails after a change of a game's seat counts: `python manage.py seats_css`.
    assert written() == seats.stylesheet()


def test_every_viewer_sees_each_card_come_from_its_players_side():
    offsets = {
        (int(n), int(chair), int(seat)): offset
        for n, chair, seat, offset in RULE.findall(written())
    }
    sizes = {n for kind in REGISTRY.values() for n in kind.seat_counts}
    assert {n for n, _, _ in offsets} == sizes
    for n in sizes:
        for chair in range(n):
            # The viewer's own card comes from below, wherever they sit.
            assert offsets[n, chair, chair] == "--from-y: 4rem;"
            if n == 4:
                assert offsets[n, chair, (chair + 2) % 4] == "--from-y: -4rem;"  # across
                assert offsets[n, chair, (chair + 1) % 4].startswith("--from-x: -5rem")  # left
                assert offsets[n, chair, (chair + 3) % 4].startswith("--from-x: 5rem")  # right
            for seat in range(n):  # a seat in the row above keeps the keyframes' default
                side = positions(n, chair)[seat]
                assert ((n, chair, seat) in offsets) == (side in seats.FROM), (n, chair, seat)
