"""The HTTP side of the ASGI app (hundredten.handlers): the middleware chain and the view are
entered in one hop to the request's thread, that thread is kept for later requests (never
shared by two at once), and everything the middleware does still holds."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import AsyncToSync, sync_to_async
from channels.testing import HttpCommunicator
from django.core.signals import request_started
from django.db import connection, connections
from django.db.backends.signals import connection_created

from hundredten.asgi import application
from hundredten.handlers import RequestThreads
from tests.conftest import logged_in_client, make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the threads that called back into the event loop (async_to_sync)."""
    calls: list[str] = []
    real = AsyncToSync.__call__

    def counting(self: AsyncToSync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        calls.append(threading.current_thread().name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(AsyncToSync, "__call__", counting)
    return calls


async def request(method: str, path: str, body: bytes = b"", cookie: str = "") -> dict[str, Any]:
    headers = [(b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = HttpCommunicator(application, method, path, body=body, headers=headers)
    response = dict(await communicator.get_response(timeout=10))
    await communicator.wait(timeout=10)  # Django closes the request after sending the answer
    return response


async def test_a_page_is_served_without_a_trip_back_to_the_event_loop(hops: list[str]) -> None:
    response = await request("GET", "/accounts/login/")
    assert response["status"] == 200
    assert b"sign in" in response["body"].lower()
    headers = dict(response["headers"])
    assert headers[b"X-Frame-Options"] == b"DENY"  # the middleware ran (clickjacking, ...)
    assert b"csrftoken=" in b"".join(v for k, v in response["headers"] if k == b"Set-Cookie")
    assert hops == []  # Django's own handler calls back once per request (async_to_sync)


async def test_refusals_still_come_from_the_middleware_and_the_views(hops: list[str]) -> None:
    assert (await request("GET", "/no/such/page/"))["status"] == 404
    assert (await request("POST", "/accounts/login/", b"login=x&password=y"))["status"] == 403
    assert (await request("GET", "/games/new/"))["status"] == 302  # wants a signed-in user
    assert hops == []


def session_cookie() -> str:
    """A signed-in session's cookie (made on a worker thread, whose connection is closed
    after, so the test database can be dropped)."""
    try:
        client = logged_in_client(make_user("alice"))
        return f"sessionid={client.cookies['sessionid'].value}"
    finally:
        connections.close_all()


@pytest.fixture
def request_threads() -> Any:
    """Names of the threads that started requests (request_started runs on the request's
    thread), and the number of database connections opened meanwhile."""
    seen: dict[str, Any] = {"threads": [], "connections": 0}

    def started(**kwargs: Any) -> None:
        seen["threads"].append(threading.current_thread().name)

    def opened(**kwargs: Any) -> None:
        seen["connections"] += 1

    request_started.connect(started)
    connection_created.connect(opened)
    yield seen
    request_started.disconnect(started)
    connection_created.disconnect(opened)


async def test_requests_one_after_another_reuse_a_thread_and_its_connection(
    request_threads: Any,
) -> None:
    cookie = await sync_to_async(session_cookie)()
    request_threads["connections"] = 0  # count from here: making the user connected too
    for _ in range(3):  # the lobby, signed in: each request reads the user from the database
        response = await request("GET", "/", cookie=cookie)
        assert response["status"] == 200 and b"Sign out" in response["body"]
    threads = request_threads["threads"]
    assert len(threads) == 3 and len(set(threads)) == 1 and threads[0].startswith("request-")
    # SQLite: the kept thread keeps its connection. PostgreSQL: each request takes one from
    # the pool and gives it back, as before.
    if connection.vendor == "sqlite":
        assert request_threads["connections"] <= 1


async def test_requests_at_the_same_time_never_share_a_thread(
    request_threads: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    both_in = threading.Barrier(2, timeout=5)  # on one shared thread this would time out

    def meet(**kwargs: Any) -> None:
        both_in.wait()

    request_started.connect(meet)
    try:
        answers = await asyncio.gather(
            request("GET", "/accounts/login/"), request("GET", "/accounts/signup/")
        )
    finally:
        request_started.disconnect(meet)
    assert [answer["status"] for answer in answers] == [200, 200]
    assert len(set(request_threads["threads"])) == 2


def test_a_request_thread_let_go_after_a_burst_closes_its_connection(db: None) -> None:
    threads = RequestThreads(keep=1)
    first, second = threads.lend(), threads.lend()  # two requests at once
    assert first is not second

    def connect() -> Any:
        wrapper = connections["default"]
        wrapper.ensure_connection()
        return wrapper

    kept, extra = first.submit(connect).result(), second.submit(connect).result()
    threads.give_back(first)
    threads.give_back(second)  # one more than `keep`: its thread ends
    second.shutdown(wait=True)
    assert threads.idle == [first] and threads.lend() is first
    assert extra.connection is None  # closed before the thread ended
    assert kept.connection is not None  # the kept thread keeps its own
    first.submit(connections.close_all).result()
    first.shutdown(wait=True)
