"""Hundred and Ten's part of the analysis (games/kinds/analysis.py, docs/analysis.md).

The unit is the chance to win the game, in percentage points, as the hard bot estimates it: a
playout plays the round out and counts 1 or 0 if the round ends the game, else the seat's
chance from the scores it leaves (search.py `win_chance`, fitted to medium bots' games).
"""

from __future__ import annotations

from games.kinds.analysis import Grading, Thresholds

from .search import HundredAndTenSearch

GRADING = Grading(
    search=HundredAndTenSearch(),
    unit="% chance to win",
    scale=100.0,
    # A trick given away is worth a point or two of the chance to win; a round's bid or its
    # trumps thrown away, ten or more.
    thresholds=Thresholds(inaccuracy=2.0, mistake=5.0, blunder=10.0),
    # Samples per decision, every candidate played out on each (times the phase's factor,
    # search.py BUDGET_FACTORS): the hard bot shares 240 among all its candidates (bots.py).
    budget=480,
    # A chance to win is never below 0: once a seat's best is under a mistake (5 points), it
    # is out of the running and its decisions are left out of its accuracy (docs/analysis.md).
    floor=0.0,
)
