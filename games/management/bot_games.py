"""What `manage.py simulate` and `manage.py analyse` share: the options that choose the bot-only
games to play (--game --games --players --seed --jobs --bots --target --option), read into a
`BotGames`, and a SIGTERM that stops the worker processes with the command."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.management.base import CommandError, CommandParser

from games import registry
from games.gamekind import GameKind
from games.models import DEFAULT_KIND


@dataclass(frozen=True)
class BotGames:
    """The games the options name: the kind, the seats, the line-up (one bot level per
    line-up position) and every rule option resolved."""

    kind: GameKind
    players: int
    lineup: list[str]
    options: dict[str, Any]


def add_game_arguments(parser: CommandParser, *, seed: str) -> None:
    parser.add_argument(
        "--game", default=DEFAULT_KIND, help=f"one of: {', '.join(registry.REGISTRY)}"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, help="seats (default: the game's usual table)")
    parser.add_argument("--seed", default=seed)
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="worker processes sharing the games (the results do not depend on it)",
    )
    parser.add_argument(
        "--bots",
        default="",
        help="comma-separated bot levels, repeated cyclically over the seats (default: the "
        "game's seat bot)",
    )
    parser.add_argument("--target", type=int, help="the game's target score option")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option of the game (e.g. match_to=66, tables_per_team=3; none for "
        "no value); any number of times",
    )


def bot_games(options: dict[str, Any]) -> BotGames:
    """The games `add_game_arguments`' options name, or CommandError."""
    kind = registry.REGISTRY.get(options["game"])
    if kind is None:
        raise CommandError(
            f"Unknown game {options['game']!r}; choose from {', '.join(registry.REGISTRY)}."
        )
    players: int = options["players"] or kind.table_size
    if players not in kind.seat_counts:
        raise CommandError(f"{kind.name} is played by {kind.seats_text}.")
    names = options["bots"].split(",") if options["bots"] else [kind.seat_bot]
    lineup = [names[position % len(names)] for position in range(players)]
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
    return BotGames(kind, players, lineup, chosen)


@contextlib.contextmanager
def exit_on_sigterm() -> Iterator[None]:
    """Killed (SIGTERM), exit as from an error, so the worker processes of --jobs stop too."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
