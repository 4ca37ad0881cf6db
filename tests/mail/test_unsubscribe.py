"""Unsubscribing: the link in every letter shows a page whose button turns letters off, and
mail programs' List-Unsubscribe POST (RFC 8058) does the same; no sign-in needed either way.
Following the link changes nothing: mail providers' link scanners fetch every link."""

from __future__ import annotations

import base64
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


ONE_CLICK = {"List-Unsubscribe": "One-Click"}


def button_of(page: str) -> tuple[str, dict[str, str]]:
    """The action and fields of the unsubscribe page's form."""
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', page, re.S)
    assert form, page
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    return form.group(1), fields


def test_following_the_link_signed_out_changes_nothing_and_shows_a_button(link, bob):
    response = Client().get(link)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Unsubscribe?" in page and ">Unsubscribe</button>" in page
    assert choices(bob) == ALL_ON
    assert "no-cache" in response["Cache-Control"]
    assert button_of(page) == (link, ONE_CLICK)


def test_the_pages_button_unsubscribes_then_turns_emails_back_on(link, bob):
    client = Client(enforce_csrf_checks=True)
    action, fields = button_of(client.get(link).content.decode())
    response = client.post(action, fields)
    assert response.status_code == 200
    page = response.content.decode()
    assert "You are unsubscribed" in page
    assert choices(bob) == ALL_OFF
    action, fields = button_of(page)
    assert "csrfmiddlewaretoken" in fields
    response = client.post(action, fields)
    assert response.status_code == 200
    assert "Emails are on again" in response.content.decode()
    assert choices(bob) == ALL_ON


def test_turning_emails_back_on_needs_the_csrf_token(link, bob):
    client = Client(enforce_csrf_checks=True)
    client.post(link, ONE_CLICK)
    assert client.post(f"{link}undo/").status_code == 403
    assert choices(bob) == ALL_OFF


def test_a_mail_program_unsubscribes_with_one_click_twice_the_same_as_once(link, bob):
    client = Client(enforce_csrf_checks=True)  # mail programs have no CSRF token
    for _ in range(2):
        response = client.post(link, ONE_CLICK)
        assert response.status_code == 200
        assert choices(bob) == ALL_OFF


def test_a_post_without_the_one_click_body_changes_nothing(link, bob):
    response = Client(enforce_csrf_checks=True).post(link, {"something": "else"})
    assert response.status_code == 400
    assert choices(bob) == ALL_ON


def test_one_users_link_leaves_the_others_alone(link, alice, bob):
    Client().post(link, ONE_CLICK)
    assert choices(alice) == ALL_ON


# "\x00": PostgreSQL refuses a NUL in a query (a 500 before); the rest any database finds.
@pytest.mark.parametrize(
    "token", ["nonsense", "Mg:1xWDwB:forged", "a" * 300, "a\x00b", "\x00", "é☃", "..%2f.."]
)
def test_a_bad_token_gets_a_clean_400(db, token):
    response = Client().get(reverse("unsubscribe", args=[token]))
    assert response.status_code == 400
    assert "This link doesn't work" in response.content.decode()
    response = Client().post(reverse("unsubscribe", args=[token]), ONE_CLICK)
    assert response.status_code == 400
    response = Client().post(reverse("resubscribe", args=[token]))
    assert response.status_code in {400, 403}  # no CSRF cookie yet, or a bad token


def test_a_token_signed_for_something_else_is_refused(bob):
    from django.core import signing

    token = signing.dumps(bob.pk, salt="something-else")
    assert Client().get(reverse("unsubscribe", args=[token])).status_code == 400
    assert Client().post(reverse("unsubscribe", args=[token]), ONE_CLICK).status_code == 400
    assert choices(bob) == ALL_ON


def token_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def test_the_token_is_random_and_shows_nothing_of_the_account(link, alice, bob):
    token = token_of(link)
    bob.refresh_from_db()
    assert token == bob.unsubscribe_key != alice.unsubscribe_key
    assert len(token) >= 32
    # Not the id in any readable form: not in clear, nor as the base64 of it that a signed
    # value starts with ("NDA" for 40), nor anything signing can read.
    from django.core import signing

    for shown in (str(bob.pk), base64.urlsafe_b64encode(str(bob.pk).encode()).decode()):
        assert not token.startswith(shown)
    assert ":" not in token
    with pytest.raises(signing.BadSignature):
        signing.loads(token, salt="unsubscribe")


def test_a_new_key_cancels_the_links_already_sent(link, bob):
    bob.rotate_unsubscribe_key()
    assert Client().post(link, ONE_CLICK).status_code == 400
    assert choices(bob) == ALL_ON
    new = reverse("unsubscribe", args=[bob.unsubscribe_key])
    assert Client().post(new, ONE_CLICK).status_code == 200
    assert choices(bob) == ALL_OFF


def test_a_link_from_before_the_random_keys_still_leads_to_the_button(bob):
    """Letters sent before carried a token signed over the user's id."""
    from django.core import signing

    old = reverse("unsubscribe", args=[signing.dumps(bob.pk, salt="unsubscribe")])
    client = Client(enforce_csrf_checks=True)
    page = client.get(old).content.decode()
    assert "Unsubscribe?" in page
    assert choices(bob) == ALL_ON
    action, fields = button_of(page)
    assert client.post(action, fields).status_code == 200
    assert choices(bob) == ALL_OFF


def test_the_old_link_of_a_deleted_account_is_a_404(db):
    from django.core import signing

    from tests.conftest import make_user

    erin = make_user("erin")
    old, new = signing.dumps(erin.pk, salt="unsubscribe"), erin.unsubscribe_key
    User.objects.filter(pk=erin.pk).delete()
    response = Client().get(reverse("unsubscribe", args=[old]))
    assert response.status_code == 404
    assert "no longer exists" in response.content.decode()
    assert Client().get(reverse("unsubscribe", args=[new])).status_code == 400
