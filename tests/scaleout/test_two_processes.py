"""A move handled by one daphne process reaches the sockets held by another (channels-redis),
and presence counts are shared through the Redis cache."""

from __future__ import annotations

import asyncio
import urllib.parse
import urllib.request

import pytest
from asgiref.sync import sync_to_async
from websockets.asyncio.client import connect

from games.live import presence
from tests.scaleout.conftest import frame_with, run_setup, version_of
from tests.servers import found
from tests.timeouts import SERVER_TIMEOUT

pytestmark = [pytest.mark.scaleout, pytest.mark.timeout(SERVER_TIMEOUT)]


def ws_url(http_url: str, path: str) -> str:
    return http_url.replace("http://", "ws://") + path


async def open_socket(http_url: str, path: str, session: str):
    ws = await connect(
        ws_url(http_url, path),
        origin=http_url,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=10,
    )
    first = await asyncio.wait_for(ws.recv(), 10)
    return ws, str(first)


def post_move(http_url: str, game_id: int, session: str, **fields: str) -> int:
    """A move through the HTTP view, as a browser posts it (CSRF cookie + header)."""
    page = urllib.request.Request(
        f"{http_url}/games/{game_id}/table/", headers={"Cookie": f"sessionid={session}"}
    )
    with urllib.request.urlopen(page, timeout=10) as response:
        html = response.read().decode()
        cookie = response.headers.get_all("Set-Cookie") or []
    csrf = next(c.split(";")[0].split("=", 1)[1] for c in cookie if c.startswith("csrftoken="))
    token = found(r'"X-CSRFToken": "([^"]+)"', html)
    version = found(r'id="table"[^>]*data-version="(\d+)"', html)
    body = urllib.parse.urlencode({"version": version, **fields}).encode()
    request = urllib.request.Request(
        f"{http_url}/games/{game_id}/move/",
        data=body,
        headers={
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
            "X-CSRFToken": token,
            "HX-Request": "true",
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)


async def test_a_move_posted_to_one_process_reaches_a_table_socket_on_the_other(two_servers):
    env, url_a, url_b = two_servers
    game = await sync_to_async(run_setup)(env, "soa")
    alice_ws, first = await open_socket(url_a, f"/ws/games/{game['game']}/", game["alice_session"])
    seen = version_of(first)
    # bob (left of the dealer) bids first, through process B.
    status = await sync_to_async(post_move)(
        url_b, game["game"], game["bob_session"], kind="bid", amount="15"
    )
    assert status == 200
    try:
        pushed = await frame_with(alice_ws, f'data-version="{seen + 1}"')
        assert "15" in pushed
    finally:
        await alice_ws.close()


async def test_the_turn_notice_crosses_processes_to_the_user_socket(two_servers):
    env, url_a, url_b = two_servers
    game = await sync_to_async(run_setup)(env, "sob")
    alice_user, first = await open_socket(url_b, "/ws/user/", game["alice_session"])
    assert 'id="turn-banner"' in first
    await sync_to_async(post_move)(
        url_a, game["game"], game["bob_session"], kind="bid", amount="15"
    )
    try:
        banner = await frame_with(alice_user, 'data-fresh="1"')
        assert "Your turn" in banner and "Across processes" in banner
    finally:
        await alice_user.close()


async def test_presence_is_shared_by_both_processes(two_servers):
    env, url_a, url_b = two_servers
    game = await sync_to_async(run_setup)(env, "soc")
    ids = [game["alice"], game["bob"]]
    path = f"/ws/games/{game['game']}/"
    connected = sync_to_async(presence.connected_user_ids)

    async def settles_to(expected: set[int]) -> bool:
        for _ in range(200):  # bounded: a close reaches the other process within moments
            if await connected(game["game"], ids) == expected:
                return True
            await asyncio.sleep(0.05)
        return False

    alice_ws, _ = await open_socket(url_a, path, game["alice_session"])
    bob_ws, _ = await open_socket(url_b, path, game["bob_session"])
    assert await connected(game["game"], ids) == set(ids)
    await bob_ws.close()
    assert await settles_to({game["alice"]})
    await alice_ws.close()
    assert await settles_to(set())


async def test_a_socket_idle_longer_than_a_redis_read_timeout_still_gets_the_next_move(
    two_servers,
):
    env, url_a, url_b = two_servers
    game = await sync_to_async(run_setup)(env, "sod")
    alice_ws, first = await open_socket(url_a, f"/ws/games/{game['game']}/", game["alice_session"])
    try:
        # Nothing is sent to this socket for 6 s: past redis-py's 5 s read timeout, which
        # the layer's wait for a message once outlasted, killing the socket's consumer.
        await asyncio.sleep(6)
        status = await sync_to_async(post_move)(
            url_b, game["game"], game["bob_session"], kind="bid", amount="15"
        )
        assert status == 200
        pushed = await frame_with(alice_ws, f'data-version="{version_of(first) + 1}"')
        assert "15" in pushed
    finally:
        await alice_ws.close()
