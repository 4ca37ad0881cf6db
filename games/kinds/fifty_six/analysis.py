"""Fifty-Six's part of the analysis (games/kinds/analysis.py, docs/analysis.md).

The issue asks for the chance to win the match; the search does not estimate it (no model of
the chance from the tables held has been fitted), so the unit is the closest honest one its
playouts give: tables, what the hand moves to or from the seat's team (search.py `playout`:
the game points of the contract, 6 more for ending the match, and a tie-break of half a table
for the whole card-point margin).
"""

from __future__ import annotations

from games.kinds.analysis import Grading, Thresholds

from .bots import PLAYOUTS, suggest
from .search import FiftySixSearch

GRADING = Grading(
    search=FiftySixSearch(suggest),
    unit="tables",
    scale=1.0,
    # A contract is worth 1 to 4 tables: a quarter of a table is a card that made a failed
    # contract likelier, a whole table a contract lost or given.
    thresholds=Thresholds(inaccuracy=0.25, mistake=0.5, blunder=1.0),
    # Samples per decision, every candidate played out on each (the hard bot shares its
    # playouts among all its candidates).
    budget=4 * PLAYOUTS,
)
