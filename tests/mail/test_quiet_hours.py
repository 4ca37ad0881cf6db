"""Quiet hours, in the player's own time zone, postpone a letter to their end (then it is
decided again); a window may wrap midnight."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from games import mail
from games.mail.deciding import quiet_end
from games.models import Membership, PendingMail
from tests.games.conftest import start_table
from tests.mail.conftest import verify

pytestmark = pytest.mark.django_db


def at(year, month, day, hour=0, minute=0):
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.fixture
def bob_sleeps(alice, bob):
    """Bob (Paris) is quiet from 22:00 to 08:00; his turn mail fell due long ago."""
    verify(bob)
    bob.quiet_from, bob.quiet_until, bob.time_zone = time(22), time(8), "Europe/Paris"
    bob.save()
    game = start_table([alice, bob])
    PendingMail.objects.update(due_at=at(2025, 1, 1))
    return game


def test_a_letter_due_in_the_evening_waits_for_the_morning(bob_sleeps, bob, inbox):
    # 22:30 UTC on 15 January is 23:30 in Paris (UTC+1): inside the window, before midnight.
    assert mail.send_due(at(2025, 1, 15, 22, 30)) == 1  # handled: postponed
    assert inbox.messages == []
    row = PendingMail.objects.get(user=bob)
    assert row.done_at is None
    assert row.due_at == at(2025, 1, 16, 7, 0)  # 08:00 in Paris
    assert mail.send_due(at(2025, 1, 16, 6, 59)) == 0  # still quiet, nothing due
    assert mail.send_due(at(2025, 1, 16, 7, 0)) == 1
    assert len(inbox.to("bob@example.com")) == 1


def test_after_midnight_the_same_morning_ends_the_window(bob_sleeps, bob, inbox):
    # 01:00 UTC in July is 03:00 in Paris (summer time, UTC+2).
    mail.send_due(at(2025, 7, 10, 1, 0))
    assert inbox.messages == []
    assert PendingMail.objects.get(user=bob).due_at == at(2025, 7, 10, 6, 0)


def test_outside_quiet_hours_the_letter_goes(bob_sleeps, bob, inbox):
    mail.send_due(at(2025, 1, 15, 12, 0))  # 13:00 in Paris
    assert len(inbox.to("bob@example.com")) == 1


def test_the_turn_is_checked_again_when_quiet_hours_end(bob_sleeps, bob, inbox):
    mail.send_due(at(2025, 1, 15, 22, 30))  # postponed to 08:00
    Membership.objects.filter(user=bob).update(must_act=False)  # he played in the night
    mail.send_due(at(2025, 1, 16, 7, 0))
    assert inbox.messages == []
    assert PendingMail.objects.get(user=bob).outcome == "turn passed"


@pytest.mark.parametrize(
    ("start", "end", "zone", "now", "expected"),
    [
        # A daytime window in UTC: inside, and its end the same day.
        (time(13), time(15), "UTC", at(2025, 3, 3, 14, 0), at(2025, 3, 3, 15, 0)),
        (time(13), time(15), "UTC", at(2025, 3, 3, 15, 0), None),  # the end is outside
        (time(13), time(15), "UTC", at(2025, 3, 3, 12, 59), None),
        # Wrapping midnight in New York (UTC-5 in winter): 23:00 local is 04:00 UTC.
        (time(22), time(7), "America/New_York", at(2025, 1, 8, 4, 0), at(2025, 1, 8, 12, 0)),
        (time(22), time(7), "America/New_York", at(2025, 1, 8, 12, 0), None),
        # Tokyo (UTC+9): 06:30 local on the 9th is 21:30 UTC on the 8th.
        (time(23), time(7), "Asia/Tokyo", at(2025, 1, 8, 21, 30), at(2025, 1, 8, 22, 0)),
        # An unknown zone counts as UTC rather than failing.
        (time(22), time(8), "Mars/Olympus", at(2025, 1, 8, 23, 0), at(2025, 1, 9, 8, 0)),
    ],
)
def test_the_end_of_quiet_hours(bob, start, end, zone, now, expected):
    bob.quiet_from, bob.quiet_until, bob.time_zone = start, end, zone
    assert quiet_end(bob, now) == expected


def test_no_quiet_hours_without_both_ends(bob):
    bob.quiet_from, bob.quiet_until = time(22), None
    assert quiet_end(bob, at(2025, 1, 8, 23, 0)) is None
