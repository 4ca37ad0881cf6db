"""The drain at shutdown (hundredten/drain.py), driven as daphne drives it: the application
instance's task cancelled once the drain has begun. A real daphne's SIGTERM:
tests/test_shutdown.py."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hundredten.drain import Drain


class Request:
    """An ASGI application that answers once `release` is set, recording what it sent."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.entered = asyncio.Event()
        self.calls = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls += 1
        self.entered.set()
        await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"stored"})


async def no_body() -> Any:
    return {"type": "http.request", "body": b"", "more_body": False}


def http() -> dict[str, Any]:
    return {"type": "http", "method": "POST", "path": "/games/1/move/"}


async def served(drain: Drain, scope: Any) -> tuple[asyncio.Task[None], list[Any]]:
    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    return asyncio.ensure_future(drain(scope, no_body, send)), sent


async def stopped_during_a_request(
    seconds: float,
) -> tuple[Request, Drain, asyncio.Task[None], list[Any], asyncio.Future[None]]:
    """A request inside the application when the server stops: the drain begins, then
    daphne's kill_all_applications cancels the application instance."""
    app = Request()
    drain = Drain(app, seconds=seconds)
    instance, sent = await served(drain, http())
    await app.entered.wait()
    settled = drain.begin()
    instance.cancel()
    return app, drain, instance, sent, settled


async def test_a_request_inside_when_the_drain_begins_is_answered_and_waited_for() -> None:
    app, _, instance, sent, settled = await stopped_during_a_request(seconds=60)
    await asyncio.sleep(0)
    assert not settled.done() and not instance.done()
    app.release.set()
    await settled
    assert [m.get("status") for m in sent] == [200, None] and sent[1]["body"] == b"stored"
    with pytest.raises(asyncio.CancelledError):
        await instance


async def test_a_request_after_the_drain_began_gets_a_503_and_never_reaches_django() -> None:
    app = Request()
    drain = Drain(app, seconds=60)
    await drain.begin()  # idle: over at once
    instance, sent = await served(drain, http())
    await instance
    assert app.calls == 0
    assert sent[0]["status"] == 503 and (b"connection", b"close") in sent[0]["headers"]
    assert (b"hx-reswap", b"none") in sent[0]["headers"]  # the table stays as it was
    assert b"Nothing was changed" in sent[1]["body"]


async def test_an_idle_drain_ends_without_waiting() -> None:
    settled = Drain(Request(), seconds=3600).begin()
    await asyncio.sleep(0)
    assert settled.done()


async def test_a_request_still_running_at_the_deadline_is_cancelled() -> None:
    _, drain, instance, sent, settled = await stopped_during_a_request(seconds=0.05)
    with pytest.raises(asyncio.CancelledError):
        await instance
    await settled
    assert sent == [] and not drain.in_flight


async def test_outside_a_shutdown_a_cancel_ends_the_request_at_once() -> None:
    """daphne cancels an instance whose client left long ago: no drain holds it."""
    app = Request()
    drain = Drain(app, seconds=60)
    instance, sent = await served(drain, http())
    await app.entered.wait()
    instance.cancel()
    with pytest.raises(asyncio.CancelledError):
        await instance
    await asyncio.sleep(0)
    assert sent == [] and not drain.in_flight


async def test_websockets_pass_through_while_draining() -> None:
    app = Request()
    app.release.set()
    drain = Drain(app, seconds=60)
    await drain.begin()
    instance, sent = await served(drain, {"type": "websocket", "path": "/ws/games/1/"})
    await instance
    assert app.calls == 1 and sent[0]["status"] == 200
