"""Shared fixtures: personas, a logged-in client per persona, and the browser harness.

Personas: alice (organizer), bob (player), carol (invitee), dave (outsider).
Browser tests (marker `browser`) run last: Playwright's sync API leaves a running event
loop in the main thread, which breaks pytest-asyncio tests and sync ORM calls after it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import transaction
from django.test import Client

from tests.bots import in_test_transaction, play_bots
from tests.servers import manage, server_env, start_daphne, stop_daphne

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ARTIFACTS = ROOT / "test-artifacts"
PASSWORD = "correct-horse-battery-9"
PERSONAS = ("alice", "bob", "carol", "dave")

pytest_plugins = ["tests.timeouts"]  # 60 s a test, 240 s a browser test


def _own_services_per_worker() -> None:
    """Under pytest-xdist (`make pytest` runs the suite in two processes), each worker gets
    its own PostgreSQL database for the servers it starts and its own Redis database:
    tests empty the cache and flush the servers' database, which would pull the ground from
    under the other worker's servers. pytest-django already gives each worker its own test
    database. Runs when this file is imported, before anything has used the cache or the
    channel layer (both read their settings on first use)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    from django.conf import settings

    number = int(worker[2:])
    if os.environ.get("REDIS_URL"):
        parts = urlsplit(os.environ["REDIS_URL"])
        base = int(parts.path.strip("/") or 0)
        url = urlunsplit(parts._replace(path=f"/{(base + 1 + number) % 16}"))
        os.environ["REDIS_URL"] = url  # the servers' (server_env copies the environment)
        settings.CACHES["default"]["LOCATION"] = url
        settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [url]
    if os.environ.get("DATABASE_URL"):
        parts = urlsplit(os.environ["DATABASE_URL"])
        name = f"{parts.path.strip('/')}_{worker}"
        import psycopg
        from psycopg import errors, sql

        admin = urlunsplit(parts._replace(path="/postgres"))
        with (
            psycopg.connect(admin, autocommit=True) as connection,
            contextlib.suppress(errors.DuplicateDatabase),
        ):
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))


_own_services_per_worker()


def make_user(username: str, *, email: str | None = None, password: str = PASSWORD) -> Any:
    from accounts.models import User

    return User.objects.create_user(
        username=username,
        email=email if email is not None else f"{username}@example.com",
        password=password,
        display_name=username.capitalize(),
    )


# The header htmx sends with each of its requests: the views answer with a partial.
HX = {"HX-Request": "true"}


def logged_in_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice(db: None) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(db: None) -> Any:
    return make_user("carol")


@pytest.fixture
def dave(db: None) -> Any:
    return make_user("dave")


@pytest.fixture(autouse=True)
def _bots_move_when_due() -> Iterator[None]:
    """A change that leaves a bot to move plays it through the sweep (`play_bots`), as in a
    server the commit wakes the sweeper: after the commit, or at once inside a test's own
    transaction (a `db` test's changes never commit)."""
    from games import signals

    def changed(sender: Any, *, change: Any, **_: Any) -> None:
        if not change.bots_to_move:
            return
        if in_test_transaction():
            play_bots()
        else:
            transaction.on_commit(play_bots)

    signals.table_changed.connect(changed, dispatch_uid="tests-play-bots")
    yield
    signals.table_changed.disconnect(dispatch_uid="tests-play-bots")


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """No test inherits another's cached state: rate-limit counters live in Django's cache;
    engine states and table parts are kept per process by game id, and flushed test
    databases reuse ids."""
    from django.core.cache import cache

    from games.live import presence
    from games.presenters import basis
    from games.services import states

    cache.clear()
    presence.forget_all()
    states.clear_state_cache()
    basis.clear_table_cache()
    yield


@pytest.fixture(autouse=True)
def _english_to_begin_with() -> Iterator[None]:
    """No test inherits another's language: LocaleMiddleware activates a request's language
    in the thread that serves it and nothing deactivates it, so a test whose client asked
    for Spanish would leave the services it calls next speaking Spanish."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last test, before the session's fixtures are torn down (the test database
    dropped): the threads that keep database connections give them back. Tests of
    tests/realtime do it after each test; others that open sockets (the hidden-information
    scans) leave it to this, and a worker of `pytest -n` may run no realtime test after
    them (PostgreSQL then refuses to drop a database that is in use)."""
    if nextitem is not None or "django.db" not in sys.modules:
        return
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import sync_to_async
    from django.db import connections

    consumers = sys.modules.get("games.consumers")
    if consumers is not None:
        consumers.RENDER_POOL.close_connections()
    # asgiref's thread for sync work, reached from a thread of its own: the browser tests
    # leave an event loop running in this one (Playwright's sync API).
    with ThreadPoolExecutor(1) as thread:
        thread.submit(lambda: asyncio.run(sync_to_async(connections.close_all)())).result()


# --- browser harness -------------------------------------------------------------------


# Tests whose outcome cannot depend on the database or the channel layer carry the marker
# `any_topology`, and .ci/run's second pass (PostgreSQL + Redis) leaves them out: the
# engines' tests that use no database are marked here; browser modules of page layout and
# screens mark themselves, and so do the hidden-information page scans (tests/games/): a
# page is drawn from the stored game alike on either database, while the scans of websocket
# frames cross the channel layer and run in both passes.
ENGINE_TESTS = ROOT / "tests" / "kinds"
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_setup"})


def uses_database(item: pytest.Item) -> bool:
    names = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(names & DATABASE_FIXTURES)


def pytest_itemcollected(item: pytest.Item) -> None:
    if item.path.is_relative_to(ENGINE_TESTS) and not uses_database(item):
        item.add_marker(pytest.mark.any_topology)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session")
def e2e_workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("e2e")


@pytest.fixture(scope="session")
def e2e_env(e2e_workdir: Path) -> dict[str, str]:
    # As in production, the hard bots think in a worker process (games/bots/thinking.py).
    env = server_env(e2e_workdir, BOT_SEARCH_PROCESSES="1")
    manage(env, "migrate", "--noinput", "-v0")
    if env.get("DATABASE_URL"):
        manage(env, "flush", "--noinput", "-v0")  # a shared PostgreSQL database: start empty
    manage(env, "collectstatic", "--noinput", "-v0")
    return env


@pytest.fixture(scope="session")
def daphne_server(e2e_env: dict[str, str], e2e_workdir: Path) -> Iterator[str]:
    """A real daphne process serving the app; browser tests talk to it like users do."""
    proc, url = start_daphne(e2e_env, e2e_workdir / "daphne.log")
    yield url
    stop_daphne(proc)


@pytest.fixture(scope="session")
def base_url(daphne_server: str) -> str:
    return daphne_server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    return {
        **browser_type_launch_args,
        "executable_path": chromium,
        "args": [
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


@pytest.fixture
def shoot(request: pytest.FixtureRequest) -> Any:
    """Save a full-page screenshot as a test artefact: shoot(page, "lobby-desktop")."""
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
