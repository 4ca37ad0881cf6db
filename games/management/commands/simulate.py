"""`manage.py simulate`: bot-only games of any game kind, with speed, wins and decision times.

Seats are rotated between games (line-up position `p` plays seat `(p + g) % seats` in game
`g`), and the run is deterministic for a seed. Lines meant for scripts:
`seat 0 naive: wins 25.1% ± 1.9%`, the kind's own figure when it has one
(`seat 0 naive: points per hand 6.50 ± 0.21`), and `decisions: naive p50 … ms, …`.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import registry
from games.gamekind import GameKind
from games.kinds.protocol import Teams
from games.kinds.simulation import (
    SimulationResult,
    mean_interval,
    percentiles,
    share_interval,
    simulate,
)
from games.models import DEFAULT_KIND
from games.ratings.match import Ledger, RatedSeat
from games.ratings.scale import ANCHOR_LEVEL, MODEL


class Command(BaseCommand):
    help = "Play bot-only games of a game kind and print speed, wins per seat and decision times."
    # Pure engine work: it needs neither the database nor the URL configuration checked.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", default=DEFAULT_KIND, help=f"one of: {', '.join(registry.REGISTRY)}"
        )
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--players", type=int, help="seats (default: the game's usual table)")
        parser.add_argument("--seed", default="simulate")
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="worker processes sharing the games (the results do not depend on it)",
        )
        parser.add_argument(
            "--bots", default="", help="comma-separated bot levels, one per seat (default: naive)"
        )
        parser.add_argument("--target", type=int, help="the game's target score option")
        parser.add_argument(
            "--rated",
            action="store_true",
            help="rate the bot levels over the games, as the site rates them (the medium bot "
            "fixed at 1500; nothing is written to the database)",
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a rule option of the game (e.g. match_to=66, tables_per_team=3; none for "
            "no value); any number of times",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        kind = registry.REGISTRY.get(options["game"])
        if kind is None:
            raise CommandError(
                f"Unknown game {options['game']!r}; choose from {', '.join(registry.REGISTRY)}."
            )
        players: int = options["players"] or kind.table_size
        if players not in kind.seat_counts:
            raise CommandError(f"{kind.name} is played by {kind.seats_text}.")
        bots = options["bots"].split(",") if options["bots"] else [kind.seat_bot] * players
        chosen = kind.resolve_options({})
        if options["target"] is not None:  # any score, not only the choices a table offers
            if "target" not in chosen:
                raise CommandError(f"{kind.name} has no target score.")
            chosen["target"] = options["target"]
        for text in options["option"]:
            name, _, value = text.partition("=")
            if name not in chosen:
                raise CommandError(f"{kind.name} has no option {name!r}.")
            if not (value == "none" or (value.isascii() and value.isdigit())):
                raise CommandError(f"{text!r}: write NAME=NUMBER or NAME=none.")
            chosen[name] = None if value == "none" else int(value)
        # Killed (SIGTERM), exit as from an error: the worker processes of --jobs stop too.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _exit_on_sigterm) if main else None
        try:
            result = simulate(
                kind.rules,
                players,
                chosen,
                options["games"],
                options["seed"],
                bots,
                kind.bots,
                jobs=max(1, options["jobs"]),
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        finally:
            if main:
                signal.signal(signal.SIGTERM, previous)
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


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
