"""One Hundred and Four's part of the analysis (games/kinds/analysis.py, docs/analysis.md).

The unit is points (bullheads) over the rest of the deal, as the search counts them: its value is
minus the seat's penalty points at the deal's end (search.py `playout`), and the points taken
before a decision are the same for every action compared, so a loss of 1 is one bullhead more
taken by the end of the deal. A choice of a card is graded from the rows as they were when the
turn began, before anybody chose (the others' commitments are not shown to it).
"""

from __future__ import annotations

from games.kinds.analysis import Grading, Thresholds

from .bots import HARD_PLAYOUTS
from .search import HundredAndFourSearch

GRADING = Grading(
    search=HundredAndFourSearch(),
    unit="points",
    scale=1.0,
    # A row of one or two bullheads taken for nothing is an inaccuracy; a full row (five
    # cards, often 7 or more bullheads) is a blunder.
    thresholds=Thresholds(inaccuracy=1.0, mistake=2.5, blunder=5.0),
    # Samples per decision, every candidate played out on each (the hard bot shares its
    # playouts among all its candidates).
    budget=4 * HARD_PLAYOUTS,
    min_samples=4,
)
