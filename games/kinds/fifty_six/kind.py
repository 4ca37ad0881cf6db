"""Fifty-Six as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from games.gamekind import GameKind
from games.kinds.protocol import alternating_teams

from .bots import BOTS
from .conformance import CHECKER
from .engine.seam import NAME, OPTIONS, RULES, SEAT_COUNTS, SLUG
from .export import export_trace
from .statistics import STATISTICS
from .table import TABLE

KIND = GameKind(
    slug=SLUG,
    name=NAME,
    blurb="Two teams of two or three, a double deck, an auction for the contract and a trump "
    "card only the bidder has seen: win the tables of the other team.",
    seat_counts=SEAT_COUNTS,
    rules=RULES,
    bots=BOTS,
    table=TABLE,
    conformance=CHECKER,
    export=export_trace,
    options=OPTIONS,
    statistics=STATISTICS,
    teams=alternating_teams,
    default_seats=4,
    stylesheet="css/kinds/fifty-six.css",
    rules_template="games/fifty_six/rules.html",
)
