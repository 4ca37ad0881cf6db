"""Letters go out in their recipient's language (accounts/languages.py): the sweep's in the
recipient's profile language, else English (it has no browser to ask), whatever language
the sweeping thread has active; allauth's in the language of the account they are about.

No catalogue exists yet, so the language active while each template renders is observed."""

from __future__ import annotations

import pytest
from django.core import mail as outbox
from django.core.mail import EmailMultiAlternatives
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import mail
from tests.games.conftest import start_table
from tests.mail.conftest import after, verify

pytestmark = pytest.mark.django_db


def observed(monkeypatch, module: str) -> list[tuple[str, str | None]]:
    """(template, active language) for every render_to_string of `module`."""
    import importlib

    owner = importlib.import_module(module)
    original = owner.render_to_string
    seen: list[tuple[str, str | None]] = []

    def watched(template, *args, **kwargs):
        seen.append((str(template), translation.get_language()))
        return original(template, *args, **kwargs)

    monkeypatch.setattr(owner, "render_to_string", watched)
    return seen


@pytest.mark.parametrize(("chosen", "written"), [("de", "de"), ("ml", "ml"), ("", "en")])
def test_a_turn_letter_is_written_in_the_recipient_s_language(
    alice, bob, monkeypatch, settings, chosen, written
):
    settings.TURN_MAIL_DELAY_SECONDS = 60
    settings.BOT_DELAY_SECONDS = 0
    verify(alice, bob)
    bob.language = chosen
    bob.save(update_fields=["language"])
    start_table([alice, bob])  # bob is to bid
    seen = observed(monkeypatch, "games.mail.letters")
    with translation.override("es"):  # whatever the sweeping thread has active
        assert mail.send_due(after(61)) == 1
        assert translation.get_language() == "es"
    assert [m.to for m in outbox.outbox] == [["bob@example.com"]]
    assert {language for _, language in seen} == {written}
    assert {template for template, _ in seen} == {
        "email/turn_subject.txt",
        "email/turn.txt",
        "email/turn.html",
    }
    letter = outbox.outbox[0]
    assert isinstance(letter, EmailMultiAlternatives)
    assert f'<html lang="{written}">' in str(letter.alternatives[0][0])


def test_a_password_reset_asked_for_signed_out_comes_in_the_account_s_language(alice, monkeypatch):
    alice.language = "de"
    alice.save(update_fields=["language"])
    verify(alice)
    seen = observed(monkeypatch, "allauth.account.adapter")
    answer = Client().post(
        reverse("account_reset_password"), {"email": alice.email}, headers={"accept-language": "es"}
    )
    assert answer.status_code == 302
    assert [m.to for m in outbox.outbox] == [[alice.email]]
    assert seen and {language for _, language in seen} == {"de"}


def test_a_letter_about_no_account_comes_in_the_request_s_language(db, monkeypatch):
    seen = observed(monkeypatch, "allauth.account.adapter")
    Client().post(
        reverse("account_reset_password"),
        {"email": "nobody@example.com"},
        headers={"accept-language": "es"},
    )
    assert seen and {language for _, language in seen} == {"es"}
