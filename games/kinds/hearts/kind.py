"""Hearts as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from games.gamekind import GameKind
from games.kinds.places import lowest_first

from .bots import BOTS
from .conformance import CHECKER
from .engine.seam import NAME, OPTIONS, RULES, SEAT_COUNTS, SLUG
from .export import export_trace
from .statistics import STATISTICS
from .table import TABLE

KIND = GameKind(
    slug=SLUG,
    name=NAME,
    blurb="Four players pass three cards, then duck hearts and the queen of spades: "
    "lowest score wins.",
    seat_counts=SEAT_COUNTS,
    rules=RULES,
    bots=BOTS,
    table=TABLE,
    conformance=CHECKER,
    export=export_trace,
    options=OPTIONS,
    statistics=STATISTICS,
    places=lowest_first,
    simulation_figure="points per hand",
    rules_template="games/hearts/rules.html",
)
