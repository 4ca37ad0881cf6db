"""The rating rows (imported by games/models.py, so they belong to the games app).

`Rating` is a person's current rating in one game; `RatingChange` is one rated game's
result for one person (the history chart; unique per game and person, so a game can never
be rated twice); `BotRating` is a bot level's rating in one game (the anchor level has none:
its rating is fixed, `scale.ANCHOR_LEVEL`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from .scale import MODEL, Shown, conservative


class RatingBase(models.Model):
    kind = models.CharField(max_length=32)
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True

    @property
    def shown(self) -> Shown:
        return Shown.of(self.mu, self.sigma, self.games)

    def set(self, mu: float, sigma: float) -> None:
        self.mu, self.sigma = mu, sigma
        self.games += 1


class Rating(RatingBase):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    # μ − 3σ, stored so that the leaderboard is one indexed ordering.
    conservative = models.FloatField(default=conservative(MODEL.mu, MODEL.sigma))
    # The game's own counters, summed over rated games (GameKind.statistics).
    stats = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_user_and_kind")
        ]
        indexes = [models.Index(fields=["kind", "-conservative"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.kind}: {self.shown}"

    def set(self, mu: float, sigma: float) -> None:
        super().set(mu, sigma)
        self.conservative = conservative(mu, sigma)


class BotRating(RatingBase):
    level = models.CharField(max_length=16)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "level"], name="one_rating_per_bot_level")
        ]

    def __str__(self) -> str:
        return f"{self.level} bot in {self.kind}: {self.shown}"


class RatingChange(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=32)
    number = models.PositiveIntegerField()  # the person's n-th rated game of this kind
    place = models.PositiveSmallIntegerField()  # 0 first, shared by ties and teammates
    mu = models.FloatField()  # after the game
    sigma = models.FloatField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_game"),
        ]
        indexes = [models.Index(fields=["user", "kind", "number"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.user_id} after {self.game_id}"

    @property
    def shown(self) -> Shown:
        return Shown.of(self.mu, self.sigma, self.number)
