"""Who may open a websocket at all, before any consumer runs (hundredten/asgi.py).

- A path no route knows is refused cleanly (the handshake is denied; nothing is logged as
  an error), as the origin check refuses: test_an_unknown_path_is_refused_without_an_error.
- The Origin must be this site's whole origin (scheme, host and port, the host one of
  ALLOWED_HOSTS) or one of CSRF_TRUSTED_ORIGINS (hundredten/origin.py):
  test_a_socket_from_the_site_itself_is_accepted, test_a_socket_from_another_origin_is_refused,
  test_a_host_outside_allowed_hosts_is_refused, test_csrf_trusted_origins_may_open_sockets,
  test_behind_a_tls_proxy_the_origin_is_https, test_the_own_origin_follows_the_scheme.
- A game id no column can hold is refused like any unknown game:
  test_a_game_id_out_of_range_is_refused_without_an_error.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from hundredten.origin import own_origin
from tests.realtime.conftest import _opened, session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)


def handshake(*headers: tuple[bytes, bytes]):
    """A socket to /ws/user/ with exactly these headers."""
    from channels.testing import WebsocketCommunicator

    from hundredten.asgi import application

    ws = WebsocketCommunicator(application, "/ws/user/", headers=list(headers))
    _opened.append(ws)  # closed by the conftest's teardown if a test leaves it open
    return ws


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.fixture
def cookie(alice):
    return session_cookie(alice)


@pytest.mark.parametrize(
    "path", ["/ws/nope/", "/ws/games/abc/", "/ws/games/1/extra/", "/ws/user", "/", "/%00/"]
)
async def test_an_unknown_path_is_refused_without_an_error(cookie, caplog, path):
    ws = socket(path, cookie)
    connected, _ = await ws.connect(timeout=5)
    assert not connected
    assert errors(caplog) == []


async def test_a_socket_from_the_site_itself_is_accepted(cookie):
    ws = socket("/ws/user/", cookie, origin=(b"origin", b"http://testserver"))
    connected, _ = await ws.connect(timeout=5)
    assert connected
    ws = socket("/ws/user/", cookie, origin=(b"origin", b"http://testserver:80"))
    connected, _ = await ws.connect(timeout=5)
    assert connected


@pytest.mark.parametrize(
    "origin",
    [
        "http://testserver:9999",  # another port of the same host: another site
        "https://testserver",  # the other scheme
        "https://testserver:80",
        "ws://testserver",
        "http://evil.testserver",
        "http://testserver.evil.example",
        "http://evil.example",
        "null",  # sandboxed frames, file: pages
        "http://testserver:99999",  # not a port: refused, not a crash
        "http://testserver:port",
        "",
    ],
)
async def test_a_socket_from_another_origin_is_refused(cookie, caplog, origin):
    ws = socket("/ws/user/", cookie, origin=(b"origin", origin.encode()))
    connected, _ = await ws.connect(timeout=5)
    assert not connected
    assert errors(caplog) == []


async def test_a_socket_without_an_origin_is_refused(cookie):
    ws = socket("/ws/user/", cookie, origin=None)
    connected, _ = await ws.connect(timeout=5)
    assert not connected


async def test_a_host_outside_allowed_hosts_is_refused(cookie):
    """A page of a domain that resolves to this server (DNS rebinding) names its own host."""
    ws = handshake(
        (b"host", b"evil.example"), (b"origin", b"http://evil.example"), (b"cookie", cookie)
    )
    connected, _ = await ws.connect(timeout=5)
    assert not connected


async def test_csrf_trusted_origins_may_open_sockets(cookie, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example", "https://*.tables.example"]
    for origin, accepted in [
        ("https://cards.example", True),
        ("https://cards.example:443", True),
        ("http://cards.example", False),
        ("https://cards.example:8443", False),
        ("https://tables.example", True),
        ("https://play.tables.example", True),
        ("http://play.tables.example", False),
        ("http://testserver", True),  # the site itself still
    ]:
        ws = socket("/ws/user/", cookie, origin=(b"origin", origin.encode()))
        connected, _ = await ws.connect(timeout=5)
        assert connected is accepted, origin
        if connected:
            await ws.disconnect()


async def test_behind_a_tls_proxy_the_origin_is_https(cookie, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    for proto, origin, accepted in [
        (b"https", b"https://testserver", True),
        (b"https", b"http://testserver", False),
        (b"http", b"http://testserver", True),
        (b"http", b"https://testserver", False),
    ]:
        ws = handshake(
            (b"host", b"testserver"),
            (b"origin", origin),
            (b"x-forwarded-proto", proto),
            (b"cookie", cookie),
        )
        connected, _ = await ws.connect(timeout=5)
        assert connected is accepted, (proto, origin)
        if connected:
            await ws.disconnect()


def test_the_own_origin_follows_the_scheme():
    def scope(scheme, host):
        return {"type": "websocket", "scheme": scheme, "headers": [(b"host", host)]}

    assert own_origin(scope("ws", b"testserver")) == "http://testserver"
    assert own_origin(scope("wss", b"testserver")) == "https://testserver"
    assert own_origin(scope("ws", b"127.0.0.1:8001")) == "http://127.0.0.1:8001"
    assert own_origin(scope("ws", b"evil.example")) is None
    assert own_origin(scope("ws", b"testserver@evil.example")) is None
    no_host: Any = {"type": "websocket", "headers": []}
    assert own_origin(no_host) is None


@pytest.mark.parametrize("game_id", ["99999999999999999999999", "0"])
async def test_a_game_id_out_of_range_is_refused_without_an_error(cookie, caplog, game_id):
    for path in (f"/ws/games/{game_id}/", f"/ws/games/{game_id}/room/"):
        ws = socket(path, cookie)
        connected, _ = await ws.connect(timeout=5)
        assert not connected
    assert errors(caplog) == []
