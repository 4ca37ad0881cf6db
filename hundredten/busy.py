"""A database too busy to take a write in time answers 503 "try again", never a 500.

Under a burst of moves SQLite's writer lock can stay taken longer than the connection's
wait (`timeout` in settings), PostgreSQL can hit a lock or statement timeout, and a
process's connection pool can stay empty longer than its `timeout` (every connection taken
by other requests). The transaction has rolled back (or never began) by then, so nothing
changed: the user is told so and may try again. The table's moves answer this in the table
itself (games.views.table); every other view gets the 503 page from
`BusyDatabaseMiddleware`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from psycopg_pool import PoolTimeout

log = logging.getLogger(__name__)

BUSY_MESSAGE = _("The server is busy right now and nothing was changed. Try again in a moment.")
RETRY_AFTER_SECONDS = 2

# PostgreSQL: lock_not_available, query_canceled (statement timeout), serialization_failure,
# deadlock_detected.
_BUSY_SQLSTATES = {"55P03", "57014", "40001", "40P01"}


def database_busy(exc: BaseException) -> bool:
    """Whether `exc` says the database was too busy (and the transaction rolled back)."""
    if not isinstance(exc, OperationalError):
        return False
    if "is locked" in str(exc):  # SQLite: "database is locked", "database table is locked"
        return True
    if isinstance(exc.__cause__, PoolTimeout):  # no pooled connection freed up in time
        return True
    return getattr(exc.__cause__, "sqlstate", None) in _BUSY_SQLSTATES


def busy(response: HttpResponse) -> HttpResponse:
    """Mark a 503 answer with when to try again."""
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class BusyDatabaseMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_busy(exception):
            return None
        log.warning("database busy on %s %s: %s", request.method, request.path, exception)
        page = render(request, "503.html", {"message": BUSY_MESSAGE}, status=503)
        return busy(page)
