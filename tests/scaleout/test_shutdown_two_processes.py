"""SIGTERM while moves are in flight, on PostgreSQL + Redis with two daphne processes: the
moves are posted to one, which is stopped, while the other player's table sockets are on the
other (the moves' pushes cross Redis). A clean shutdown as on SQLite (tests/test_shutdown.py):
a stored move answered 2xx; one not stored answered 503, or its connection refused or reset.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import manage, server_env, start_daphne
from tests.test_shutdown import (
    DELAYS_MS,
    ROUNDS,
    assert_clean_shutdowns,
    setup_games,
    sigterm_tries,
)

pytestmark = pytest.mark.scaleout

IDLE_EXIT_SECONDS = 5.0


def test_sigterm_during_moves_on_one_of_two_processes_answers_what_it_stored(
    tmp_path: Path,
) -> None:
    env = server_env(tmp_path, BOT_DELAY_SECONDS="0", PYTHONFAULTHANDLER="1")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    setup = setup_games(env, ROUNDS * len(DELAYS_MS), prefix="shutdown-")
    sockets, sockets_url = start_daphne(env, tmp_path / "daphne-sockets.log")
    try:
        assert_clean_shutdowns(sigterm_tries(env, tmp_path, setup, socket_url=sockets_url))
        # Idle (its sockets closed), a daphne has nothing to drain: it exits at once.
        sockets.terminate()
        try:
            sockets.wait(IDLE_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(f"an idle daphne did not exit within {IDLE_EXIT_SECONDS} s of SIGTERM")
    finally:
        if sockets.poll() is None:
            sockets.kill()
            sockets.wait(5)
