"""The deadline sweep: what is due in the database gets done, once, by whichever process.

It is the one way machine moves are made. Every server process runs one `Sweeper` thread
(started by hundredten/asgi.py), which about once a second (`settings.DEADLINE_SWEEP_SECONDS`)
reads the due deadlines (an indexed query on `Membership.deadline`) and applies each: a bot's
move in one of a few threads, so that a search holds up no other table
(`services.bot_moves.play_due`: claimed, decided with no lock held, stored if the game has
not moved), or a human's clock running out (`services.seats.expire`); then it sends the
due emails (`games.mail.send_due`), and it starts the analysis of a finished game someone
asked for, one at a time per process, in a thread of its own that waits on the analysis
worker (`services.analysis.run_next`; docs/analysis.md). A commit that leaves a bot to move
wakes its own process's sweeper for the moment the move falls due (`wake`); other processes see the
deadline at their next look, at most `DEADLINE_SWEEP_SECONDS` later, and find it claimed
or moved. Deadlines are rows, not timers, so a restart loses none: the first sweep after
start-up applies what fell due while the server was down, without anyone opening the table.

Why a thread in the server rather than a task queue: the work is a few indexed reads a second
and a move now and then; Django's ORM and the row locks the table service already takes give
exactly-once across processes (PostgreSQL's SKIP LOCKED lets two sweeps pass each other;
SQLite has one writer), with no broker, worker or beat process to deploy and keep alive.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games import mail
from games.clocks import turns
from games.models import Game, Membership
from games.services import analysis, bot_moves, seats, undo

if TYPE_CHECKING:
    from games.signals import TableChange

log = logging.getLogger(__name__)


# Bot moves a server process makes at once, each in a thread of its own, so that one bot's
# search (up to `settings.BOT_SEARCH_SECONDS`) holds up neither the clocks nor other tables.
BOT_THREADS = 4

PlayBot = Callable[[int, int, datetime, datetime], None]


def tick(
    now: datetime | None = None,
    *,
    play: PlayBot | None = None,
    bots_only: bool = False,
    analyse: Callable[[], None] | None = None,
) -> int:
    """Apply every deadline due at `now`, send the due mail and run a queued analysis;
    returns the moves made.

    `play`: hands each due bot move over (the sweeper's threads) instead of making it here;
    those moves are not counted. `bots_only`: the bots' due moves alone, no clock, no mail
    and no analysis (the tests' `play_bots`, which ticks until no bot is due). `analyse`:
    starts the analyses elsewhere (the sweeper's analysis thread) instead of running the
    next queued one here."""
    now = now or timezone.now()
    due = Membership.objects.filter(deadline__lte=now).order_by("deadline")
    if bots_only:
        due = due.filter(turns.PLAYS_ITSELF)
    moved = 0
    for membership_id, game_id, deadline, plays_itself in due.annotate(
        server_plays=turns.PLAYS_ITSELF_FLAG
    ).values_list("pk", "game_id", "deadline", "server_plays")[:500]:
        try:
            if not plays_itself or deadline is None:  # a person's clock ran out
                moved += seats.expire(membership_id=membership_id, now=now)
            elif play is not None:
                play(game_id, membership_id, deadline, now)
            else:
                moved += bot_moves.play_due(membership_id, deadline, now)
        except Exception:  # one broken game must not stop the others' clocks
            log.exception("deadline of membership %s failed", membership_id)
    if bots_only:
        return moved
    try:
        undo.lapse_due(now)  # questions of undo nobody finished answering in time
    except Exception:
        log.exception("lapsing questions of undo failed")
    try:
        mail.send_due(now)
    except Exception:
        log.exception("sending due mail failed")
    try:
        if analyse is not None:
            analyse()
        else:
            analysis.run_next(now)
    except Exception:
        log.exception("analysing a game failed")
    return moved


def resume(now: datetime | None = None) -> int:
    """At start-up: a seat the server plays that waits with no deadline (a game from before
    deadlines existed) gets one now, so the first sweep plays it. Returns how many."""
    now = now or timezone.now()
    stalled = Membership.objects.filter(
        turns.PLAYS_ITSELF,
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
        self._woken = threading.Event()
        self._due: float | None = None  # the earliest wake-up asked for (monotonic)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="deadline-sweep", daemon=True)
        self._bots = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="bot-move")
        self._playing: set[int] = set()  # games whose bots a thread here is moving
        # One analysis at a time per process, in a thread that waits on the analysis worker.
        self._analyst = ThreadPoolExecutor(1, thread_name_prefix="analysis")
        self._analysing = False

    def play(self, game_id: int, membership_id: int, deadline: datetime, now: datetime) -> None:
        """Make a due bot move in one of the bot threads, unless a thread is moving that
        game's bots already (in a simultaneous phase every bot chooses in one go)."""
        with self._lock:
            if game_id in self._playing:
                return
            self._playing.add(game_id)
        self._bots.submit(self._play, game_id, membership_id, deadline, now)

    def _play(self, game_id: int, membership_id: int, deadline: datetime, now: datetime) -> None:
        close_old_connections()
        try:
            bot_moves.play_due(membership_id, deadline, now)
        except Exception:  # a thread has nobody to report to; the claim ends, another plays
            log.exception("bot move of membership %s failed", membership_id)
        finally:
            connection.close()
            with self._lock:
                self._playing.discard(game_id)

    def analyse(self) -> None:
        """Run the queued analyses, one after another, in the analysis thread (if idle)."""
        with self._lock:
            if self._analysing:
                return
            self._analysing = True
        self._analyst.submit(self._analyse)

    def _analyse(self) -> None:
        close_old_connections()
        try:
            while not self._stop.is_set() and analysis.run_next():
                pass
        except Exception:  # the database is busy: the next sweep tries again
            log.exception("analysis failed")
        finally:
            connection.close()
            with self._lock:
                self._analysing = False

    def wake(self, after: float) -> None:
        """Sweep `after` seconds from now, or sooner if already due."""
        due = time.monotonic() + max(after, 0.0)
        with self._lock:
            if self._due is None or due < self._due:
                self._due = due
        self._woken.set()

    def _sleep(self) -> None:
        """Until the next look: `every` seconds, or the earliest wake-up asked for."""
        until = time.monotonic() + self.every
        while not self._stop.is_set():
            self._woken.clear()  # first: a wake-up from here on ends the wait below
            with self._lock:
                due = self._due
                if due is not None and due <= time.monotonic():
                    self._due = None
                    return
            left = (until if due is None else min(until, due)) - time.monotonic()
            if left <= 0:
                return
            self._woken.wait(left)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._woken.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self._bots.shutdown(wait=False, cancel_futures=True)
        self._analyst.shutdown(wait=False, cancel_futures=True)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            close_old_connections()
            try:
                if first:
                    resume()
                    first = False
                tick(play=self.play, analyse=self.analyse)
            except Exception:  # the database is down or busy: try again next time
                log.exception("deadline sweep failed")
            finally:
                connection.close()
            self._sleep()


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


def on_table_committed(sender: Any, *, change: TableChange, **_: Any) -> None:
    """A committed change leaves a bot to move (`games.signals.table_committed`): this
    process's sweeper looks when the move falls due, a pause from now (`turns.bot_due`)."""
    if change.bots_to_move and _sweeper is not None:
        _sweeper.wake(float(settings.BOT_DELAY_SECONDS))
