"""Every frame a socket draws is drawn in that socket's language (games/consumers/live.py
`in_language`), decided at connect as for a page: profile, cookie, Accept-Language. What is
drawn once and shared (the table basis's side panel and seat boxes, a chat line) is drawn
per language, so no socket gets a copy drawn in another's language.

No catalogue exists yet, so the language a fragment was drawn in is observed: each render
is made to end with a comment naming the language active while it ran."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import translation

from accounts.models import User
from games.talk import service
from tests.games.conftest import start_table
from tests.realtime.conftest import ORIGIN, _opened, session_cookie, settled

pytestmark = pytest.mark.django_db(transaction=True)

MARK = re.compile(r"<!--lang:([a-z-]+)-->")


def marking(monkeypatch, module: str) -> list[str]:
    """Every render_to_string of `module` ends with the active language's mark; returns the
    list of templates drawn, each with that language."""
    import importlib

    owner = importlib.import_module(module)
    original = owner.render_to_string
    drawn: list[str] = []

    def marked(template, context=None, request=None, *args, **kwargs):
        language = translation.get_language()
        drawn.append(f"{template} {language}")
        return original(template, context, request, *args, **kwargs) + f"<!--lang:{language}-->"

    monkeypatch.setattr(owner, "render_to_string", marked)
    return drawn


def languages_in(frame: str) -> set[str]:
    return set(MARK.findall(frame))


@database_sync_to_async
def cookie_of(user: User, language: str = "") -> bytes:
    cookie = session_cookie(user)
    if language:
        cookie += f"; {settings.LANGUAGE_COOKIE_NAME}={language}".encode()
    return cookie


@database_sync_to_async
def speaks(user: User, language: str) -> None:
    User.objects.filter(pk=user.pk).update(language=language)


async def connect(path: str, cookie: bytes, accept_language: str = ""):
    from hundredten.asgi import application

    headers = [(b"host", b"testserver"), ORIGIN, (b"cookie", cookie)]
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    ws = WebsocketCommunicator(application, path, headers=headers)
    _opened.append(ws)
    connected, code = await ws.connect()
    assert connected, code
    return ws, await ws.receive_from(timeout=5)


async def test_a_table_socket_draws_the_table_and_shared_parts_in_its_own_language(
    alice, bob, monkeypatch
):
    frames = marking(monkeypatch, "games.consumers.pool")  # the socket's own renders
    shared = marking(monkeypatch, "games.presenters.basis")  # side panel, seat boxes
    game = await database_sync_to_async(start_table)([alice, bob], public=True)
    await speaks(bob, "ml")
    # alice by her cookie, bob by his profile (beating his cookie and his browser).
    a, first_a = await connect(f"/ws/games/{game.pk}/", await cookie_of(alice, "de"), "es")
    b, first_b = await connect(f"/ws/games/{game.pk}/", await cookie_of(bob, "de"), "es")
    assert 'id="table"' in first_a and 'id="table-side"' in first_a
    assert 'id="table"' in first_b and 'id="table-side"' in first_b
    assert languages_in(first_a) == {"de"}
    assert languages_in(first_b) == {"ml"}
    # The side panel is drawn once per language, not once per socket: a second German
    # socket takes the copy drawn for the first.
    a2, first_a2 = await connect(f"/ws/games/{game.pk}/", await cookie_of(alice, "de"))
    assert languages_in(first_a2) == {"de"}
    sides = sorted(d for d in shared if d.startswith("games/table.html#side"))
    assert sides == ["games/table.html#side de", "games/table.html#side ml"]
    assert frames and all(d.endswith((" de", " ml")) for d in frames)
    await settled(a, b, a2)


async def test_a_socket_without_cookie_or_profile_speaks_its_browser_s_language(alice, monkeypatch):
    seen: list[str | None] = []
    from games.consumers import user as user_consumer

    original = user_consumer.turn_banner_html

    def banner(*args, **kwargs):
        seen.append(translation.get_language())
        return original(*args, **kwargs)

    monkeypatch.setattr(user_consumer, "turn_banner_html", banner)
    ws, _ = await connect("/ws/user/", await cookie_of(alice), "es-MX,es;q=0.9,en;q=0.5")
    assert seen == ["es"]
    await settled(ws)


async def test_a_chat_line_drawn_once_is_drawn_again_for_a_socket_of_another_language(
    alice, bob, monkeypatch
):
    drawn = marking(monkeypatch, "games.talk.presenter")
    game = await database_sync_to_async(start_table)([alice, bob], public=True, rated="no")
    await speaks(alice, "de")
    a, _ = await connect(f"/ws/games/{game.pk}/", await cookie_of(alice))
    b, _ = await connect(f"/ws/games/{game.pk}/", await cookie_of(bob), "en")
    await settled(a, b)
    drawn.clear()

    def say() -> None:
        with translation.override("en"):  # bob's request: the line is drawn in English
            service.say(game_id=game.pk, user=bob, text="Guten Tag", limiter=lambda: True)

    await database_sync_to_async(say)()
    line_a, line_b = await a.receive_from(timeout=5), await b.receive_from(timeout=5)
    assert "Guten Tag" in line_a and "Guten Tag" in line_b
    assert languages_in(line_a) == {"de"}
    assert languages_in(line_b) == {"en"}
    # Drawn twice by the sender's process (bob's copy, everybody else's), once more in German.
    pushed = "games/_chat.html#pushed"
    assert sorted(drawn) == [f"{pushed} de", f"{pushed} en", f"{pushed} en"]
