"""Table talk's rows: what was said at a game, and who mutes whom.

Both go with the account that wrote (or muted) them (on_delete CASCADE), and neither is
part of a game's JSON export (games/services/history.py writes the rules' trace only).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_TEXT = 300  # characters in one message


class Channel(models.TextChoices):
    # Seated members write here; everybody who may see the game reads it.
    PLAYERS = "players", _("Players")
    # Signed-in spectators of a public game and unseated invitees write here; the players
    # do not see it while the game is under way (games/talk/rules.py).
    SPECTATORS = "spectators", _("Spectators")


class ChatMessage(models.Model):
    """One message or quick reaction said at a game (`reaction` is a code of
    games/talk/rules.py REACTIONS; then `text` is empty)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="talk")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="talk"
    )
    channel = models.CharField(max_length=10, choices=Channel.choices)
    text = models.CharField(max_length=MAX_TEXT, blank=True)
    reaction = models.CharField(max_length=16, blank=True)
    # The sender's seat when they said it (None: not seated): the bubble shows by it.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # How many moves the game had when it was said: the replay shows it at its place.
    at_action = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "pk"]
        indexes = [models.Index(fields=["game", "at_action"], name="talk_by_game")]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(reaction="") & ~models.Q(text=""))
                | (~models.Q(reaction="") & models.Q(text="")),
                name="talk_is_text_or_reaction",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.game_id}: {self.reaction or self.text[:20]}"


class ChatMute(models.Model):
    """`user` does not want to see what `muted` says (anywhere, for themselves only)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="talk_mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="talk_muted_by"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(user=models.F("muted")), name="no_muting_yourself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"
