"""`manage.py simulate`: play bot-only games of Hundred and Ten and report speed and wins."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.kinds.hundred_and_ten.engine.simulation import POLICIES, simulate


class Command(BaseCommand):
    help = "Play bot-only games and print games/s, actions/s and wins per seat."
    # Pure engine work: it needs neither the database nor the URL configuration checked.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--seed", default="simulate")
        parser.add_argument(
            "--bots",
            default="",
            help=f"comma-separated, one per seat, from: {', '.join(POLICIES)} (default: naive)",
        )
        parser.add_argument("--target", type=int, default=110, help="winning score")

    def handle(self, *args: Any, **options: Any) -> None:
        players: int = options["players"]
        bots = options["bots"].split(",") if options["bots"] else ["naive"] * players
        try:
            result = simulate(options["games"], players, options["seed"], bots, options["target"])
        except ValueError as error:
            raise CommandError(str(error)) from error
        out = self.stdout
        out.write(
            f"{result.games} games, {players} players ({','.join(bots)}), seed {options['seed']!r}"
        )
        out.write(f"{result.games_per_second:.1f} games/s")
        out.write(f"{result.actions_per_second:.0f} actions/s")
        out.write(f"{result.actions} actions, {result.rounds} rounds in {result.seconds:.3f} s")
        for seat, wins in enumerate(result.wins):
            out.write(f"seat {seat} ({bots[seat]}): {wins} wins")
