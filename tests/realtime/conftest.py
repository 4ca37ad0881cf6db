"""Websocket test helpers: sockets through the real ASGI app with a signed-in session."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from games.kinds.hundred_and_ten import engine
from games.models import Game
from games.services import states
from games.services import table as table_service
from tests.games.conftest import bid_choice, start_table

ORIGIN = (b"origin", b"http://testserver")

# Every socket a test opened, so that its teardown closes the ones the test left open.
_opened: list[WebsocketCommunicator] = []


@pytest.fixture(autouse=True)
async def _no_connection_left_in_worker_threads():
    """Close (give back to the pool, on PostgreSQL) the database connections that asgiref's
    worker thread and the render threads keep, so the test database can be dropped."""
    yield
    await _close_sockets_left_open()
    await sync_to_async(connections.close_all)()
    from games.consumers import RENDER_POOL

    await asyncio.to_thread(RENDER_POOL.close_connections)
    # A fresh channel layer per test: a Redis layer binds its locks to the event loop
    # that used it first, and each test has its own loop.
    channel_layers.backends.clear()


async def _close_sockets_left_open() -> None:
    """Tell each consumer still running that its socket closed, as daphne does after any
    close, refusals included, so that none is left waiting on the channel layer when the
    test's event loop closes."""
    while _opened:
        ws = _opened.pop()
        if not ws.future.done():
            await ws.disconnect(timeout=3)


@pytest.fixture(autouse=True)
def _bots_without_pause(settings):
    """No pause between bot moves: each is due at once, and made by the sweep as soon as the
    change that made it due commits (tests/bots.py `play_bots`)."""
    settings.BOT_DELAY_SECONDS = 0


def session_cookie(user) -> bytes:
    """The Cookie header of a browser signed in as `user` (session + CSRF cookie)."""
    client = Client()
    client.force_login(user)
    client.get("/")  # any page sets the csrftoken cookie (base.html uses the token)
    parts = [f"sessionid={client.cookies['sessionid'].value}"]
    if "csrftoken" in client.cookies:
        parts.append(f"csrftoken={client.cookies['csrftoken'].value}")
    return "; ".join(parts).encode()


def socket(path: str, cookie: bytes | None = None, origin: tuple[bytes, bytes] | None = ORIGIN):
    from hundredten.asgi import application

    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append(origin)
    if cookie is not None:
        headers.append((b"cookie", cookie))
    ws = WebsocketCommunicator(application, path, headers=headers)
    _opened.append(ws)
    return ws


async def open_socket(path: str, cookie: bytes):
    """A connected socket and the frame it sent at once on connect."""
    ws = socket(path, cookie)
    connected, code = await ws.connect()
    assert connected, f"{path} refused ({code})"
    first = await ws.receive_from(timeout=5)
    return ws, first


async def frames_until_quiet(ws, quiet: float = 0.3) -> list[str]:
    """Every frame the socket gets until it has been quiet for `quiet` seconds."""
    frames = []
    while not await ws.receive_nothing(timeout=quiet):
        frames.append(await ws.receive_from(timeout=5))
    return frames


async def settled(*sockets) -> None:
    """Wait until no socket has received anything for a while (connects' presence redraws)."""
    for ws in sockets:
        while not await ws.receive_nothing(timeout=0.3):
            await ws.receive_from()


def version_in(html: str) -> int:
    """The version of the #table in a frame."""
    match = re.search(r'id="table"[^>]*data-version="(\d+)"', html)
    assert match, "no #table in the frame"
    return int(match.group(1))


def cards_in(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def hand_of(game: Game, seat: int) -> set[str]:
    state = states.load_state(game)
    return {engine.format_card(card) for card in state.hands[seat]}


def bid(game_id: int, user, amount: int) -> None:
    """`user` bids `amount` in a Hundred and Ten game, on the version they see."""
    game = Game.objects.get(pk=game_id)
    table_service.submit_move(
        game_id=game_id, user=user, choice=bid_choice(amount), seen_version=game.version
    )


def calls_to(monkeypatch, owner, name, note) -> list[Any]:
    """Wrap `owner.name`: each call first appends `note(self, *args)` to the list returned."""
    seen = []
    original = getattr(owner, name)

    def wrapper(self, *args, **kwargs):
        seen.append(note(self, *args))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return seen


@pytest.fixture
def duel(alice, bob):
    """alice (seat 0, dealer) against bob (seat 1, first to bid), private, just dealt."""
    return start_table([alice, bob], name="Duel")


@pytest.fixture
def cookies(alice, bob, dave):
    """Each persona's Cookie header, by username."""
    return {user.username: session_cookie(user) for user in (alice, bob, dave)}
