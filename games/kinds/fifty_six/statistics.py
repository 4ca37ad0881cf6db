"""Fifty-Six's statistics for the player page: contracts made (as the bidder) and tables
won (by the player's team)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from games.kinds.statistics import Counts, Statistics

from .engine.state import FiftySixState


def count(state: FiftySixState, seat: int) -> Counts:
    team = seat % 2  # partners sit alternately
    bid = [h for h in state.history if h.bidder == seat and h.outcome != "void"]
    return {
        "contracts": len(bid),
        "made": sum(1 for h in bid if h.made),
        "tables": sum(max(0, h.tables_change[team]) for h in state.history),
    }


def describe(sums: Mapping[str, int]) -> list[tuple[str, str]]:
    return [
        (
            # Translators: how many of a player's contracts (winning bids) they made.
            _("Contracts made"),
            # Translators: contracts made of contracts bid, e.g. "3 of 5".
            _("%(made)s of %(contracts)s")
            % {"made": sums.get("made", 0), "contracts": sums.get("contracts", 0)},
        ),
        # Translators: Fifty-Six's "tables": the tokens a team wins and loses.
        (_("Tables won"), str(sums.get("tables", 0))),
    ]


STATISTICS = Statistics(count, describe)
