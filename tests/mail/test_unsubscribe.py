"""One-click unsubscribe: the link in every letter, and the List-Unsubscribe POST of mail
programs; no sign-in needed either way."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import mail
from tests.games.conftest import start_table
from tests.mail.conftest import SITE, after, verify

pytestmark = pytest.mark.django_db

CHOICES = ("mail_turns", "mail_invites", "mail_endings", "mail_come_back")


def choices(user):
    user.refresh_from_db()
    return {name: getattr(user, name) for name in CHOICES}


ALL_ON = dict.fromkeys(CHOICES, True)
ALL_OFF = dict.fromkeys(CHOICES, False)


@pytest.fixture
def link(alice, bob, inbox):
    """The unsubscribe link of the turn letter Bob received (a path on this site)."""
    verify(bob)
    start_table([alice, bob])
    mail.send_due(after(61))
    header = str(inbox.only("bob@example.com")["List-Unsubscribe"]).strip()
    assert header.startswith(f"<{SITE}/")
    return header[len(f"<{SITE}") : -1]


def test_following_the_link_signed_out_turns_every_email_off(link, bob):
    response = Client().get(link)
    assert response.status_code == 200
    page = response.content.decode()
    assert "You are unsubscribed" in page
    assert "Turn emails back on" in page
    assert choices(bob) == ALL_OFF
    assert "no-cache" in response["Cache-Control"]


def test_turning_emails_back_on_signed_out(link, bob):
    client = Client(enforce_csrf_checks=True)
    page = client.get(link).content.decode()
    assert choices(bob) == ALL_OFF
    action = re.search(r'<form method="post" action="([^"]+)"', page)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert action and token, page
    response = client.post(action.group(1), {"csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 200
    assert "Emails are on again" in response.content.decode()
    assert choices(bob) == ALL_ON


def test_turning_emails_back_on_needs_the_csrf_token(link, bob):
    client = Client(enforce_csrf_checks=True)
    client.get(link)
    assert client.post(f"{link}undo/").status_code == 403
    assert choices(bob) == ALL_OFF


def test_a_mail_program_unsubscribes_with_one_click(link, bob):
    client = Client(enforce_csrf_checks=True)  # mail programs have no CSRF token
    response = client.post(link, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert choices(bob) == ALL_OFF


def test_a_post_without_the_one_click_body_changes_nothing(link, bob):
    response = Client(enforce_csrf_checks=True).post(link, {"something": "else"})
    assert response.status_code == 400
    assert choices(bob) == ALL_ON


def test_one_users_link_leaves_the_others_alone(link, alice, bob):
    Client().get(link)
    assert choices(alice) == ALL_ON


@pytest.mark.parametrize("token", ["nonsense", "Mg:1xWDwB:forged", "a" * 300])
def test_a_bad_token_gets_a_clean_400(db, token):
    response = Client().get(reverse("unsubscribe", args=[token]))
    assert response.status_code == 400
    assert "This link doesn't work" in response.content.decode()
    response = Client().post(reverse("resubscribe", args=[token]))
    assert response.status_code in {400, 403}  # no CSRF cookie yet, or a bad token


def test_a_token_signed_for_something_else_is_refused(bob):
    from django.core import signing

    token = signing.dumps(bob.pk, salt="something-else")
    assert Client().get(reverse("unsubscribe", args=[token])).status_code == 400
    assert choices(bob) == ALL_ON


def test_the_link_of_a_deleted_account_is_a_404(db):
    from tests.conftest import make_user

    erin = make_user("erin")
    token = mail.unsubscribe_token(erin.pk)
    User.objects.filter(pk=erin.pk).delete()
    response = Client().get(reverse("unsubscribe", args=[token]))
    assert response.status_code == 404
    assert "no longer exists" in response.content.decode()
