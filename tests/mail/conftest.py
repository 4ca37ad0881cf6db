"""Fixtures for the email tests: a real SMTP server on 127.0.0.1 that Django sends to, and
personas with verified addresses.

`inbox` starts aiosmtpd's Controller on a free port with a handler that keeps every message
it receives, and points Django's SMTP backend at it (no TLS, no login). Letters are sent by
`games.mail.send_due(now)`: tests pass a moved clock instead of waiting.
"""

from __future__ import annotations

import email
import email.policy
import threading
from datetime import timedelta
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from tests.servers import free_port

SITE = "http://cards.example"


class Inbox:
    """What the SMTP server received, in order."""

    def __init__(self):
        self._lock = threading.Lock()
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        pairs = zip(self.messages, self.recipients, strict=True)
        return [message for message, rcpt in pairs if address in rcpt]

    def only(self, address: str) -> EmailMessage:
        """The one message to `address` (and nobody else got any)."""
        assert self.recipients == [[address]], self.recipients
        return self.messages[0]


@pytest.fixture
def inbox(settings):
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    yield handler
    controller.stop()


@pytest.fixture(autouse=True)
def _mail_settings(settings):
    """Bots play at once (as in tests/games), fast password hashing, a known site address."""
    settings.BOT_DELAY_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SITE_URL = SITE
    settings.TURN_MAIL_DELAY_SECONDS = 60


def verify(*users):
    """Give each user a verified primary address (what following allauth's link does)."""
    from allauth.account.models import EmailAddress

    for user in users:
        EmailAddress.objects.update_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )


def after(seconds: float):
    """The time `seconds` from now: a moved clock for send_due."""
    from django.utils import timezone

    return timezone.now() + timedelta(seconds=seconds)


def part_of(message: EmailMessage, subtype: str) -> str:
    part = message.get_body(preferencelist=(subtype,))
    assert part is not None and part.get_content_subtype() == subtype, message
    return str(part.get_content())


def text_of(message: EmailMessage) -> str:
    return part_of(message, "plain")


def html_of(message: EmailMessage) -> str:
    return part_of(message, "html")
