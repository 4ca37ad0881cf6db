"""Which language a page speaks (accounts/languages.py, docs/languages.md): a signed-in
person's profile, else the chooser's cookie, else Accept-Language, else English; and the
chooser in every page's footer, which saves a signed-in person's choice on their profile."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.languages import scope_language
from tests.conftest import logged_in_client

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def html_lang(client: Client, **headers: str) -> str:
    page = client.get(reverse("rules-index"), headers=headers).content.decode()
    match = re.search(r'<html lang="([^"]*)"', page)
    assert match, "no <html lang>"
    return match.group(1)


def test_a_visitor_gets_english_unless_asked_otherwise():
    assert html_lang(Client()) == "en"
    assert html_lang(Client(), accept_language="fr-FR,fr;q=0.9") == "en"  # not offered


def test_the_browser_s_accept_language_chooses_for_a_visitor():
    assert html_lang(Client(), accept_language="de-DE,de;q=0.9,en;q=0.5") == "de"
    assert html_lang(Client(), accept_language="ml") == "ml"


def test_the_cookie_beats_accept_language():
    client = Client()
    client.cookies[COOKIE] = "es"
    assert html_lang(client, accept_language="de") == "es"


def test_a_signed_in_person_s_profile_beats_the_cookie_and_the_browser(alice):
    alice.language = "ml"
    alice.save(update_fields=["language"])
    client = logged_in_client(alice)
    client.cookies[COOKIE] = "es"
    assert html_lang(client, accept_language="de") == "ml"


def test_an_empty_profile_language_follows_the_cookie_then_the_browser(alice):
    client = logged_in_client(alice)
    assert html_lang(client, accept_language="de") == "de"
    client.cookies[COOKIE] = "es"
    assert html_lang(client, accept_language="de") == "es"


def test_the_chooser_is_in_the_footer_signed_out_and_in(alice):
    for client in (Client(), logged_in_client(alice)):
        page = client.get(reverse("rules-index")).content.decode()
        footer = page[page.index('<footer class="site-footer">') :]
        assert f'action="{reverse("language-choice")}"' in footer
        assert 'lang="ml"' in footer and "മലയാളം" in footer  # each in its own name
        assert '<option value="en" lang="en" selected>' in footer


def test_choosing_signed_out_sets_the_cookie_and_goes_back():
    client = Client()
    answer = client.post(reverse("language-choice"), {"language": "de", "next": "/rules/"})
    assert answer.status_code == 302 and answer["Location"] == "/rules/"
    assert client.cookies[COOKIE].value == "de"
    assert html_lang(client) == "de"


def test_choosing_signed_in_saves_the_profile_too(alice):
    client = logged_in_client(alice)
    client.post(reverse("language-choice"), {"language": "es", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "es"
    assert client.cookies[COOKIE].value == "es"
    # Another browser of alice's, with another cookie: the profile decides.
    other = logged_in_client(alice)
    other.cookies[COOKIE] = "de"
    assert html_lang(other) == "es"


def test_a_language_not_offered_changes_nothing(alice):
    client = logged_in_client(alice)
    client.post(reverse("language-choice"), {"language": "fr", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == ""
    assert html_lang(client) == "en"


def test_the_profile_form_saves_the_language_and_can_follow_the_browser_again(alice):
    client = logged_in_client(alice)
    page = client.get(reverse("profile")).content.decode()
    assert 'name="language"' in page and "Deutsch" in page
    client.post(reverse("profile"), {"display_name": "Alice", "language": "de"})
    alice.refresh_from_db()
    assert alice.language == "de"
    assert html_lang(client, accept_language="es") == "de"
    client.post(reverse("profile"), {"display_name": "Alice", "language": ""})
    alice.refresh_from_db()
    assert alice.language == ""
    assert html_lang(client, accept_language="es") == "es"


def test_a_socket_s_language_is_decided_from_its_scope_as_a_page_s(alice):
    headers = [(b"host", b"testserver"), (b"accept-language", b"de-AT,de;q=0.9")]
    assert scope_language({"headers": headers}) == "de"
    assert scope_language({"headers": headers, "cookies": {COOKIE: "es"}}) == "es"
    assert scope_language({"headers": [], "cookies": {COOKIE: "xx"}}) == "en"
    alice.language = "ml"
    assert scope_language({"headers": headers, "cookies": {COOKIE: "es"}}, alice) == "ml"
    assert scope_language({"headers": headers, "user": alice}) == "ml"
