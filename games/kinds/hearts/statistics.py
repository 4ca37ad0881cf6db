"""Hearts' statistics for the player page: points per hand, moon shots."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from games.kinds.statistics import Counts, Statistics, per

from .engine.state import HeartsState


def count(state: HeartsState, seat: int) -> Counts:
    return {
        "hands": len(state.history),
        "points": state.totals[seat],
        "moons": sum(1 for hand in state.history if hand.moon_shooter == seat),
    }


def describe(sums: Mapping[str, int]) -> list[tuple[str, str]]:
    return [
        (_("Points per hand"), per(sums.get("points", 0), sums.get("hands", 0))),
        # Translators: how many times a player shot the moon (took every point of a hand).
        (_("Moon shots"), str(sums.get("moons", 0))),
    ]


STATISTICS = Statistics(count, describe)
