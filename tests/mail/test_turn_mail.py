"""Turn emails: queued when a turn begins, sent after the delay to a player who is away and
still to act, through a real SMTP server."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games import mail
from games.live import presence
from games.models import Membership, PendingMail
from games.services import table
from tests.games.conftest import bid_choice, start_table
from tests.mail.conftest import SITE, after, html_of, text_of, verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def bobs_turn(alice, bob):
    """A two-player Hundred and Ten game in which bob (seat 1) is to bid; both verified."""
    verify(alice, bob)
    return start_table([alice, bob])


def test_an_away_player_gets_word_of_their_turn_after_the_delay(bobs_turn, bob, inbox):
    assert mail.send_due(after(30)) == 0  # not yet: they may come back within the delay
    assert inbox.messages == []
    assert mail.send_due(after(61)) == 1
    message = inbox.only("bob@example.com")
    assert message["Subject"] == "Your turn in “Table”"
    table_url = f"{SITE}{reverse('table', args=[bobs_turn.pk])}"
    assert table_url in text_of(message)
    assert f'href="{table_url}"' in html_of(message)
    assert "Hello Bob" in text_of(message)
    assert "Alice" in text_of(message)  # who they play with
    row = PendingMail.objects.get(user=bob)
    assert (row.reason, row.key, row.outcome) == ("turn", 0, "sent")
    assert row.done_at is not None


def test_the_letter_has_text_and_html_parts_and_one_click_unsubscribe(bobs_turn, bob, inbox):
    mail.send_due(after(61))
    message = inbox.only("bob@example.com")
    assert message.is_multipart()
    types = {part.get_content_type() for part in message.iter_parts()}
    assert types == {"text/plain", "text/html"}
    unsubscribe = str(message["List-Unsubscribe"]).strip()  # may be folded onto a new line
    assert unsubscribe.startswith(f"<{SITE}/mail/unsubscribe/") and unsubscribe.endswith("/>")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["Auto-Submitted"] == "auto-generated"
    link = unsubscribe[1:-1]
    assert link in text_of(message)
    assert f'href="{link}"' in html_of(message)


def test_a_player_connected_to_the_game_gets_no_turn_mail_while_there(bobs_turn, bob, inbox):
    presence.join(bobs_turn.pk, bob.pk)
    assert mail.send_due(after(61)) == 1  # handled: it waits while he is at the table
    assert inbox.messages == []
    row = PendingMail.objects.get(user=bob)
    assert row.done_at is None and row.due_at > after(61)


def test_a_player_who_left_again_before_the_delay_gets_the_mail(bobs_turn, bob, inbox):
    presence.join(bobs_turn.pk, bob.pk)
    presence.leave(bobs_turn.pk, bob.pk)
    mail.send_due(after(61))
    assert len(inbox.to("bob@example.com")) == 1


def test_no_turn_mail_once_the_turn_has_passed(bobs_turn, alice, bob, inbox):
    table.submit_move(
        game_id=bobs_turn.pk, user=bob, choice=bid_choice(15), seen_version=bobs_turn.version
    )
    mail.send_due(after(61))
    # Bob bid in time: his letter is dropped. Now it is Alice's turn, and she is away.
    assert PendingMail.objects.get(user=bob).outcome == "turn passed"
    message = inbox.only("alice@example.com")
    assert message["Subject"] == "Your turn in “Table”"
    assert PendingMail.objects.get(user=alice).key == 1  # the action count of her turn


def test_no_turn_mail_for_a_seat_handed_to_the_bot(bobs_turn, bob, inbox):
    # Handed over while the bot's move waits on its timer: the seat is still to act.
    Membership.objects.filter(game=bobs_turn, user=bob).update(automated=True)
    mail.send_due(after(61))
    assert inbox.to("bob@example.com") == []
    assert PendingMail.objects.get(user=bob).outcome == "seat handed to the bot"


def test_at_most_one_turn_mail_per_game_and_turn(bobs_turn, bob, inbox):
    mail.turn_began(bobs_turn, [bob.pk])  # the same turn announced again
    mail.turn_began(bobs_turn, [bob.pk, bob.pk])
    assert PendingMail.objects.filter(user=bob).count() == 1
    assert mail.send_due(after(61)) == 1
    assert mail.send_due(after(120)) == 0
    mail.turn_began(bobs_turn, [bob.pk])  # after it went: still the same turn
    assert mail.send_due(after(240)) == 0
    assert len(inbox.to("bob@example.com")) == 1


def test_an_unverified_address_gets_nothing(alice, bob, inbox):
    verify(alice)  # bob's address was typed but never confirmed
    start_table([alice, bob])
    assert mail.send_due(after(61)) == 1
    assert inbox.messages == []
    assert PendingMail.objects.get(user=bob).outcome == "no verified address"


def test_mail_goes_to_the_verified_address(alice, bob, inbox):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=bob, email="bob@example.com", verified=False, primary=True)
    EmailAddress.objects.create(user=bob, email="bob@work.example", verified=True, primary=False)
    start_table([alice, bob])
    mail.send_due(after(61))
    assert inbox.recipients == [["bob@work.example"]]


def test_turn_mail_respects_the_choice_on_the_profile(bobs_turn, bob, inbox):
    bob.mail_turns = False
    bob.save()
    mail.send_due(after(61))
    assert inbox.messages == []
    assert PendingMail.objects.get(user=bob).outcome == "turned off"


def test_a_game_with_a_clock_says_so(alice, bob, inbox):
    verify(bob)
    game = start_table([alice, bob])
    game.move_seconds = 120
    game.save()
    mail.send_due(after(61))
    assert "a bot plays for you" in text_of(inbox.only("bob@example.com"))


def test_every_player_of_a_simultaneous_phase_is_told(alice, bob, carol, dave, inbox):
    """Hearts starts with everybody passing cards at once: four turns begin together."""
    verify(alice, bob, carol, dave)
    game = start_table([alice, bob, carol, dave], kind="hearts")
    presence.join(game.pk, carol.pk)
    assert mail.send_due(after(61)) == 4
    assert sorted(r[0] for r in inbox.recipients) == [
        "alice@example.com",
        "bob@example.com",
        "dave@example.com",
    ]
    assert all("Hearts" in text_of(m) for m in inbox.messages)


def test_a_finished_game_sends_no_turn_mail(bobs_turn, bob, inbox):
    bobs_turn.status = "abandoned"
    bobs_turn.save()
    mail.send_due(after(61))
    assert inbox.messages == []
    assert PendingMail.objects.get(user=bob).outcome == "game not in progress"


def test_a_mail_server_that_is_down_loses_the_letter_but_not_the_sweep(bobs_turn, bob, settings):
    from tests.servers import free_port

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 2
    assert mail.send_due(after(61)) == 1
    row = PendingMail.objects.get(user=bob)
    assert row.outcome.startswith("failed")
    assert row.done_at is not None  # never sent twice: not retried either
    assert mail.send_due(after(61) + timedelta(minutes=5)) == 0
