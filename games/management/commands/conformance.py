"""`manage.py conformance PATH...`: replay Hundred and Ten conformance traces (files or folders)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.conformance import run


class Command(BaseCommand):
    help = (
        "Replay conformance traces (FORMAT.md format) against the engine. Prints one line per "
        "failing trace and 'N passed, M failed'; exits non-zero if any trace failed."
    )
    # Pure engine work: it needs neither the database nor the URL configuration checked.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="trace files or folders of traces")

    def handle(self, *args: Any, **options: Any) -> None:
        status = run(options["paths"], self.stdout)
        if status:
            raise CommandError("Conformance failed.", returncode=status)
