"""Hundred and Ten as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from games.gamekind import GameKind

from .bots import BOTS
from .conformance import CHECKER
from .engine.seam import NAME, OPTIONS, RULES, SEAT_COUNTS, SLUG
from .export import export_trace
from .statistics import STATISTICS
from .table import TABLE

KIND = GameKind(
    slug=SLUG,
    name=NAME,
    blurb="The Irish trick-taking game: bid, name trump, discard and draw, take tricks.",
    seat_counts=SEAT_COUNTS,
    rules=RULES,
    bots=BOTS,
    table=TABLE,
    conformance=CHECKER,
    export=export_trace,
    options=OPTIONS,
    statistics=STATISTICS,
    rules_template="games/hundred_and_ten/rules.html",
)
