"""Invitations by name, invite links emailed to an address, and the end of a game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import mail
from games.models import Invitation, Membership, PendingMail
from games.services import lobby
from tests.conftest import logged_in_client
from tests.games.conftest import play_to_the_end, start_table
from tests.mail.conftest import SITE, after, html_of, text_of, verify

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "invite-box"}


@pytest.fixture
def waiting(alice):
    return lobby.create_game(organizer=alice, name="Friday cards", public=False, max_players=4)


def email_invite(client, game, address):
    """`client` asks, from the waiting room, for an invite link to be emailed to `address`."""
    return client.post(reverse("invite-email", args=[game.pk]), {"email": address}, headers=HTMX)


def test_an_invitation_by_name_is_emailed_at_once(waiting, alice, bob, inbox):
    verify(bob)
    invitation = lobby.invite(game_id=waiting.pk, by=alice, username="bob")
    assert mail.send_due() == 1
    message = inbox.only("bob@example.com")
    assert message["Subject"] == "Alice invites you to a game of Hundred and Ten"
    room = f"{SITE}{reverse('waiting-room', args=[waiting.pk])}"
    assert room in text_of(message)
    assert f'href="{room}"' in html_of(message)
    assert "Friday cards" not in text_of(message)  # the site's words only (test_invite_mail)
    row = PendingMail.objects.get(user=bob)
    assert (row.reason, row.key) == ("invited", invitation.pk)


def test_an_invitation_withdrawn_before_it_went_is_not_sent(waiting, alice, bob, inbox):
    verify(bob)
    invitation = lobby.invite(game_id=waiting.pk, by=alice, username="bob")
    lobby.revoke_invitation(game_id=waiting.pk, by=alice, invitation_id=invitation.pk)
    mail.send_due()
    assert inbox.messages == []
    assert PendingMail.objects.get(user=bob).outcome == "invitation closed"


def test_invitation_mail_respects_the_choice_on_the_profile(waiting, alice, bob, inbox):
    verify(bob)
    bob.mail_invites = False
    bob.save()
    lobby.invite(game_id=waiting.pk, by=alice, username="bob")
    mail.send_due()
    assert inbox.messages == []


def test_invitation_sent_ignores_a_link_nobody_has_used(waiting, alice):
    link = lobby.create_invite_link(game_id=waiting.pk, by=alice)
    mail.invitation_sent(link)
    assert not PendingMail.objects.exists()


def test_an_invite_link_is_emailed_to_an_address(
    waiting, alice, carol, inbox, django_capture_on_commit_callbacks
):
    verify(alice)
    client = logged_in_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = email_invite(client, waiting, "erin@example.org")
    assert response.status_code == 200
    assert "An invite link is on its way to erin@example.org." in response.content.decode()
    message = inbox.only("erin@example.org")
    assert message["Subject"] == "Alice invites you to a game of Hundred and Ten"
    link = Invitation.objects.get(game=waiting, token__isnull=False)
    url = f"{SITE}{reverse('invite-link-landing', args=[link.token])}"
    assert url in text_of(message)
    assert f'href="{url}"' in html_of(message)
    assert "Alice" in text_of(message) and "Friday cards" not in text_of(message)
    # Not one of our users, yet the address can ask for no more (test_invite_mail.py).
    assert str(message["List-Unsubscribe"]).strip().startswith(f"<{SITE}/mail/unsubscribe/")
    assert not PendingMail.objects.exists()
    # The link in the letter works: whoever follows it (signed in) takes a seat.
    path = re.search(r"/invite/[\w-]+/", text_of(message))
    assert path
    assert logged_in_client(carol).get(path.group(0)).status_code == 302
    assert Membership.objects.get(game=waiting, user=carol).seat is not None


def test_an_invite_link_to_a_bad_address_sends_nothing(
    waiting, alice, inbox, django_capture_on_commit_callbacks
):
    client = logged_in_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = email_invite(client, waiting, "not an address")
    assert response.status_code == 400
    assert "does not look like an email address" in response.content.decode()
    assert inbox.messages == []
    assert not Invitation.objects.exists()


def test_only_players_may_email_invite_links(waiting, alice, dave, inbox):
    response = email_invite(logged_in_client(dave), waiting, "x@example.org")
    assert response.status_code == 404  # a private game stays private
    assert not Invitation.objects.exists()


def test_the_waiting_room_offers_to_email_a_link(waiting, alice):
    verify(alice)
    page = logged_in_client(alice).get(reverse("waiting-room", args=[waiting.pk]))
    html = page.content.decode()
    assert f'action="{reverse("invite-email", args=[waiting.pk])}"' in html
    assert 'type="email"' in html


def test_the_players_hear_how_a_game_ended(alice, bob, inbox):
    verify(alice, bob)
    game = start_table([alice], bots=1, seed="short", target=30)
    Membership.objects.create(game=game, user=bob, role="invitee")  # no seat: not told
    play_to_the_end(game, [alice])
    mail.send_due(after(3600))
    endings = [m for m in inbox.messages if "is over" in m["Subject"]]
    assert [m["To"] for m in endings] == ["alice@example.com"]
    text = text_of(endings[0])
    assert "Final scores:" in text
    assert "Alice" in text and "Bot 1" in text
    assert f"{SITE}{reverse('table', args=[game.pk])}" in text
    # Her last turn mails were dropped or sent; none is left waiting.
    assert not PendingMail.objects.filter(done_at__isnull=True).exists()


def test_game_ended_mail_respects_the_choice_on_the_profile(alice, inbox):
    verify(alice)
    alice.mail_endings = False
    alice.mail_turns = False
    alice.save()
    game = start_table([alice], bots=1, seed="short", target=30)
    play_to_the_end(game, [alice])
    mail.send_due(after(3600))
    assert inbox.messages == []
    assert PendingMail.objects.get(reason="ended").outcome == "turned off"
