"""The deadline sweep: what is due in the database gets done, once, by whichever process.

Every server process runs one `Sweeper` thread (started by hundredten/asgi.py), which
about once a second (`settings.DEADLINE_SWEEP_SECONDS`) reads the due deadlines (an indexed
query on `Membership.deadline`) and applies each in its own transaction
(`services.seats.expire`: row lock, check again, bot move), then sends the due emails
(`games.mail.send_due`). Deadlines are rows, not timers, so a restart loses none: the first
sweep after start-up applies what fell due while the server was down, and bots whose turn it
was play on (their overdue deadline) without anyone opening the table.

Why a thread in the server rather than a task queue: the work is a few indexed reads a second
and a move now and then; Django's ORM and the row locks the table service already takes give
exactly-once across processes (PostgreSQL's SKIP LOCKED lets two sweeps pass each other;
SQLite has one writer), with no broker, worker or beat process to deploy and keep alive.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games import clocks, mail
from games.models import Game, Membership
from games.services import seats

log = logging.getLogger(__name__)


def tick(now: datetime | None = None) -> int:
    """Apply every deadline due at `now` and send the due mail; returns the moves made."""
    now = now or timezone.now()
    due = Membership.objects.filter(deadline__lte=now).order_by("deadline")
    moved = 0
    for membership_id in due.values_list("pk", flat=True)[:500]:
        try:
            moved += seats.expire(membership_id=membership_id, now=now)
        except Exception:  # one broken game must not stop the others' clocks
            log.exception("deadline of membership %s failed", membership_id)
    try:
        mail.send_due(now)
    except Exception:
        log.exception("sending due mail failed")
    return moved


def resume(now: datetime | None = None) -> int:
    """At start-up: a seat the server plays that waits with no deadline (a game from before
    deadlines existed) gets one now, so the first sweep plays it. Returns how many."""
    now = now or timezone.now()
    stalled = Membership.objects.filter(
        clocks.PLAYS_ITSELF,
        must_act=True,
        deadline__isnull=True,
        game__status=Game.Status.ACTIVE,
    )
    return stalled.update(deadline=now)


class Sweeper:
    """One thread per process that runs `tick` until stopped."""

    def __init__(self, every: float) -> None:
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="deadline-sweep", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            close_old_connections()
            try:
                if first:
                    resume()
                    first = False
                tick()
            except Exception:  # the database is down or busy: try again next time
                log.exception("deadline sweep failed")
            finally:
                connection.close()
            self._stop.wait(self.every)


_sweeper: Sweeper | None = None
_lock = threading.Lock()


def start() -> Sweeper | None:
    """Start this process's sweeper (once), unless settings.DEADLINE_SWEEP is off."""
    global _sweeper
    if not settings.DEADLINE_SWEEP:
        return None
    with _lock:
        if _sweeper is None:
            _sweeper = Sweeper(settings.DEADLINE_SWEEP_SECONDS)
            _sweeper.start()
    return _sweeper
