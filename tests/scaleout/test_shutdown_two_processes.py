"""SIGTERM while moves are in flight, on PostgreSQL + Redis with two daphne processes: the
moves are posted to one, which is stopped, while the other player's table sockets are on the
other (the moves' pushes cross Redis). A clean shutdown as on SQLite (tests/test_shutdown.py):
a stored move answered 2xx; one not stored answered 503, or its connection refused or reset.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import manage, server_env, start_daphne
from tests.test_shutdown import (
    DELAYS_MS,
    ROUNDS,
    assert_clean_shutdowns,
    setup_games,
    sigterm_round,
)
from tests.timeouts import SERVER_TIMEOUT

pytestmark = [pytest.mark.scaleout, pytest.mark.timeout(SERVER_TIMEOUT)]

# Idle, a daphne has nothing to drain; a busy machine has been seen to take 3.5 s even so.
IDLE_EXIT_SECONDS = 10.0


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, ...]]:
    """A migrated site with every round's games, and the daphne that holds the sockets."""
    workdir = tmp_path_factory.mktemp("shutdown-two")
    env = server_env(workdir, BOT_DELAY_SECONDS="0", PYTHONFAULTHANDLER="1")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    setup = setup_games(env, ROUNDS * len(DELAYS_MS), prefix="shutdown-")
    sockets, sockets_url = start_daphne(env, workdir / "daphne-sockets.log")
    try:
        yield env, workdir, setup, sockets, sockets_url
    finally:
        if sockets.poll() is None:
            sockets.kill()
            sockets.wait(5)


# One test a round, so that each stays far inside the per-test time limit on a slow machine.
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_sigterm_during_moves_on_one_of_two_processes_answers_what_it_stored(
    two_processes: tuple[Any, ...], round_: int
) -> None:
    env, workdir, setup, _, sockets_url = two_processes
    assert_clean_shutdowns(sigterm_round(env, workdir, setup, round_, socket_url=sockets_url))


def test_an_idle_daphne_exits_at_once_on_sigterm(two_processes: tuple[Any, ...]) -> None:
    # Runs after the rounds (pytest keeps a file's order): their sockets are closed by now.
    sockets = two_processes[3]
    sockets.terminate()
    try:
        sockets.wait(IDLE_EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"an idle daphne did not exit within {IDLE_EXIT_SECONDS} s of SIGTERM")
