"""`manage.py analyse`: seeded bot-only games graded by the search, decision by decision.

The games are `simulate`'s (the same options, deals and rotation: line-up position `p` plays
seat `(p + g) % seats` in game `g`); each is then analysed (games/kinds/analysis.py,
docs/analysis.md). Lines meant for scripts, one per line-up position, then the time:
`seat 0 hard: accuracy 93.1% ± 0.8%, mistakes 1.2 per hand` (the mean of the games' accuracies
with its 95% interval; decisions marked mistake or blunder per hand played) and
`analysis: p50 X ms, p95 Y ms per decision`.
"""

from __future__ import annotations

import functools
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.kinds.analysis import play_and_analyse
from games.kinds.simulation import check_lineup, mean_interval, percentiles, run_games, seats_of
from games.management.bot_games import add_game_arguments, bot_games, exit_on_sigterm


class Command(BaseCommand):
    help = "Play bot-only games of a game kind and grade every decision by the search."
    # Pure engine work: it needs neither the database nor the URL configuration checked.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        add_game_arguments(parser, seed="analyse")
        parser.add_argument(
            "--budget",
            type=int,
            help="samples per decision, every candidate played out on each (default: the "
            "game's, docs/analysis.md)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = bot_games(options)
        kind, players, lineup = games.kind, games.players, games.lineup
        grading = kind.grading
        if grading is None:
            raise CommandError(f"{kind.name} has no analysis.")
        budget: int = options["budget"] or grading.budget
        if budget < 1:
            raise CommandError("The budget is at least one sample per decision.")
        count: int = options["games"]
        try:
            check_lineup(players, lineup, kind.bots)
        except ValueError as error:
            raise CommandError(str(error)) from error
        one = functools.partial(
            play_and_analyse,
            kind.rules,
            grading,
            players,
            games.options,
            options["seed"],
            lineup,
            kind.bots,
            budget,
        )
        with exit_on_sigterm():
            results = run_games(one, count, max(1, options["jobs"]))
        accuracy: list[list[float]] = [[] for _ in lineup]
        mistakes = [0] * players
        hands = [0] * players
        graded = 0
        seconds: list[float] = []
        for index, (_, analysis) in enumerate(results):
            for position, seat in enumerate(seats_of(index, players)):
                summary = analysis.seats[seat]
                if summary.decisions:
                    accuracy[position].append(summary.accuracy)
                mistakes[position] += summary.mistakes + summary.blunders
                hands[position] += summary.hands
            graded += len(analysis.decisions)
            seconds.extend(analysis.seconds)
        out = self.stdout
        out.write(
            f"{kind.slug}: {count} games, {players} seats ({','.join(lineup)}), "
            f"seed {options['seed']!r}, budget {budget}, {graded} decisions graded "
            f"(values in {grading.unit})"
        )
        for position, label in enumerate(lineup):
            mean, half = mean_interval(accuracy[position])
            per_hand = mistakes[position] / hands[position] if hands[position] else 0.0
            out.write(
                f"seat {position} {label}: accuracy {mean:.1f}% ± {half:.1f}%, "
                f"mistakes {per_hand:.1f} per hand"
            )
        p50, p95 = (value * 1000 for value in percentiles(seconds, (50, 95)))
        out.write(f"analysis: p50 {p50:.0f} ms, p95 {p95:.0f} ms per decision")
