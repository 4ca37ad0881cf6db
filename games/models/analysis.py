"""A finished game's analysis by the search (docs/analysis.md): one row per game, a queue
entry while it waits or runs, then its stored result, kept until the analysis's version
changes (games/kinds/analysis.py `ANALYSIS_VERSION`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.game import Game


class GameAnalysis(models.Model):
    """Deferred work is a row: queued by a request, claimed by one process's deadline sweep
    (`claimed_until`, renewed with each progress write; a claim that lapsed, say by a
    restart, is taken again and the analysis starts over), then done or failed."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)  # moves of the log walked so far
    total = models.PositiveIntegerField(default=0)  # moves of the log (set when claimed)
    # The grades (games/services/analysis.py `as_json`): per decision and per seat.
    result = models.JSONField(null=True, blank=True)
    version = models.CharField(max_length=40, blank=True)  # ANALYSIS_VERSION it was run with
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="analyses",
    )
    requested_at = models.DateTimeField(default=timezone.now)
    claimed_until = models.DateTimeField(null=True, blank=True)
    attempt = models.PositiveIntegerField(
        default=0
    )  # bumped by each claim: a stale one writes nothing
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "requested_at"], name="analysis_queue")]

    def __str__(self) -> str:
        return f"analysis of {self.game_id}: {self.status}"
