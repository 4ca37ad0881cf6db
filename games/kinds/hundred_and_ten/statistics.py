"""Hundred and Ten's statistics for the player page: contracts made and set."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from games.kinds.statistics import Counts, Statistics

from .engine.state import GameState

MADE = ("made", "moon")


def count(state: GameState, seat: int) -> Counts:
    bid = [r for r in state.history if r.bidder == seat and r.outcome in (*MADE, "failed")]
    return {"contracts": len(bid), "made": sum(1 for r in bid if r.outcome in MADE)}


def describe(sums: Mapping[str, int]) -> list[tuple[str, str]]:
    made = sums.get("made", 0)
    return [
        # Translators: how many of a player's contracts (winning bids) they made.
        (_("Contracts made"), str(made)),
        # Translators: how many of a player's contracts (winning bids) went set (failed).
        (_("Contracts set"), str(sums.get("contracts", 0) - made)),
    ]


STATISTICS = Statistics(count, describe)
