"""Table comforts kept for a person (accounts/comforts.py, docs/comforts.md): the
four-colour deck as a class on <html>, from the profile or a visitor's cookie, and the
profile's "At the table" form."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from tests.conftest import logged_in_client

HTML_TAG = re.compile(r"<html[^>]*>")


def html_tag(client: Client, path: str = "/") -> str:
    response = client.get(path)
    assert response.status_code == 200
    found = HTML_TAG.search(response.content.decode())
    assert found
    return found.group(0)


def test_the_four_colour_deck_is_a_class_on_html_for_a_user_with_the_setting(alice):
    client = logged_in_client(alice)
    assert "deck-four" not in html_tag(client, reverse("lobby"))
    alice.four_colour_deck = True
    alice.save(update_fields=["four_colour_deck"])
    assert 'class="deck-four"' in html_tag(client, reverse("lobby"))


def test_the_four_colour_deck_is_a_class_on_html_for_a_visitor_with_the_cookie(db):
    client = Client()
    assert "deck-four" not in html_tag(client)
    client.cookies["deck"] = "four"
    assert 'class="deck-four"' in html_tag(client)
    client.cookies["deck"] = "something else"
    assert "deck-four" not in html_tag(client)


def test_a_visitor_switches_the_deck_with_the_footer_button(db):
    client = Client()
    assert 'value="four"' in client.get(reverse("rules-index")).content.decode()
    response = client.post(reverse("deck-choice"), {"deck": "four", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert 'class="deck-four"' in html_tag(client)
    client.post(reverse("deck-choice"), {"deck": "two", "next": "https://evil.example/"})
    assert "deck-four" not in html_tag(client)


def test_the_deck_choice_of_a_signed_in_person_goes_to_the_profile(alice):
    client = logged_in_client(alice)
    response = client.post(reverse("deck-choice"), {"deck": "four"})
    assert response.status_code == 302 and response["Location"] == "/"
    alice.refresh_from_db()
    assert alice.four_colour_deck


def test_the_profile_saves_the_table_choices(alice):
    client = logged_in_client(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Four-colour deck" in page and "Confirm before playing" in page
    response = client.post(
        reverse("table-settings"), {"four_colour_deck": "on", "confirm_moves": "on"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.four_colour_deck and alice.confirm_moves
    client.post(reverse("table-settings"), {})
    alice.refresh_from_db()
    assert not alice.four_colour_deck and not alice.confirm_moves
    assert client.get(reverse("table-settings")).status_code == 405
