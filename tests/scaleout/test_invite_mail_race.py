"""The daily limit of invitations one sender may email holds when their requests arrive all
at once, on PostgreSQL (where, unlike SQLite, writers do not take turns by themselves): 40
POSTs at the same moment, each for another of the sender's games (so that no game's row lock
lines them up), give exactly the limit of accepted requests and letters.

Real requests on their own threads and database connections, a really committed database
(`transaction=True`), and letters counted at the real SMTP server (`inbox`)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from games.models import Invitation
from games.services import lobby
from tests.conftest import logged_in_client
from tests.games.test_concurrency import race
from tests.mail.conftest import inbox, verify

__all__ = ["inbox"]  # the SMTP server fixture, used by name below

pytestmark = pytest.mark.scaleout

POSTS = 40
GAMES = POSTS
LIMIT = 20


@pytest.mark.django_db(transaction=True)
def test_parallel_invitation_posts_never_exceed_the_senders_limit(alice, inbox, settings):
    assert connection.vendor == "postgresql"
    settings.INVITE_MAIL_PER_SENDER = LIMIT
    # Only the sender's limit here: the one per client address (all of these come from
    # 127.0.0.1) is tested in tests/mail/test_invite_mail.py.
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "invite_mail": "1000/h/ip"}
    verify(alice)
    games = [
        lobby.create_game(organizer=alice, name=f"Cards {n}", public=False, max_players=4)
        for n in range(GAMES)
    ]
    clients = [logged_in_client(alice) for _ in range(POSTS)]
    headers = {"HX-Request": "true", "HX-Target": "invite-box"}

    def post(n: int):
        url = reverse("invite-email", args=[games[n % GAMES].pk])
        return clients[n].post(url, {"email": f"friend{n}@example.org"}, headers=headers)

    results = race(*(lambda n=n: post(n) for n in range(POSTS)))

    assert not any(isinstance(r, Exception) for r in results), results
    codes = sorted(r.status_code for r in results)
    accepted = f"{codes.count(200)} accepted, {len(inbox.messages)} letters"
    assert codes == [200] * LIMIT + [429] * (POSTS - LIMIT), accepted
    assert len(inbox.messages) == LIMIT
    assert Invitation.objects.filter(token__isnull=False).count() == LIMIT
