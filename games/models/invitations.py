"""Invitations to a game: by name (an invitee) or by a private link (a token, single use,
expiring after INVITE_LINK_LIFETIME)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.game import Game

INVITE_LINK_LIFETIME = timedelta(days=7)


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        REVOKED = "revoked", _("Revoked")
        EXPIRED = "expired", _("Expired")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    # Set for an invitation by name; for a link, set once somebody uses the link.
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations_received",
    )
    # Set for a private invite link: unguessable, single use.
    token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "invitee"],
                condition=Q(state="pending", invitee__isnull=False),
                name="one_pending_invitation_per_invitee",
            ),
            models.CheckConstraint(
                condition=Q(invitee__isnull=False) | Q(token__isnull=False),
                name="invitation_names_a_person_or_has_a_link",
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation to {self.game_id} ({self.state})"

    @property
    def is_link(self) -> bool:
        return self.token is not None

    def has_expired(self, now: Any = None) -> bool:
        return self.expires_at is not None and (now or timezone.now()) >= self.expires_at
