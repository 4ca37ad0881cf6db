"""A shutdown answers what it accepted: the requests inside Django when daphne is told to stop
(SIGTERM, or SIGINT) finish and are answered before the process exits.

daphne stops Twisted's reactor on that signal. Before the reactor stops, daphne's own
"before shutdown" trigger cancels every application instance, then the reactor closes every
socket. A move's request was cancelled that way while its view ran on in its thread: the
move was stored and its connection closed with no answer (tests/test_shutdown.py).

`Drain` wraps the ASGI application, and its own "before shutdown" trigger (a documented
Twisted hook) runs first, being registered when the application is loaded, which daphne does
before it makes its server. At the signal it:

1. stops listening: new connections are refused (behind nginx, they go to another daphne);
2. answers 503, closing the connection, to any HTTP request that reaches the application
   from then on (a kept-alive connection may still send one): it changes nothing;
3. lets each HTTP request already inside the application finish, however daphne cancels
   it, until `seconds` after the signal, and waits until their answers are written to their
   sockets (Twisted buffers a write until the socket is ready; the reactor's last step
   drops what is left). A request still running at that deadline is cancelled, as before.

Then daphne cancels the rest (websockets, whose pages reconnect to another server) and the
reactor closes the sockets and stops. Idle, the drain ends at once.

Written against daphne 4.2.3 and Twisted 26.10.0 (tests/fences/ fails when an upgrade changes
what this relies on): daphne loads the application before `Server.run` registers
`kill_all_applications` as a "before shutdown" trigger; that trigger cancels each instance and
waits for it; a reply is written while the connection is open; `Server.run` makes its
listening ports with Twisted's endpoints, which register them with the reactor as readers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from typing import Any

from asgiref.typing import ASGI3Application, ASGIReceiveCallable, ASGISendCallable, Scope

log = logging.getLogger(__name__)

# How long requests already inside Django may take to finish after the signal.
DRAIN_SECONDS = 5.0
# How often the drain looks whether they have finished and their answers are written.
POLL_SECONDS = 0.01

REFUSAL = b"The server is restarting. Nothing was changed: please try again.\n"


class Drain:
    """An ASGI application that lets the HTTP requests already inside `application` finish
    when the server stops (`begin`), and refuses the ones that arrive after."""

    def __init__(self, application: ASGI3Application, seconds: float = DRAIN_SECONDS) -> None:
        self.application = application
        self.seconds = seconds
        self.in_flight: set[asyncio.Future[None]] = set()
        self.deadline: float | None = None  # the event loop's time; set when draining

    @property
    def draining(self) -> bool:
        return self.deadline is not None

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "http":
            await self.application(scope, receive, send)
            return
        if self.draining:
            await refuse(send)
            return
        request = asyncio.ensure_future(self.application(scope, receive, send))
        self.in_flight.add(request)
        request.add_done_callback(self.in_flight.discard)
        try:
            # Shielded: daphne's cancel at shutdown ends this wait, not the request.
            await asyncio.shield(request)
        except asyncio.CancelledError:
            if self.deadline is not None and not request.done():
                remaining = self.deadline - asyncio.get_running_loop().time()
                await asyncio.wait({request}, timeout=max(remaining, 0))
            if not request.done():  # a client's disconnect timeout, or the deadline
                request.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await request
            raise

    def begin(self) -> asyncio.Future[None]:
        """The server is stopping: refuse new connections and requests; the returned awaitable
        ends when the requests inside have finished and their answers are written, or at
        the deadline."""
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.seconds
        reactor = twisted_reactor()
        if reactor is not None:
            stop_listening(reactor)
        return asyncio.ensure_future(self.settled(reactor))

    async def settled(self, reactor: Any) -> None:
        assert self.deadline is not None
        loop = asyncio.get_running_loop()
        waiting = len(self.in_flight)
        writing: list[Any] = []
        while loop.time() < self.deadline:
            writing = reactor.getWriters() if reactor is not None else []
            if not self.in_flight and not writing:
                break
            await asyncio.sleep(POLL_SECONDS)
        else:
            log.warning(
                "shutdown: at the deadline, %d requests still running, %d sockets still writing",
                len(self.in_flight),
                len(writing),
            )
        if waiting:
            log.info("shutdown: %d requests finished", waiting - len(self.in_flight))


async def refuse(send: ASGISendCallable) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"x-content-type-options", b"nosniff"),  # as Django's answers say
                (b"retry-after", b"1"),
                (b"connection", b"close"),
                # htmx swaps a table's 503 in (the view's carries the fresh table): this plain
                # sentence would replace the table. Left as it is, the table shows the move
                # not made once its socket reconnects.
                (b"hx-reswap", b"none"),
            ],
            "trailers": False,
        }
    )
    await send({"type": "http.response.body", "body": REFUSAL, "more_body": False})


def twisted_reactor() -> Any:
    """daphne's reactor, when this process is a daphne (its server module installs the
    asyncio reactor, and must be imported before anything imports Twisted's default one);
    else None: a test's process, a script."""
    if "daphne.server" not in sys.modules:
        return None
    from twisted.internet import reactor

    return reactor


def stop_listening(reactor: Any) -> None:
    from twisted.internet.interfaces import IListeningPort

    for reader in reactor.getReaders():
        if IListeningPort.providedBy(reader):
            reader.stopListening()


def install(application: ASGI3Application, seconds: float = DRAIN_SECONDS) -> ASGI3Application:
    """`application`, drained on shutdown when this process is a daphne."""
    drain = Drain(application, seconds)
    reactor = twisted_reactor()
    if reactor is not None:
        from twisted.internet.defer import Deferred

        def before_shutdown() -> Deferred[None]:
            return Deferred.fromFuture(drain.begin())

        reactor.addSystemEventTrigger("before", "shutdown", before_shutdown)
    return drain
