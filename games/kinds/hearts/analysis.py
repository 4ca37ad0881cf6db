"""Hearts' part of the analysis (games/kinds/analysis.py, docs/analysis.md): points over the hand.

The search values a hand for the seat as the other seats' mean points minus its own, after the
moon rule (search.py `value`). Without a moon that is 26/3 minus 4/3 of the seat's own points,
so three quarters of it is minus the seat's points plus a constant: a loss of 1 is one more
penalty point taken in the hand. A moon counts by what it does to the seat against the table
(shooting it is worth 19.5 points, suffering it 13). The pass is one decision (three cards).
"""

from __future__ import annotations

from games.kinds.analysis import Grading, Thresholds

from .search import HeartsSearch

GRADING = Grading(
    search=HeartsSearch(),
    unit="points",
    scale=0.75,
    # A point or two is a heart given where it could have gone elsewhere; five or more is
    # the queen of spades (13) or a run of hearts misplaced, not sampling noise.
    thresholds=Thresholds(inaccuracy=1.0, mistake=2.5, blunder=5.0),
    # Samples per decision, every candidate played out on each: the hard bot shares 80 among
    # all its candidates (bots.py).
    budget=320,
)
