"""Each due letter is claimed by one sweep only: called twice, or by two threads at once
(each with its own database connection, as two sweeps in two processes would be)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import timezone

from games import mail
from games.mail import sending
from games.models import PendingMail
from tests.conftest import make_user
from tests.games.conftest import seat_game
from tests.mail.conftest import after, verify


def queue_invitations(count):
    """`count` due INVITED letters, queued as the lobby does, to as many verified users."""
    from games.models import Invitation

    organizer = make_user("olga")
    game = seat_game([organizer], bots=1)
    users = [make_user(f"player{n}") for n in range(count)]
    verify(*users)
    for user in users:
        invitation = Invitation.objects.create(game=game, inviter=organizer, invitee=user)
        mail.invitation_sent(invitation)
    return users


@pytest.mark.django_db
def test_a_second_sweep_finds_nothing_left_to_send(inbox):
    queue_invitations(3)
    assert mail.send_due() == 3
    assert mail.send_due() == 0
    assert mail.send_due(after(3600)) == 0
    assert len(inbox.messages) == 3
    assert set(PendingMail.objects.values_list("outcome", flat=True)) == {"sent"}


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_send_each_letter_once(inbox, settings):
    # More rows than one claim takes, so both sweeps have work while the other claims.
    count = sending.BATCH * 2 + 7
    users = queue_invitations(count)
    now = timezone.now()
    start = threading.Barrier(2)
    handled: list[int] = []
    errors: list[BaseException] = []

    def sweep():
        try:
            start.wait()
            handled.append(mail.send_due(now))
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert sum(handled) == count
    received = sorted(r[0] for r in inbox.recipients)
    assert received == sorted(u.email for u in users)  # every letter, none twice
    assert not PendingMail.objects.filter(done_at__isnull=True).exists()


def test_the_claim_skips_rows_another_sweep_holds():
    """On PostgreSQL the claim must pass over rows locked by another sweep (SQLite has one
    writer at a time, so there the lock clause is left out of the SQL)."""
    query = sending.due(timezone.now()).select_for_update(skip_locked=True, of=("self",)).query
    assert query.select_for_update and query.select_for_update_skip_locked
