"""The profile's email choices, and the verification allauth sends at sign-up: only a
verified address gets letters."""

from __future__ import annotations

import re
from datetime import time

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import mail
from tests.conftest import PASSWORD, logged_in_client
from tests.games.conftest import start_table
from tests.mail.conftest import after, text_of, verify

pytestmark = pytest.mark.django_db

ALL = {
    "mail_turns": "on",
    "mail_invites": "on",
    "mail_endings": "on",
    "mail_come_back": "on",
    "time_zone": "UTC",
}


def save(user, **data):
    return logged_in_client(user).post(reverse("mail-settings"), data)


def test_the_profile_shows_the_email_choices_and_the_address_state(alice):
    page = logged_in_client(alice).get(reverse("profile")).content.decode()
    assert "When it is my turn" in page and "When someone asks me to come back" in page
    assert "not verified" in page
    assert "only send emails to a verified address" in page
    assert '<option value="Europe/Paris">Europe/Paris</option>' in page
    assert '<option value="UTC" selected>UTC</option>' in page
    verify(alice)
    page = logged_in_client(alice).get(reverse("profile")).content.decode()
    assert 'alice@example.com <span class="tag">verified</span>' in page
    assert "only send emails to a verified address" not in page


def test_choices_quiet_hours_and_time_zone_are_saved(alice):
    data = {**ALL, "time_zone": "America/New_York", "quiet_from": "22:00", "quiet_until": "07:30"}
    del data["mail_turns"]  # an unticked box is not posted
    response = save(alice, **data)
    assert response.status_code == 302
    alice.refresh_from_db()
    assert not alice.mail_turns and alice.mail_invites and alice.mail_come_back
    assert (alice.quiet_from, alice.quiet_until) == (time(22), time(7, 30))
    assert alice.time_zone == "America/New_York"
    assert alice.display_name == "Alice"  # the other form's field is left alone
    page = logged_in_client(alice).get(reverse("profile")).content.decode()
    assert 'value="22:00"' in page and 'value="07:30"' in page


def test_unticked_boxes_turn_emails_off(alice):
    save(alice, time_zone="UTC")
    alice.refresh_from_db()
    assert not any((alice.mail_turns, alice.mail_invites, alice.mail_endings, alice.mail_come_back))


@pytest.mark.parametrize(
    ("quiet", "message"),
    [
        ({"quiet_from": "22:00"}, "both a start and an end"),
        ({"quiet_until": "08:00"}, "both a start and an end"),
        ({"quiet_from": "08:00", "quiet_until": "08:00"}, "another time"),
    ],
)
def test_quiet_hours_need_both_ends(alice, quiet, message):
    response = save(alice, **ALL, **quiet)
    assert response.status_code == 400
    assert message in response.content.decode()
    alice.refresh_from_db()
    assert alice.quiet_from is None and alice.quiet_until is None


def test_an_unknown_time_zone_is_refused(alice):
    response = save(alice, **{**ALL, "time_zone": "Mars/Olympus"})
    assert response.status_code == 400
    assert "Choose a time zone from the list." in response.content.decode()


def test_the_choices_need_sign_in_and_a_post(alice, client):
    assert client.post(reverse("mail-settings"), ALL).status_code == 302
    assert logged_in_client(alice).get(reverse("mail-settings")).status_code == 405


def test_a_new_player_verifies_their_address_and_then_gets_letters(alice, inbox):
    client = Client()
    response = client.post(
        reverse("account_signup"),
        {
            "username": "erin",
            "email": "erin@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302  # signed in at once: verification is optional
    erin = User.objects.get(username="erin")
    assert client.get(reverse("lobby")).context["user"] == erin  # the lobby, signed in
    confirmation = inbox.only("erin@example.org")
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", text_of(confirmation))
    assert link, text_of(confirmation)

    verify(alice)
    game = start_table([alice, erin])  # erin (seat 1) is to act, address not verified yet
    mail.send_due(after(61))
    assert len(inbox.messages) == 1  # only the confirmation

    assert client.post(link.group(1)).status_code == 302  # "Confirm"
    mail.turn_began(game, [erin.pk])  # the same turn: no second letter
    game.action_count += 1
    mail.turn_began(game, [erin.pk])  # (as if) her next turn
    mail.send_due(after(122))
    assert [r[0] for r in inbox.recipients] == ["erin@example.org", "erin@example.org"]
