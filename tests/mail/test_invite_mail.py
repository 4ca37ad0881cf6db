"""Invite links emailed to an address cannot make the site a spam relay: only verified
senders, limits per address (across senders), per sender and per client address, an
unsubscribe link and suppression for addresses with no account, and letters in the site's
own words. Letters are counted at the real SMTP server (`inbox`)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import MailAddress, User
from games.models import Invitation
from games.services import lobby
from tests.conftest import logged_in_client, make_user
from tests.mail.conftest import SITE, html_of, text_of, verify

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "invite-box"}
ONE_CLICK = {"List-Unsubscribe": "One-Click"}


@pytest.fixture
def send(django_capture_on_commit_callbacks):
    """POST the waiting room's "email a link" form as `user` for their own game (made on
    first use); the letter goes after commit, as in a real request."""
    games: dict[int, int] = {}

    def post(user, address, **meta):
        if user.pk not in games:
            game = lobby.create_game(organizer=user, name="Cards", public=False, max_players=4)
            games[user.pk] = game.pk
        url = reverse("invite-email", args=[games[user.pk]])
        with django_capture_on_commit_callbacks(execute=True):
            return logged_in_client(user).post(url, {"email": address}, headers=HTMX, **meta)

    return post


def said(response):
    return response.content.decode()


def test_an_unverified_account_may_not_email_invitations_and_is_told_why(dave, send, inbox):
    response = send(dave, "erin@example.org")
    assert response.status_code == 403
    assert "Only players with a verified email address can email invitations" in said(response)
    assert inbox.messages == []
    assert not Invitation.objects.exists()  # no link was left behind either


def test_the_waiting_room_says_why_the_box_is_disabled_and_where_to_verify(alice, dave):
    room = lobby.create_game(organizer=dave, name="Cards", public=False, max_players=4)
    page = said(logged_in_client(dave).get(reverse("waiting-room", args=[room.pk])))
    box = page[page.index('class="invite-form invite-email"') :]
    box = box[: box.index("</form>")]
    assert "Emailing invitations needs a verified email address" in box
    assert f'href="{reverse("account_email")}"' in box
    assert re.search(r'<input id="invite-email"[^>]*\bdisabled\b', box)
    verify(dave)
    page = said(logged_in_client(dave).get(reverse("waiting-room", args=[room.pk])))
    assert "Emailing invitations needs a verified email address" not in page
    assert not re.search(r'<input id="invite-email"[^>]*\bdisabled\b', page)


def test_an_address_gets_a_few_a_day_whoever_sends_them(alice, bob, carol, send, inbox):
    verify(alice, bob, carol)
    for sender in (alice, bob, carol):
        assert send(sender, "erin@example.org").status_code == 200
    response = send(carol, "ERIN@example.org")  # the same address, written otherwise
    assert response.status_code == 429
    assert "That address has had as many invitations from us today" in said(response)
    assert len(inbox.to("erin@example.org")) + len(inbox.to("ERIN@example.org")) == 3
    assert send(carol, "frank@example.org").status_code == 200  # another address: fine


def test_a_sender_gets_a_few_a_day(alice, send, inbox, settings):
    verify(alice)
    settings.INVITE_MAIL_PER_SENDER = 2
    assert [send(alice, f"friend{n}@example.org").status_code for n in range(3)] == [
        200,
        200,
        429,
    ]
    assert len(inbox.messages) == 2


def test_a_client_address_gets_a_few_an_hour_across_accounts(alice, bob, send, inbox, settings):
    verify(alice, bob)
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "invite_mail": "2/h/ip"}
    here, elsewhere = {"REMOTE_ADDR": "198.51.100.7"}, {"REMOTE_ADDR": "198.51.100.8"}
    assert send(alice, "one@example.org", **here).status_code == 200
    assert send(alice, "two@example.org", **here).status_code == 200
    response = send(bob, "three@example.org", **here)
    assert response.status_code == 429
    assert "Too many invitations were emailed from your network" in said(response)
    assert send(bob, "three@example.org", **elsewhere).status_code == 200
    assert len(inbox.messages) == 3


def test_behind_a_proxy_the_client_address_is_the_one_it_forwards(alice, bob, send, settings):
    verify(alice, bob)
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "invite_mail": "1/h/ip"}
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1  # what BEHIND_PROXY=1 sets
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    assert send(alice, "a@example.org", **proxy, HTTP_X_FORWARDED_FOR="203.0.113.5").status_code
    second = send(bob, "b@example.org", **proxy, HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert second.status_code == 200  # another client behind the same proxy
    spoofed = send(bob, "c@example.org", **proxy, HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.6")
    assert spoofed.status_code == 429  # what the client wrote before the proxy's is ignored


def unsubscribe_link(message) -> str:
    header = str(message["List-Unsubscribe"]).strip()
    assert header.startswith(f"<{SITE}/") and header.endswith(">"), header
    assert str(message["List-Unsubscribe-Post"]).strip() == "List-Unsubscribe=One-Click"
    path = header[len(f"<{SITE}") : -1]
    assert f"{SITE}{path}" in text_of(message) and f'href="{SITE}{path}"' in html_of(message)
    return path


def test_an_address_with_no_account_can_unsubscribe_and_gets_nothing_more(alice, bob, send, inbox):
    verify(alice, bob)
    send(alice, "erin@example.org")
    link = unsubscribe_link(inbox.messages[0])
    page = Client().get(link)  # a link scanner, or Erin reading: nothing changes yet
    assert page.status_code == 200
    assert "We will send no more invitations to this address." in said(page)
    assert send(bob, "erin@example.org").status_code == 200
    assert len(inbox.messages) == 2
    for _ in range(2):  # the one-click POST, twice the same as once
        assert Client(enforce_csrf_checks=True).post(link, ONE_CLICK).status_code == 200
    response = send(bob, " Erin@EXAMPLE.org ")
    assert response.status_code == 422
    assert "That address asked us to send it no more invitations" in said(response)
    assert len(inbox.messages) == 2
    # The suppression list keeps a hash, not the address.
    (row,) = MailAddress.objects.values()
    assert not any("erin" in str(value).lower() for value in row.values())


def test_a_member_who_turned_invitations_off_gets_none_by_address(alice, bob, send, inbox):
    verify(alice, bob)
    User.objects.filter(pk=bob.pk).update(mail_invites=False)
    assert send(alice, "bob@example.com").status_code == 422
    assert inbox.messages == []


def test_an_unverified_claim_on_an_address_cannot_turn_its_invitations_off(alice, bob, send, inbox):
    """Only the mailbox's owner may silence it: an account that merely typed the address
    (never verified it) and turned invitations off does not stop a friend's letter."""
    from allauth.account.models import EmailAddress

    verify(alice)
    EmailAddress.objects.create(user=bob, email="erin@example.org", verified=False)
    User.objects.filter(pk=bob.pk).update(mail_invites=False)
    assert send(alice, "erin@example.org").status_code == 200
    assert len(inbox.to("erin@example.org")) == 1


def all_of(message) -> str:
    return "\n".join([str(message["Subject"]), text_of(message), html_of(message)])


def test_the_letter_carries_no_words_or_links_of_the_senders_choosing(alice, send, inbox):
    verify(alice)
    game = lobby.create_game(
        organizer=alice, name="Win cash at spam.example", public=False, max_players=4
    )
    url = reverse("invite-email", args=[game.pk])
    logged_in_client(alice).post(url, {"email": "one@example.org"}, headers=HTMX)
    # The letter of that link, written again under each name below (not sent: no commit).
    from games.mail import send_invite_link

    link = Invitation.objects.get(game=game)
    key = MailAddress.objects.get().unsubscribe_key
    assert send_invite_link(link, "one@example.org", unsubscribe_key=key)
    first = inbox.messages[0]
    assert first["Subject"] == "Alice invites you to a game of Hundred and Ten"
    assert "Alice" in text_of(first) and "<strong>Alice</strong>" in html_of(first)
    # The last four as people write a domain to get it past a filter ("defanged"), or with a
    # dot that is another character, or one hidden behind an invisible one.
    names: tuple[str, ...] = (
        "www.spam.example",
        "win@spam.example",
        "spam.example/win",
        "http://x",
    )
    names += ("spam[.]example", "spam (dot) example", "spam\u2024example", "spam\u200b.example")
    for name in names:
        User.objects.filter(pk=alice.pk).update(display_name=name)
        link.refresh_from_db()
        link.inviter.refresh_from_db()
        assert send_invite_link(link, "one@example.org", unsubscribe_key=key)
        letter = all_of(inbox.messages[-1])
        assert "A player invites you to a game of Hundred and Ten" in letter
        assert "spam" not in letter and "http://x" not in letter and "win@" not in letter
    assert all("Win cash" not in all_of(message) for message in inbox.messages)


def test_the_invited_letter_carries_neither_the_game_name_nor_an_address(alice, bob, inbox):
    from games import mail

    verify(bob)
    User.objects.filter(pk=alice.pk).update(display_name="spam.example")
    alice.refresh_from_db()
    game = lobby.create_game(
        organizer=alice, name="Go to spam.example", public=False, max_players=4
    )
    lobby.invite(game_id=game.pk, by=alice, username="bob")
    mail.send_due()
    letter = all_of(inbox.only("bob@example.com"))
    assert "A player invites you to a game of Hundred and Ten" in letter
    assert "spam" not in letter


# Django's EmailValidator lets each of these through (a bare IP such as a@10.0.0.1 it refuses).
# The last two the mail library cannot write (IDNA refuses a control character, and a label
# too long once encoded): a 500 after the letter was counted, before.
UNMAILABLE = ["victim@[127.0.0.1]", "victim@[::1]", "victim@localhost"]
UNMAILABLE += ["victim@example.com\u202e", "victim@" + "é" * 60 + ".com"]


@pytest.mark.parametrize("address", UNMAILABLE)
def test_an_address_at_an_ip_a_local_name_or_an_unwritable_domain_is_refused(
    alice, send, inbox, address
):
    verify(alice)
    response = send(alice, address)
    assert response.status_code == 400
    assert "not an IP address or a local name" in said(response)
    assert inbox.messages == []
    assert not Invitation.objects.exists()


def test_sign_up_and_the_email_page_refuse_an_ip_literal(alice, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    form = {
        "username": "mallory",
        "email": "victim@[127.0.0.1]",
        "password1": "a-good-long-password-1",
        "password2": "a-good-long-password-1",
    }
    response = Client().post(reverse("account_signup"), form)
    assert response.status_code == 200
    assert "not an IP address or a local name" in said(response)
    assert not User.objects.filter(username="mallory").exists()
    added = logged_in_client(alice).post(
        reverse("account_email"), {"action_add": "", "email": "victim@[127.0.0.1]"}
    )
    assert "not an IP address or a local name" in said(added)
    assert not alice.emailaddress_set.filter(email__contains="[").exists()
    make_user("ok", email="ok@example.org")  # an ordinary address still signs up
