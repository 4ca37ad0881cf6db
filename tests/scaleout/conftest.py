"""Scale-out tests: two real daphne processes sharing PostgreSQL and Redis.

They run only when DATABASE_URL and REDIS_URL are both set (CI's second run); otherwise
they are deselected at collection (not skipped), so the default run reports nothing odd.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import (
    SHELL_PEOPLE,
    found,
    manage,
    server_env,
    shell_json,
    start_daphne,
    stop_daphne,
)


def scaleout_configured() -> bool:
    return bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if scaleout_configured():
        return
    keep = [item for item in items if item.get_closest_marker("scaleout") is None]
    dropped = [item for item in items if item.get_closest_marker("scaleout") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


SETUP = (
    SHELL_PEOPLE
    + """
alice, alice_session = person("{prefix}alice")
bob, bob_session = person("{prefix}bob")
game = started_game("Across processes", alice, bob)
print("SETUP" + json.dumps({{"game": game.pk, "alice": alice.pk, "bob": bob.pk,
    "alice_session": alice_session, "bob_session": bob_session}}))
"""
)


def version_of(html: str) -> int:
    """The table version a page or a pushed `#table` shows."""
    return int(found(r'id="table"[^>]*data-version="(\d+)"', html))


async def frame_with(ws: Any, needle: str) -> str:
    """The next frame containing `needle` (others, e.g. presence redraws, are skipped)."""
    while True:
        frame = str(await asyncio.wait_for(ws.recv(), 10))
        if needle in frame:
            return frame


def run_setup(env: dict[str, str], prefix: str) -> dict[str, Any]:
    """Users, sessions and a started two-seat game, made in the servers' own database."""
    return shell_json(env, SETUP.format(prefix=prefix))


@pytest.fixture(scope="module")
def two_servers(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[dict[str, str], str, str]]:
    """(environment, url of daphne A, url of daphne B), both on the same PostgreSQL + Redis."""
    workdir: Path = tmp_path_factory.mktemp("scaleout")
    env = server_env(workdir, BOT_DELAY_SECONDS="0")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    first, url_a = start_daphne(env, workdir / "daphne-a.log")
    try:
        second, url_b = start_daphne(env, workdir / "daphne-b.log")
    except Exception:
        stop_daphne(first)
        raise
    yield env, url_a, url_b
    stop_daphne(second)
    stop_daphne(first)
