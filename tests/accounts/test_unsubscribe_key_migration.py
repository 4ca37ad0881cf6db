"""accounts 0003 gives every existing account its own random unsubscribe key (a unique
field added to a populated table: one key each, not one shared default)."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.games.test_migrations import latest, migrate_to

BEFORE = [("accounts", "0002_mail_settings")]
AFTER = [("accounts", "0003_unsubscribe_key_and_address_letters")]


@pytest.mark.django_db(transaction=True)
def test_existing_accounts_get_a_key_each():
    old_apps = migrate_to(BEFORE)
    try:
        OldUser = old_apps.get_model("accounts", "User")
        for name in ("ann", "ben", "cat"):
            OldUser.objects.create(username=name)
        migrate_to(AFTER)
        keys = list(
            User.objects.filter(username__in=["ann", "ben", "cat"]).values_list(
                "unsubscribe_key", flat=True
            )
        )
        assert len(keys) == 3 and len(set(keys)) == 3
        assert all(len(key) >= 32 for key in keys)
    finally:
        migrate_to(latest())  # the later migrations too: the next tests need the whole schema
