"""Fixtures for the friends and blocking tests (docs/friends.md)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _quick(settings):
    """Fast password hashing for the personas; bots play at once."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.BOT_DELAY_SECONDS = 0


def befriend(a, b):
    """Make `a` and `b` friends through the services (a request, then its acceptance)."""
    from accounts import friends

    friends.send_request(by=a, username=b.username)
    friends.accept_request(by=b, username=a.username)
