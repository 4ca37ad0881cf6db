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

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
