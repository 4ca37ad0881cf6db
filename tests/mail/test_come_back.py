"""A seated player asks an away human to come back: one email an hour at most."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games import mail
from games.live import presence
from games.models import PendingMail
from tests.conftest import HX, logged_in_client
from tests.games.conftest import start_table
from tests.mail.conftest import SITE, after, text_of, verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    """Alice (seat 0), Bob (seat 1), a bot (seat 2); Bob is away; turn mails are spent."""
    verify(alice, bob)
    game = start_table([alice, bob], bots=1)
    PendingMail.objects.all().delete()
    return game


def ask(user, game, seat, headers=None):
    return logged_in_client(user).post(reverse("come-back", args=[game.pk, seat]), headers=headers)


def test_asking_an_away_player_back_sends_them_an_email(game, alice, bob, inbox):
    response = ask(alice, game, 1, HX)
    assert response.status_code == 200
    assert response.content.decode() == (
        '<p class="message" role="status">We&#x27;ll email Bob to ask them back'
        " (unless they turned such emails off).</p>"
    )
    assert mail.send_due() == 1
    message = inbox.only("bob@example.com")
    assert message["Subject"] == "Your table is waiting: “Table”"
    assert f"{SITE}{reverse('table', args=[game.pk])}" in text_of(message)
    row = PendingMail.objects.get()
    assert (row.reason, row.key) == ("come_back", mail.hour_number(row.due_at))


def test_one_request_an_hour(game, alice, bob, inbox):
    assert ask(alice, game, 1, HX).status_code == 200
    again = ask(alice, game, 1, HX)
    assert again.status_code == 429
    assert "less than an hour ago" in again.content.decode()
    assert PendingMail.objects.count() == 1
    # The next hour, another request is a new letter.
    row = PendingMail.objects.get()
    PendingMail.objects.update(key=row.key - 1, due_at=row.due_at - timedelta(hours=1))
    assert ask(alice, game, 1, HX).status_code == 200
    assert mail.send_due(after(1)) == 2
    assert len(inbox.to("bob@example.com")) == 2


@pytest.mark.parametrize(
    ("seat", "message"),
    [(0, "your own seat"), (2, "is a bot"), (3, "Nobody sits in that seat")],
)
def test_refused_seats(game, alice, seat, message):
    response = ask(alice, game, seat, HX)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not PendingMail.objects.exists()


def test_a_player_at_the_table_needs_no_asking(game, alice, bob):
    presence.join(game.pk, bob.pk)
    response = ask(alice, game, 1, HX)
    assert response.status_code == 422
    assert "Bob is at the table now." in response.content.decode()


def test_a_player_back_before_the_letter_went_gets_none(game, alice, bob, inbox):
    ask(alice, game, 1, HX)
    presence.join(game.pk, bob.pk)
    mail.send_due()
    assert inbox.messages == []
    assert PendingMail.objects.get().outcome == "back at the table"


def test_outsiders_cannot_ask(game, dave):
    assert ask(dave, game, 1, HX).status_code == 404  # private: no hint it exists
    game.public = True
    game.save()
    response = ask(dave, game, 1, HX)
    assert response.status_code == 403
    assert "Only the players at this table" in response.content.decode()


def test_the_request_needs_a_post_and_a_signed_in_player(game, client):
    url = reverse("come-back", args=[game.pk, 1])
    assert client.post(url).status_code == 302  # to sign in
    assert not PendingMail.objects.exists()


def test_without_htmx_the_answer_is_the_table_with_a_message(game, alice):
    response = ask(alice, game, 1)
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[game.pk])
    assert PendingMail.objects.filter(reason="come_back").count() == 1


def test_come_back_mail_respects_the_choice_on_the_profile(game, alice, bob, inbox):
    bob.mail_come_back = False
    bob.save()
    ask(alice, game, 1, HX)
    mail.send_due()
    assert inbox.messages == []
