"""Django's ASGI handler with the sync work of a request done in fewer, cheaper hops.

Two changes to how Django's own handler runs a request, and nothing else (reading the body,
the request signals, streaming the answer and client disconnects stay Django's):

- **One hop into the middleware and the view.** Django builds its ASGI middleware chain for
  async. Every middleware we run is sync (Django's own adapt to either; ours and the views
  are sync), so Django adapts the chain at each end and a request went: the event loop -> a
  thread (the middleware) -> the event loop (Django's async core) -> the same thread (the
  view) -> back, and back again. Here the chain is built sync, as under WSGI, and entered
  once.
- **A kept thread per request, not a new one.** All of a request's sync work runs on one
  thread (asgiref's `ThreadSensitiveContext`), which Django creates for each request and
  joins from yet another new thread after it. Starting a thread blocks the event loop
  until the thread runs, so under load this cost the loop (every socket's push waits on
  it) more than a table's render. Here a request borrows a single-thread executor from
  `REQUEST_THREADS` and gives it back, as WSGI servers keep their threads. Database
  connections are per thread, so a kept thread may also keep its connection
  (`CONN_MAX_AGE`, set for SQLite in settings).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.db import connections
from django.http import HttpRequest, HttpResponseBase

from games.live import realtime


class RequestThreads:
    """Single-thread executors lent to requests, one each, used only from the event loop."""

    def __init__(self, keep: int) -> None:
        self.keep = keep  # idle executors kept for the next requests; more are shut down
        self.idle: list[ThreadPoolExecutor] = []
        self.made = 0

    def lend(self) -> ThreadPoolExecutor:
        if self.idle:
            return self.idle.pop()
        self.made += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"request-{self.made}")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self.idle) < self.keep:
            self.idle.append(executor)
        else:  # after a burst: the thread closes its kept connections and ends
            executor.submit(connections.close_all)
            executor.shutdown(wait=False)


REQUEST_THREADS = RequestThreads(keep=32)


# Written against Django 5.2.19 and asgiref 3.13.0; tests/fences/ fails when
# an upgrade changes any of these:
# - django.core.handlers.asgi.ASGIHandler.__init__ is skipped (it loads the middleware chain
#   with is_async=True): BaseHandler.load_middleware(is_async=False) builds it sync instead.
# - ASGIHandler.__call__ is replaced (it enters a ThreadSensitiveContext() of its own, which
#   makes a new thread per request); ASGIHandler.handle and run_get_response stay Django's and
#   call get_response_async.
# - BaseHandler.get_response_async is replaced: the sync BaseHandler.get_response, entered
#   once on the request's thread.
# - asgiref.sync.ThreadSensitiveContext(executor=...), and SyncToAsync.__call__ sending every
#   thread-sensitive call made inside that context to that executor.
class KeptThreadsASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)  # not ASGIHandler's: it loads the chain for async
        self.load_middleware(is_async=False)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # Pushes from this request's thread go to this loop without waiting, and are dropped
        # once it has stopped (games.live.realtime): none waits for ever on a server shutting down.
        realtime.remember_loop(asyncio.get_running_loop())
        executor = REQUEST_THREADS.lend()
        try:
            # Every thread-sensitive call of this request (signals, middleware, view, the
            # answer's closing) runs on this executor's one thread. Django waits for all of
            # them before `handle` returns, even when the client goes away mid-request.
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            REQUEST_THREADS.give_back(executor)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # BaseHandler.get_response: the URL conf, the chain, the request's closing and the
        # logging of 4xx/5xx answers, all on the request's thread.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
