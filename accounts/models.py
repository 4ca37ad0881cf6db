from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A person who plays. Knows nothing about cards."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="The name other players see at the table. Leave empty to use your username.",
    )

    # Which emails this person wants (games/mail/), and quiet hours in their time zone
    # during which none is sent (postponed to the end of them). Unsubscribing turns all off.
    mail_turns = models.BooleanField("When it is my turn", default=True)
    mail_invites = models.BooleanField("When I am invited", default=True)
    mail_endings = models.BooleanField("When a game I play ends", default=True)
    mail_come_back = models.BooleanField("When someone asks me to come back", default=True)
    quiet_from = models.TimeField("Quiet hours from", null=True, blank=True)
    quiet_until = models.TimeField("Quiet hours until", null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
