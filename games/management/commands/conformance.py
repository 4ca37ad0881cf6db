"""`manage.py conformance PATH...`: replay conformance traces of any game (files or folders).

Each trace's `"game"` field picks the game's replayer from the registry (a trace without one
is Hundred and Ten's).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.kinds.conformance import run
from games.registry import conformance_checkers


class Command(BaseCommand):
    help = (
        "Replay conformance traces (each game's FORMAT.md) against the engines. Prints one line "
        "per failing trace and 'N passed, M failed'; exits non-zero if any trace failed."
    )
    # Pure engine work: it needs neither the database nor the URL configuration checked.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="trace files or folders of traces")

    def handle(self, *args: Any, **options: Any) -> None:
        status = run(options["paths"], self.stdout, conformance_checkers())
        if status:
            raise CommandError("Conformance failed.", returncode=status)
