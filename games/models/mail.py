"""Letters to send later: games/mail/ queues, decides and sends them. The row stays here
rather than in games/mail/ (as ratings and talk keep theirs): that package's __init__ loads
its modules, which read the models, so `games.models` loading it would import itself back."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models.game import Game


class PendingMail(models.Model):
    """An email to send later, once (games/mail/): a turn email waits a little so that a
    quick reconnect cancels it, and quiet hours postpone any. `key` makes it unique: the
    action count for a turn. A turn letter that goes records the absence it tells of
    (`absence`), so a second letter for the same absence cannot be written."""

    class Reason(models.TextChoices):
        TURN = "turn", _("Your turn")
        INVITED = "invited", _("Invited")
        ENDED = "ended", _("Game over")
        COME_BACK = "come_back", _("Asked to come back")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pending_mail"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pending_mail")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    key = models.PositiveIntegerField(default=0)
    due_at = models.DateTimeField()
    # Set once handled: sent, or dropped (the player came back, mail is off, no address).
    done_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=40, blank=True)
    # A turn letter that went: when the player's absence began (whole seconds since the
    # epoch, 0 if they never had the game open; games/live/presence.py). Empty otherwise.
    absence = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["due_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "reason", "key"], name="one_pending_mail_per_reason"
            ),
            models.UniqueConstraint(
                fields=["user", "game", "absence"],
                condition=Q(reason="turn"),
                name="one_turn_mail_per_absence",
            ),
        ]
        indexes = [
            models.Index(fields=["due_at"], condition=Q(done_at__isnull=True), name="mail_due"),
        ]

    def __str__(self) -> str:
        return f"{self.reason} mail to {self.user_id} for {self.game_id}"
