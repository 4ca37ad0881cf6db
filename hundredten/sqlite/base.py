"""Django's SQLite backend, with this process's writers taking turns on a lock.

SQLite lets one connection write at a time. Every transaction here starts with BEGIN
IMMEDIATE (settings), and a connection that finds the database locked polls: SQLite's
busy handler sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 and then 100 ms between tries.
Under load a writer that paused while holding the lock (a garbage collection, another
thread holding the GIL) left the others sleeping in ever longer steps, each waking after
the lock was long free: at 200 games (bench/realtime.py) bursts of moves waited 50-540 ms
to begin, which was the push p99. Here the writers of one process queue on a lock instead
and the next one starts the moment the last one commits or rolls back. Other processes
still meet SQLite's own locking, as before; so do writes outside a transaction.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

# One lock per database file, shared by every connection of this process.
_WRITERS: dict[str, threading.Lock] = {}
_WRITERS_LOCK = threading.Lock()


def writer_lock(name: str) -> threading.Lock:
    with _WRITERS_LOCK:
        return _WRITERS.setdefault(name, threading.Lock())


# Overrides private methods of Django's SQLite backend, written against Django 5.2.19;
# tests/fences/ fails when an upgrade changes any of them or their callers:
# - django.db.backends.sqlite3.base.DatabaseWrapper._start_transaction_under_autocommit
#   (it runs "BEGIN <transaction_mode>"), which BaseDatabaseWrapper.set_autocommit calls only
#   from atomic() (transaction.Atomic.__enter__, force_begin_transaction_with_broken_autocommit);
# - BaseDatabaseWrapper._commit, _rollback and _close, called by commit(), rollback() and
#   close() (Atomic.__exit__ ends every transaction through one of them).
# The documented OPTIONS "transaction_mode": "IMMEDIATE" (settings) chooses the BEGIN, so a
# writer takes SQLite's lock at once; the lock here is what makes them queue in turn.
class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.holds_writer_lock = False

    def _writer(self) -> threading.Lock:
        return writer_lock(str(self.settings_dict["NAME"]))

    def _start_transaction_under_autocommit(self) -> None:
        # As long as SQLite itself would wait for its lock (the connection's `timeout`).
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        if not self._writer().acquire(timeout=timeout):
            raise OperationalError("database is locked")  # SQLite's words (hundredten.busy)
        self.holds_writer_lock = True
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        if self.holds_writer_lock:
            self.holds_writer_lock = False
            self._writer().release()

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]  # not in django-stubs
        finally:
            self._release_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]  # not in django-stubs
        finally:
            self._release_writer()

    def _close(self) -> None:  # closing a connection ends its transaction
        try:
            super()._close()  # type: ignore[misc]  # not in django-stubs
        finally:
            self._release_writer()
