"""Who an unsubscribe link speaks for, and turning their letters off (or on again).

A link's token is a random key stored with its owner: a member's `User.unsubscribe_key`, or
an invited address's `MailAddress.unsubscribe_key` (kept by hash, accounts/addresses.py). It
shows nothing about the account and can be replaced (`User.rotate_unsubscribe_key`). Letters
sent before these keys carried a token signed over the user's id; those links still lead to
the confirmation page, whose button turns the letters off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.core import signing
from django.utils import timezone

from accounts.models import MailAddress, User
from games.mail.queue import PREFERENCES

# The salt of the tokens signed over the user id, in letters sent before the random keys.
OLD_TOKEN_SALT = "unsubscribe"

# What a token of ours can be made of: a random key is URL-safe base64, an old signed one that
# and colons. Anything else is nobody's, and is not put to the database (PostgreSQL refuses a
# NUL in a query outright).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_:-]{1,200}")


@dataclass(frozen=True)
class Subscriber:
    """Whom a link speaks for: a member (`user_id`) or an invited address (`address_id`).
    `gone`: an old signed link of an account deleted since."""

    user_id: int | None = None
    address_id: int | None = None
    gone: bool = False


def unsubscribe_token(user: User) -> str:
    """The token of a member's unsubscribe link."""
    return user.unsubscribe_key


def _old_token_user_id(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=OLD_TOKEN_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def subscriber_of(token: str) -> Subscriber | None:
    """Whom an unsubscribe token speaks for, or None when it is not one of ours."""
    if not TOKEN_SHAPE.fullmatch(token):
        return None
    user_id = User.objects.filter(unsubscribe_key=token).values_list("pk", flat=True).first()
    if user_id is not None:
        return Subscriber(user_id=user_id)
    found = MailAddress.objects.filter(unsubscribe_key=token).values_list("pk", flat=True)
    address_id = found.first()
    if address_id is not None:
        return Subscriber(address_id=address_id)
    user_id = _old_token_user_id(token)
    if user_id is None:
        return None
    if not User.objects.filter(pk=user_id).exists():
        return Subscriber(gone=True)
    return Subscriber(user_id=user_id)


def set_subscribed(subscriber: Subscriber, *, on: bool) -> None:
    """Every kind of letter on or off for a member; invitations on or off for an address.
    Doing it twice is the same as once."""
    if subscriber.user_id is not None:
        User.objects.filter(pk=subscriber.user_id).update(**dict.fromkeys(PREFERENCES, on))
    elif subscriber.address_id is not None:
        MailAddress.objects.filter(pk=subscriber.address_id).update(
            suppressed_at=None if on else timezone.now()
        )
