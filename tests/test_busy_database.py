"""Which database errors mean "too busy, try again" (hundredten.busy)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, OperationalError
from psycopg_pool import PoolTimeout

from hundredten.busy import database_busy


class PgError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def operational(message: str, sqlstate: str | None = None) -> OperationalError:
    error = OperationalError(message)
    if sqlstate is not None:
        error.__cause__ = PgError(sqlstate)
    return error


def pool_timeout() -> OperationalError:
    """What Django raises when no pooled connection freed up in time (the pool's `timeout`:
    every connection of the process was busy with other requests)."""
    error = OperationalError("couldn't get a connection after 10.00 sec")
    error.__cause__ = PoolTimeout("couldn't get a connection after 10.00 sec")
    return error


@pytest.mark.parametrize(
    ("error", "is_busy"),
    [
        (operational("database is locked"), True),  # SQLite's lock wait ran out
        (operational("database table is locked"), True),
        (operational("canceling statement due to lock timeout", "55P03"), True),
        (operational("canceling statement due to statement timeout", "57014"), True),
        (operational("could not serialize access", "40001"), True),
        (operational("deadlock detected", "40P01"), True),
        (pool_timeout(), True),  # a process's connections all taken (a burst of requests)
        (operational("no such table: games_game"), False),  # a real fault stays a 500
        (operational("connection refused", "08006"), False),
        (IntegrityError("database is locked"), False),
        (ValueError("database is locked"), False),
    ],
)
def test_only_lock_and_timeout_errors_count_as_busy(error: Exception, is_busy: bool) -> None:
    assert database_busy(error) is is_busy
