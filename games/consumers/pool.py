"""The render pool: where sockets render (off the event loop, off the views' thread), and
the stand-in request a pushed partial is rendered with."""

from __future__ import annotations

import concurrent.futures
import functools
import json
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.template.loader import render_to_string
from django_htmx.middleware import HtmxDetails

from games.live import presence

if TYPE_CHECKING:
    from accounts.models import User

T = TypeVar("T")


class RenderPool:
    """A few threads for renders, each keeping its own database connection.

    Renders run here, not on asgiref's single thread-sensitive thread: that thread also
    runs every view, so rendering there would make each event wait for other people's
    requests (and for the previous render, defeating coalescing). Two threads: with the
    GIL more only slow each other (and the views) down; two still overlap a render that
    waits on PostgreSQL. A thread keeps its connection between renders (Django's
    connections are per thread, and nothing here closes them): opening and closing one per
    render cost as much as the render itself (measured with bench/realtime.py).
    `close_connections()` closes them (tests; before dropping a database).

    Python's own executor through its documented arguments: a pool of our own that took
    jobs from a plain queue (overriding `submit`) was measured against it in
    alternated pairs and lost one (bench/results/render-once.md, twelfth session).
    """

    def __init__(self, workers: int) -> None:
        self.threads: list[threading.Thread] = []
        self.executor = concurrent.futures.ThreadPoolExecutor(
            workers, thread_name_prefix="ws-render", initializer=self._started
        )

    def _started(self) -> None:
        self.threads.append(threading.current_thread())

    def close_connections(self) -> None:
        """Close the database connections of every render thread (and wait for it)."""
        count = len(self.threads)
        if not count:
            return
        barrier = threading.Barrier(count)

        def close() -> None:
            try:
                connections.close_all()
            finally:
                barrier.wait(timeout=10)  # so each thread takes exactly one of these jobs

        jobs = [self.executor.submit(close) for _ in range(count)]
        concurrent.futures.wait(jobs, timeout=15)


RENDER_POOL = RenderPool(workers=2)


def _kept_connection(func: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> T:
        try:
            return func(*args, **kwargs)
        except (InterfaceError, OperationalError):
            # The kept connection broke (say the database restarted): once more, anew.
            connections.close_all()
            return func(*args, **kwargs)

    return run


def in_pool(func: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """`func` as an awaitable run on RENDER_POOL (every query there runs in autocommit,
    so a kept connection never reads an old snapshot)."""
    return sync_to_async(
        _kept_connection(func), thread_sensitive=False, executor=RENDER_POOL.executor
    )


async def presence_call(func: Callable[..., T], *args: Any) -> T:
    """A presence call (games.live.presence): on the event loop when the counts live in this
    process's memory (a lookup there costs less than the hop to a thread), else in the pool
    (Redis). Every open table refreshes its count every 20 s, so this is frequent."""
    if presence.in_process():
        return func(*args)
    return await in_pool(func)(*args)


@dataclass
class Frames:
    """What one render sends: text frames, then optionally a close."""

    texts: list[str] = field(default_factory=list)
    close: bool = False


def redirect_frame(url: str) -> str:
    """An instruction, not HTML: static/js/realtime.js turns it into location.assign(url)."""
    return json.dumps({"redirect": url})


def _no_response(request: HttpRequest) -> HttpResponse:
    raise AssertionError("the stand-in request is never answered")


def render_request(scope: Mapping[str, Any], user: User) -> HttpRequest:
    """A stand-in request so partials render as they do in views (csrf_token, user, request).

    The CSRF secret comes from the socket's own cookie, so a form in a pushed partial holds
    a token valid for this browser.
    """
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = str(scope.get("path", "/"))
    request.user = user
    cookies = dict(scope.get("cookies") or {})
    request.COOKIES = cookies
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    if host:
        request.META["HTTP_HOST"] = host
    # The CSRF middleware reads the socket's cookie as it reads a request's (a malformed one
    # is replaced, as for a page), so get_token masks this browser's secret.
    CsrfViewMiddleware(_no_response).process_request(request)
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    # One masked token per socket, not one per render, so identical tables are identical
    # frames (and are not sent twice).
    request.META["RENDER_CSRF_TOKEN"] = get_token(request)
    return request


def render_for(request: HttpRequest | None, template: str, context: dict[str, Any]) -> str:
    """render_to_string with the socket's stand-in request and its stable CSRF token."""
    if request is not None:
        context = {**context, "csrf_token": request.META["RENDER_CSRF_TOKEN"]}
    return render_to_string(template, context, request=request)
