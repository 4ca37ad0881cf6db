"""One finished game's rating update (pure: no Django; the site's service and
`manage.py simulate --rated` both call it).

Each rated seat names who it rates (`key`: a person, or a bot level shared by every seat of
that level), its team and its place. The seats of a team are rated as a team (Fifty-Six);
elsewhere every seat is a team of one. The update is one call to the library. A key that
holds several seats (two medium bots) takes the mean of its seats' new μ and σ; anchored
keys (the medium bot) keep their rating.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from statistics import fmean
from typing import Generic, TypeVar

from .scale import MODEL, new_rating

Rating = tuple[float, float]  # (μ, σ)
K = TypeVar("K", bound=Hashable)  # who a seat rates


@dataclass(frozen=True)
class RatedSeat(Generic[K]):
    key: K
    team: int
    place: int  # 0 first; a team's seats share its place


def update(
    seats: Iterable[RatedSeat[K]],
    ratings: Mapping[K, Rating],
    anchored: frozenset[K] = frozenset(),
) -> dict[K, Rating]:
    """The new (μ, σ) of every key of `seats` that is not anchored (nothing when fewer than
    two teams are rated)."""
    teams: dict[int, list[RatedSeat[K]]] = {}
    for seat in seats:
        teams.setdefault(seat.team, []).append(seat)
    if len(teams) < 2:
        return {}
    order = sorted(teams)
    result = MODEL.rate(
        [[new_rating(*ratings[seat.key]) for seat in teams[team]] for team in order],
        ranks=[min(seat.place for seat in teams[team]) for team in order],
    )
    after: dict[K, list[Rating]] = {}
    for team, rated in zip(order, result, strict=True):
        for seat, rating in zip(teams[team], rated, strict=True):
            after.setdefault(seat.key, []).append((rating.mu, rating.sigma))
    return {
        key: (fmean(mu for mu, _ in values), fmean(sigma for _, sigma in values))
        for key, values in after.items()
        if key not in anchored
    }
