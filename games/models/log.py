"""Each game's log: the numbered actions applied to it (append-only), and a snapshot of
the engine state at the start of each hand, so a load never replays more than one hand."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.game import Game


class GameAction(models.Model):
    """One accepted move, numbered from 1. The log is append-only (an undo is a row too)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()  # the game kind's rules.action_to_json(action)
    auto = models.BooleanField(default=False, help_text=_("Chosen by the server's bot."))
    # Undo by consent (games/services/undo.py): a row that takes back the action `undoes`
    # (its `move` is empty, its seat the asker's), and the action it took back, marked. The
    # log keeps both; the state after the undo row is the state before the undone action.
    undoes = models.PositiveIntegerField(null=True, blank=True)
    undone = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_action_seq_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}"


class Snapshot(models.Model):
    """The engine state after `seq` actions (taken at round starts), so loads stay flat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.JSONField()  # the game kind's rules.state_to_json(state)

    class Meta:
        ordering = ["game", "-seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_snapshot_seq_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.seq}"
