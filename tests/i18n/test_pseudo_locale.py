"""No text reaches a page without passing through translation (tests/i18n/pseudo.py).

Every page, partial and letter is drawn in the pseudo-locale, whose every message is
accented and bracketed; any word left outside brackets was not marked for translation, or
was marked after the catalogues were last made (`make messages`). The allow-list is short:
the players' and tables' names, and the cards' ranks (one letter, or "10", never words).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language_info

from games.registry import REGISTRY
from tests.conftest import HX, logged_in_client
from tests.games.conftest import seat_game, start_table
from tests.i18n import pseudo

pytestmark = pytest.mark.django_db

# Each language is offered in its own name ("Deutsch", "മലയാളം"): never translated.
LANGUAGE_NAMES = tuple(get_language_info(code)["name_local"] for code, _ in settings.LANGUAGES)
NAMES = ("Alice", "Bob", "Carol", "Dave", "alice", "bob", "carol", "dave", "Table", *LANGUAGE_NAMES)


@pytest.fixture(autouse=True)
def pseudo_locale(settings, tmp_path_factory) -> None:
    where: Path = tmp_path_factory.getbasetemp() / "pseudo-locale"
    if not (where / "en_XA" / "LC_MESSAGES" / "django.mo").exists():
        pseudo.build(where)
    settings.LOCALE_PATHS = [where, *settings.LOCALE_PATHS]
    settings.LANGUAGES = [*settings.LANGUAGES, (pseudo.CODE, "Pseudo")]


def in_pseudo(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = pseudo.CODE
    return client


def bot_names(game) -> list[str]:
    return [m.bot_name for m in game.memberships.all() if m.bot_name]


def check(client: Client, url: str, *, allowed=(), headers=None, status=200) -> None:
    response = client.get(url, headers=headers or {})
    assert response.status_code == status, (url, response.status_code)
    assert response["Content-Language"] == pseudo.CODE, url
    left = pseudo.untranslated(response.content.decode(), (*NAMES, *allowed))
    assert not left, f"{url}: not translated: {left[:20]}"


def test_the_pseudo_locale_marks_every_message_and_keeps_placeholders():
    assert pseudo.pseudo("%(name)s bid <b>%(points)s</b>") == "⟦%(name)s bíd <b>%(points)s</b>⟧"
    assert pseudo.untranslated("<p>⟦Íñ⟧ Alice</p>", ["Alice"]) == []
    assert pseudo.untranslated('<p title="Hand">⟦x⟧</p>') == ["Hand"]
    assert pseudo.untranslated("<p>⟦Ýóúr ⟦tú⟧ rñ⟧ 10 ♠ K</p><script>var x</script>") == []
    assert pseudo.untranslated("<p>⟦Ýóúr⟧ turn</p>") == ["turn"]
    assert pseudo.untranslated("<p>⟦Séñd <b>á líñk</b> ñów⟧</p>") == []


def test_public_pages_signed_out():
    client = in_pseudo(Client())
    check(client, "/")
    check(client, reverse("rules-index"))
    check(client, reverse("how-to-play"))
    for slug in REGISTRY:
        check(client, reverse("rules", args=[slug]))
    check(client, "/no-such-page/", status=404)


def test_signed_in_pages(alice, bob):
    client = in_pseudo(logged_in_client(alice))
    check(client, reverse("lobby"))
    check(client, reverse("new-game"))
    check(client, reverse("profile"))
    check(client, reverse("past-games"))
    check(client, reverse("player", args=[bob.username]))
    for slug in REGISTRY:
        check(client, reverse("leaderboard", args=[slug]))


@pytest.mark.parametrize("slug", sorted(REGISTRY))
def test_every_game_s_waiting_room_table_and_partials(alice, bob, carol, slug):
    kind = REGISTRY[slug]
    waiting = seat_game([alice], 1, kind=slug, name="Table")
    alices = in_pseudo(logged_in_client(alice))
    check(alices, reverse("waiting-room", args=[waiting.pk]), allowed=bot_names(waiting))

    seats = kind.table_size
    game = start_table([alice, bob], seats - 2, kind=slug, public=True, name="Table")
    names = bot_names(game)
    table = reverse("table", args=[game.pk])
    check(alices, table, allowed=names)
    check(alices, table, allowed=names, headers=HX)
    check(alices, reverse("hint", args=[game.pk]), allowed=names, headers=HX)
    # A spectator of the public game.
    check(in_pseudo(logged_in_client(carol)), table, allowed=names)


def test_every_letter_is_translated(alice, bob):
    """The invitation letter (text, HTML and subject), drawn in the recipient's language."""
    alice.language = pseudo.CODE
    alice.save(update_fields=["language"])
    game = seat_game([bob], 1, name="Table")
    bobs = logged_in_client(bob)
    response = bobs.post(reverse("invite", args=[game.pk]), {"username": "alice"}, headers=HX)
    assert response.status_code < 400
    assert mail.outbox, "no letter was sent"
    with translation.override("en"):
        for letter in mail.outbox:
            assert not pseudo.untranslated(f"<p>{letter.subject}</p>", NAMES), letter.subject
            assert not pseudo.untranslated(f"<pre>{letter.body}</pre>", NAMES), letter.body
            for content, kind in getattr(letter, "alternatives", []):
                assert kind == "text/html"
                assert not pseudo.untranslated(content, NAMES)
