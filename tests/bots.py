"""How tests play bots: `play_bots` ticks the deadline sweep until no bot is due. A module of
its own, with no side effect when imported, so that processes a test starts (the two-process
ratings test's `manage.py shell`) can import it without tests/conftest.py, which sets up
each pytest-xdist worker's databases when imported."""

from __future__ import annotations

import contextlib
import threading

from django.db import connection
from django.test import TestCase

_sweep = threading.local()


def play_bots() -> int:
    """Tick the deadline sweep until no bot is due, and return the moves made: the one way
    tests play bots. The servers' sweeper makes the same moves by the same code (claimed,
    decided, stored if the game has not moved), a pause after each turn begins; tests set
    no pause (BOT_DELAY_SECONDS = 0), so each move is due at once."""
    from games.clocks import deadlines

    if getattr(_sweep, "ticking", False):
        return 0  # a move this loop made announced the next one: the loop makes it
    _sweep.ticking = True
    try:
        moved = 0
        while True:
            # Inside a `db` test's transaction, which never commits, each bot move's
            # transaction is taken as committed: what it does on commit (keep its state,
            # push, announce) runs after it, as in a server.
            committing = (
                TestCase.captureOnCommitCallbacks(execute=True)
                if in_test_transaction()
                else contextlib.nullcontext()
            )
            with committing:
                made = deadlines.tick(bots_only=True)
            if not made:
                return moved
            moved += made
    finally:
        _sweep.ticking = False


def in_test_transaction() -> bool:
    """Whether the test's own transaction (the `db` fixture's, never committed) is open."""
    return any(getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)
