"""`manage.py simulate`: bot-only games of any game kind, with speed, wins and decision times.

Seats are rotated between games (line-up position `p` plays seat `(p + g) % seats` in game
`g`), and the run is deterministic for a seed. Lines meant for scripts:
`seat 0 naive: wins 25.1% ± 1.9%`, the kind's own figure when it has one
(`seat 0 naive: points per hand 6.50 ± 0.21`), and `decisions: naive p50 … ms, …`.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.gamekind import GameKind
from games.kinds.protocol import Teams
from games.kinds.simulation import (
    SimulationResult,
    mean_interval,
    percentiles,
    share_interval,
    simulate,
)
from games.management.bot_games import add_game_arguments, bot_games, exit_on_sigterm
from games.ratings.match import Ledger, RatedSeat
from games.ratings.scale import ANCHOR_LEVEL, MODEL


class Command(BaseCommand):
    help = "Play bot-only games of a game kind and print speed, wins per seat and decision times."
    # Pure engine work: it needs neither the database nor the URL configuration checked.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        add_game_arguments(parser, seed="simulate")
        parser.add_argument(
            "--rated",
            action="store_true",
            help="rate the bot levels over the games, as the site rates them (the medium bot "
            "fixed at 1500; nothing is written to the database)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = bot_games(options)
        kind, players, bots = games.kind, games.players, games.lineup
        try:
            with exit_on_sigterm():
                result = simulate(
                    kind.rules,
                    players,
                    games.options,
                    options["games"],
                    options["seed"],
                    bots,
                    kind.bots,
                    jobs=max(1, options["jobs"]),
                )
        except ValueError as error:
            raise CommandError(str(error)) from error
        out = self.stdout
        out.write(
            f"{kind.slug}: {result.games} games, {players} seats ({','.join(bots)}), "
            f"seed {options['seed']!r}"
        )
        out.write(f"{result.games / result.seconds:.1f} games/s")
        out.write(f"{result.actions_per_second:.0f} actions/s")
        out.write(f"{result.hands} hands")
        if kind.teams is not None:
            self.write_teams(kind.teams(players), result)
        else:
            self.write_seats(kind.simulation_figure, result)
        timings = []
        for label, seconds in result.decisions.items():
            p50, p95, p99 = (value * 1000 for value in percentiles(seconds))
            timings.append(f"{label} p50 {p50:.3f} ms, p95 {p95:.3f} ms, p99 {p99:.3f} ms")
        out.write("decisions: " + "; ".join(timings))
        if options["rated"]:
            self.write_ratings(kind, players, result)

    def write_ratings(self, kind: GameKind, players: int, result: SimulationResult) -> None:
        """`rating hard: 1712 ± 38 (800 games)` per level, the games rated in order as the
        site rates a game (games/ratings/match.py)."""
        ledger: Ledger[str] = Ledger({ANCHOR_LEVEL: (MODEL.mu, MODEL.sigma)})
        for at_seat, outcome in result.played:
            places = kind.places(outcome)
            ledger.record(
                [
                    RatedSeat(key=level, team=kind.side_of(seat, players), place=place)
                    for seat, (level, place) in enumerate(zip(at_seat, places, strict=True))
                ]
            )
        for level in dict.fromkeys(result.positions[p].label for p in range(players)):
            shown = ledger.shown(level)
            self.stdout.write(
                f"rating {level}: {shown.value} ± {shown.plus_minus} ({shown.games} games)"
            )

    def write_teams(self, teams: Teams, result: SimulationResult) -> None:
        """`team 0 hard: wins 62.0% ± 3.0%`. Rotating one seat per game keeps partners
        together, so a team is the line-up positions of its seats in the first game."""
        for team, members in enumerate(teams.members):
            label = "+".join(dict.fromkeys(result.positions[p].label for p in members))
            share, half = share_interval(result.positions[members[0]].wins, result.games)
            self.stdout.write(f"team {team} {label}: wins {share:.1%} ± {half:.1%}")

    def write_seats(self, figure: str, result: SimulationResult) -> None:
        """`seat 0 hard: wins 51.3% ± 2.2%`, and the game's own figure per seat if it has one
        (`points per hand` in Hearts, `penalty per game` in One Hundred and Four)."""
        out = self.stdout
        for position, stats in enumerate(result.positions):
            name = f"seat {position} {stats.label}"
            share, half = share_interval(stats.wins, result.games)
            out.write(f"{name}: wins {share:.1%} ± {half:.1%}")
            if figure == "points per hand":
                mean, half = mean_interval(stats.per_hand)
                out.write(f"{name}: points per hand {mean:.2f} ± {half:.2f}")
            elif figure == "penalty per game":
                mean, half = mean_interval([float(s) for s in stats.scores])
                out.write(f"{name}: penalty per game {mean:.1f} ± {half:.1f}")
