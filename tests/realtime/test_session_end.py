"""A socket lives no longer than the session it was opened with.

- Signing out closes the sockets of that session (4401), whatever their page, and no
  frame follows; another browser's sockets of the same user stay open.
- A password change ends the user's other sessions: their sockets close (4001) and
  cannot reopen; the changing session's own sockets close too (its key rotated) and
  reopen with the browser's new cookie.
- A password reset closes the sockets of every session.
- A session that ends without an event (expiry) closes its sockets before their next
  frame once the re-check is due.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import consumers
from games.consumers import CLOSE_SESSION_CHANGED, CLOSE_SIGNED_OUT
from games.models import Game
from games.services import table as table_service
from tests.conftest import PASSWORD
from tests.games.conftest import active_seat, bid_choice, seat_game, start_table
from tests.realtime.conftest import open_socket, socket

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "another-long-secret-77"


@pytest.fixture(autouse=True)
def _quick_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def duel(alice, bob):
    """alice (seat 0) against bob (seat 1), just dealt."""
    return start_table([alice, bob], name="Duel")


def browser(user) -> tuple[Client, bytes]:
    """A browser signed in as `user`, and the Cookie header its sockets send."""
    client = Client()
    client.force_login(user)
    client.get("/")  # sets the csrftoken cookie
    return client, cookie_of(client)


def cookie_of(client: Client) -> bytes:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items()).encode()


def play_on(game_id: int) -> None:
    """Whoever is to act passes (a bid of 0): a change every table socket is told about."""
    game = Game.objects.get(pk=game_id)
    seat = active_seat(game)
    user = game.memberships.get(seat=seat).user
    assert user is not None  # a person's seat, not a bot's
    table_service.submit_move(
        game_id=game_id, user=user, choice=bid_choice(0), seen_version=game.version
    )


async def close_code(ws) -> int:
    """The code of the close the socket receives next (frames before it are skipped)."""
    for _ in range(20):
        message = await ws.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return int(message["code"])
        assert message["type"] == "websocket.send"
    raise AssertionError("the socket was never closed")


async def still_open(ws, game_id: int) -> None:
    """The socket gets the table after the next move."""
    await database_sync_to_async(play_on)(game_id)
    for _ in range(5):  # presence dots may come first
        if 'id="table"' in await ws.receive_from(timeout=5):
            return
    raise AssertionError("no table after the move")


@pytest.mark.parametrize("where", ["table", "room", "lobby"])
async def test_signing_out_closes_every_socket_of_that_session(alice, bob, where) -> None:
    game = await database_sync_to_async(start_table if where == "table" else seat_game)(
        [alice, bob]
    )
    path = {
        "table": f"/ws/games/{game.pk}/",
        "room": f"/ws/games/{game.pk}/room/",
        "lobby": "/ws/user/?page=lobby",
    }[where]
    client, cookie = await database_sync_to_async(browser)(alice)
    ws, _ = await open_socket(path, cookie)

    response = await database_sync_to_async(client.post)(reverse("account_logout"))
    assert response.status_code == 302

    assert await close_code(ws) == CLOSE_SIGNED_OUT
    if where == "table":  # the game moves on: nothing more reaches the closed socket
        await database_sync_to_async(play_on)(game.pk)
    assert await ws.receive_nothing(timeout=0.5)


async def test_signing_out_leaves_the_users_other_browsers_alone(duel, alice) -> None:
    phone, phone_cookie = await database_sync_to_async(browser)(alice)
    _, laptop_cookie = await database_sync_to_async(browser)(alice)
    on_phone, _ = await open_socket(f"/ws/games/{duel.pk}/", phone_cookie)
    on_laptop, _ = await open_socket(f"/ws/games/{duel.pk}/", laptop_cookie)

    await database_sync_to_async(phone.post)(reverse("account_logout"))

    assert await close_code(on_phone) == CLOSE_SIGNED_OUT
    await still_open(on_laptop, duel.pk)


async def test_a_password_change_closes_the_sockets_of_the_session_that_changed_it(
    duel, alice
) -> None:
    client, cookie = await database_sync_to_async(browser)(alice)
    ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookie)

    response = await database_sync_to_async(client.post)(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302

    assert await close_code(ws) == CLOSE_SESSION_CHANGED
    await database_sync_to_async(play_on)(duel.pk)
    assert await ws.receive_nothing(timeout=0.5)
    # The page reconnects with the cookie the answer set (the session's new key).
    again, first = await open_socket(f"/ws/games/{duel.pk}/", cookie_of(client))
    assert 'id="table"' in first


async def test_a_password_change_closes_the_sockets_of_the_users_other_sessions(
    duel, alice, bob
) -> None:
    phone, _ = await database_sync_to_async(browser)(alice)
    _, thief_cookie = await database_sync_to_async(browser)(alice)
    _, bob_cookie = await database_sync_to_async(browser)(bob)
    thiefs_table, _ = await open_socket(f"/ws/games/{duel.pk}/", thief_cookie)
    thiefs_lobby, _ = await open_socket("/ws/user/?page=lobby", thief_cookie)
    bobs_table, _ = await open_socket(f"/ws/games/{duel.pk}/", bob_cookie)

    await database_sync_to_async(phone.post)(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert await close_code(thiefs_table) == CLOSE_SESSION_CHANGED
    assert await close_code(thiefs_lobby) == CLOSE_SESSION_CHANGED
    # The old cookie opens nothing any more; bob's socket is untouched.
    refused = socket(f"/ws/games/{duel.pk}/", thief_cookie)
    assert await refused.connect() == (False, CLOSE_SIGNED_OUT)
    await still_open(bobs_table, duel.pk)
    assert await thiefs_table.receive_nothing(timeout=0.2)


async def test_a_password_reset_closes_the_sockets_of_every_session(duel, alice) -> None:
    _, cookie = await database_sync_to_async(browser)(alice)
    ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookie)

    def reset_by_email() -> None:
        anonymous = Client()
        anonymous.post(reverse("account_reset_password"), {"email": alice.email})
        body = str(mail.outbox[-1].body)
        link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", body)
        assert link
        page = anonymous.get(link.group(1), follow=True)
        anonymous.post(
            page.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
        )

    await database_sync_to_async(reset_by_email)()

    assert await close_code(ws) == CLOSE_SESSION_CHANGED


async def test_an_expired_session_closes_its_socket_before_the_next_frame(
    duel, alice, monkeypatch
) -> None:
    client, cookie = await database_sync_to_async(browser)(alice)
    ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookie)
    monkeypatch.setattr(consumers.live, "SESSION_RECHECK_SECONDS", 0)

    def expire() -> None:
        key = client.session.session_key
        Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
        cache.delete(SessionStore(session_key=key).cache_key)  # the cached copy with it

    await database_sync_to_async(expire)()
    await database_sync_to_async(play_on)(duel.pk)

    assert await close_code(ws) == CLOSE_SESSION_CHANGED
    assert await ws.receive_nothing(timeout=0.2)


async def test_a_valid_session_is_rechecked_and_its_socket_kept(duel, alice, monkeypatch) -> None:
    _, cookie = await database_sync_to_async(browser)(alice)
    ws, _ = await open_socket(f"/ws/games/{duel.pk}/", cookie)
    monkeypatch.setattr(consumers.live, "SESSION_RECHECK_SECONDS", 0)
    await still_open(ws, duel.pk)
