"""Write static/css/seats.css from games/presenters/seats.py (after a game's seat counts change)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from games.presenters import seats


class Command(BaseCommand):
    help = "Write static/css/seats.css: where each seat's card flies in from, per viewer's chair."

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(settings.BASE_DIR) / seats.PATH
        path.write_text(seats.stylesheet())
        self.stdout.write(f"Wrote {path}.")
