"""One finished game's rating update (pure: no Django; the site's service and
`manage.py simulate --rated` both call it).

Each rated seat names who it rates (`key`: a person, or a bot level shared by every seat of
that level), its team and its place. The seats of a team are rated as a team (Fifty-Six);
elsewhere every seat is a team of one. The update is one call to the library. A key that
holds several seats (two medium bots) takes the mean of its seats' new μ and σ; anchored
keys (the medium bot) keep their rating.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Generic, TypeVar

from .scale import MODEL, Shown, new_rating

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


@dataclass
class Ledger(Generic[K]):
    """Ratings kept in memory, game after game, by the same update as the site's
    (`manage.py simulate --rated`, which writes nothing to the database). `anchors` are the
    keys with a fixed rating; every other key starts at the library's default."""

    anchors: Mapping[K, Rating]
    ratings: dict[K, Rating] = field(default_factory=dict)
    games: Counter[K] = field(default_factory=Counter)

    def record(self, seats: Sequence[RatedSeat[K]]) -> None:
        keys = {seat.key for seat in seats}
        current = {key: self.rating(key) for key in keys}
        self.ratings.update(update(seats, current, frozenset(self.anchors)))
        self.games.update(keys)

    def rating(self, key: K) -> Rating:
        if key in self.anchors:
            return self.anchors[key]
        return self.ratings.get(key, (MODEL.mu, MODEL.sigma))

    def shown(self, key: K) -> Shown:
        """The figure the site would show; an anchor's is exact (± 0)."""
        mu, sigma = self.rating(key)
        return Shown.of(mu, 0.0 if key in self.anchors else sigma, self.games[key])
