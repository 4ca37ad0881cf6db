"""One Hundred and Four as a game kind of the platform (listed in games/registry.py)."""

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
    blurb="Two to ten players each pick a card at once; every sixth card in a row, or one "
    "lower than them all, takes a row of bullheads: fewest wins.",
    seat_counts=SEAT_COUNTS,
    rules=RULES,
    bots=BOTS,
    table=TABLE,
    conformance=CHECKER,
    export=export_trace,
    options=OPTIONS,
    statistics=STATISTICS,
    places=lowest_first,
    default_seats=4,
    simulation_figure="penalty per game",
    stylesheet="css/kinds/one-hundred-and-four.css",
    rules_template="games/one_hundred_and_four/rules.html",
)
