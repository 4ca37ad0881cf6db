"""The embedded default's writers (settings: SQLite, BEGIN IMMEDIATE, a `timeout`): a second
writer waits for the first and then commits; one kept waiting too long is told the database
is busy (a 503 "try again", never a 500). Run against a throwaway SQLite file whatever
database the suite uses."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from hundredten.busy import database_busy


@pytest.fixture(autouse=True)
def _own_database(django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():  # a file of the test's own, not the suite's database
        yield


def handler_for(path: Path, timeout: float = 20) -> ConnectionHandler:
    """Connections (one per thread, as Django's) to `path`, set up as settings.py does."""
    options = {"timeout": timeout, "transaction_mode": "IMMEDIATE"}
    engine = "django.db.backends.sqlite3"
    handler = ConnectionHandler(
        {"default": {"ENGINE": engine, "NAME": str(path), "OPTIONS": options}}
    )
    connection = handler["default"]
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS moves (who TEXT)")
    return handler


def write(connection: Any, who: str) -> None:
    connection.ensure_connection()  # as transaction.atomic() does: connect, then begin
    connection._start_transaction_under_autocommit()
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO moves VALUES (%s)", [who])


def rows(connection: Any) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT who FROM moves ORDER BY rowid")
        return [who for (who,) in cursor.fetchall()]


def write_and_commit(connection: Any, who: str) -> str:
    write(connection, who)
    connection.commit()
    return "committed"


def in_thread(handler: ConnectionHandler, work: Any) -> tuple[threading.Thread, list[Any]]:
    outcome: list[Any] = []

    def run() -> None:
        connection = handler["default"]
        try:
            outcome.append(work(connection))
        except Exception as exc:
            outcome.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def test_a_second_writer_waits_for_the_first_and_then_commits(tmp_path: Path) -> None:
    handler = handler_for(tmp_path / "db.sqlite3")
    first = handler["default"]
    write(first, "first")

    thread, outcome = in_thread(handler, lambda c: write_and_commit(c, "second"))
    time.sleep(0.2)  # let it begin waiting (the test holds either way)
    assert outcome == []  # still waiting for the first writer
    first.commit()
    thread.join(20)
    assert outcome == ["committed"]
    assert rows(first) == ["first", "second"]
    first.close()


def test_a_writer_kept_waiting_past_the_timeout_is_told_the_database_is_busy(
    tmp_path: Path,
) -> None:
    handler = handler_for(tmp_path / "db.sqlite3", timeout=0.05)
    first = handler["default"]
    write(first, "first")

    thread, outcome = in_thread(handler, lambda c: write(c, "late"))
    thread.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], OperationalError)
    assert database_busy(outcome[0])  # a 503 "try again", never a 500
    first.commit()
    assert rows(first) == ["first"]

    thread, outcome = in_thread(handler, lambda c: write_and_commit(c, "later"))
    thread.join(10)
    assert outcome == ["committed"]
    assert rows(first) == ["first", "later"]
    first.close()
