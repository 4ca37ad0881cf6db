"""The rating model and how a rating is shown (pure: no Django).

Every update is openskill's (`MODEL.rate`); this module only maps its μ and σ to the figures
people see, as docs/ratings.md states them.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()  # the library's defaults: μ 25, σ 25/3, β 25/6, τ 25/300
BASE = 1500  # what the library's starting μ is shown as
SCALE = 20  # shown points per unit of μ
PROVISIONAL_SIGMA = 6.0  # provisional while σ is at least this (about 25 four-player games)
# The medium bot of every game is the fixed point everybody is measured against.
ANCHOR_LEVEL = "medium"


def shown(mu: float) -> int:
    """A μ (or a conservative μ − 3σ) as people see it."""
    return round(BASE + SCALE * (mu - MODEL.mu))


def new_rating(mu: float | None = None, sigma: float | None = None) -> PlackettLuceRating:
    return MODEL.rating(mu=mu, sigma=sigma)


def conservative(mu: float, sigma: float) -> float:
    """μ − 3σ, the library's ordinal: what the leaderboard sorts by."""
    return float(new_rating(mu, sigma).ordinal())


@dataclass(frozen=True)
class Shown:
    """A rating as a page shows it: "1712 ± 38", with a provisional mark until it settles."""

    value: int
    plus_minus: int  # 2σ, shown: about 95% of the time the true rating is within it
    games: int
    provisional: bool

    @classmethod
    def of(cls, mu: float, sigma: float, games: int) -> Shown:
        return cls(
            value=shown(mu),
            plus_minus=round(2 * SCALE * sigma),
            games=games,
            provisional=sigma >= PROVISIONAL_SIGMA,
        )

    @classmethod
    def start(cls) -> Shown:
        return cls.of(MODEL.mu, MODEL.sigma, 0)

    def __str__(self) -> str:
        return f"{self.value}{'?' if self.provisional else ''}"

    @property
    def text(self) -> str:
        return f"{self.value} ± {self.plus_minus}"
