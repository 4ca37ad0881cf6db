"""One Hundred and Four's statistics for the player page: the average penalty per deal."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from games.kinds.statistics import Counts, Statistics, per

from .engine.state import HundredAndFourState


def count(state: HundredAndFourState, seat: int) -> Counts:
    return {"deals": len(state.history), "penalty": state.totals[seat]}


def describe(sums: Mapping[str, int]) -> list[tuple[str, str]]:
    # Translators: a player's average penalty (bullheads taken) per deal.
    return [(_("Penalty per deal"), per(sums.get("penalty", 0), sums.get("deals", 0)))]


STATISTICS = Statistics(count, describe)
