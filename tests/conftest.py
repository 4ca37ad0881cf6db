"""Shared fixtures: personas, a logged-in client per persona, and the browser harness.

Personas: alice (organizer), bob (player), carol (invitee), dave (outsider).
Browser tests (marker `browser`) run last: Playwright's sync API leaves a running event
loop in the main thread, which breaks pytest-asyncio tests and sync ORM calls after it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import transaction
from django.test import Client

from tests.bots import in_test_transaction, play_bots

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ARTIFACTS = ROOT / "test-artifacts"
PASSWORD = "correct-horse-battery-9"
PERSONAS = ("alice", "bob", "carol", "dave")

pytest_plugins = ["tests.timeouts"]  # 60 s a test, 120 s a browser test


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
# screens mark themselves.
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(workdir: Path, **extra: str) -> dict[str, str]:
    """Environment for a production-like daphne subprocess (DEBUG off, plain HTTP)."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "HTTPS": "0",
        "SECRET_KEY": "browser-tests-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_ROOT": str(workdir / "static"),
        "BOT_DELAY_SECONDS": os.environ.get("E2E_BOT_DELAY_SECONDS", "0.05"),
        "TABLE_STEP_SECONDS": os.environ.get("E2E_TABLE_STEP_SECONDS", "0.05"),
        "LOGIN_FAILED_LIMIT": "100/m/ip,100/m/key",
        # Servers sweep for due deadlines (games/clocks/deadlines.py), as in production; the
        # pytest process itself does not (it calls deadlines.tick).
        "DEADLINE_SWEEP": "1",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }
    if not env.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(workdir / "e2e.sqlite3")
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True
    )


# The start of a `shell_json` script that makes people and games: `person(name)` finds or
# makes a user and logs in a session for them, (user, session key); `started_game(name, alice,
# bob)` is a private two-seat game of alice's that bob joined, started. No braces: the scripts
# that follow it are filled in with str.format.
SHELL_PEOPLE = """
import json
from django.test import Client
from accounts.models import User
from games.services import lobby

def person(name):
    user = User.objects.filter(username=name).first() or User.objects.create_user(
        username=name, password="a-good-long-password-1", display_name=name.capitalize())
    client = Client()
    client.force_login(user)
    return user, client.cookies["sessionid"].value

def started_game(name, alice, bob):
    game = lobby.create_game(organizer=alice, name=name, public=False, max_players=2)
    lobby.invite(game_id=game.pk, by=alice, username=bob.username)
    lobby.accept(game_id=game.pk, user=bob)
    lobby.start_game(game_id=game.pk, by=alice)
    return game
"""


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not found"
    return match.group(1)


def shell_json(env: dict[str, str], code: str) -> dict[str, Any]:
    """Run `code` with `manage.py shell -c` in a server's environment (its own database) and
    read back the JSON it prints on a line starting with "SETUP"."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    line = next(line for line in done.stdout.splitlines() if line.startswith("SETUP"))
    return dict(json.loads(line[len("SETUP") :]))


LISTEN_SECONDS = 60


def start_daphne(
    env: dict[str, str], log: Path, port: int | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    port = port or free_port()
    with log.open("wb") as out:  # the child keeps its own handle
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "hundredten.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    # Starting takes a few seconds here, and up to 40 s on a machine busy with other work.
    deadline = time.monotonic() + LISTEN_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    stop_daphne(proc)
    raise RuntimeError(f"daphne did not listen within {LISTEN_SECONDS} s:\n{log.read_text()}")


def stop_daphne(proc: subprocess.Popen[bytes]) -> None:
    # daphne can hang on SIGTERM while a sync consumer disconnects: kill after a grace period.
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


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


def second_server_env(
    env: dict[str, str], workdir: Path, name: str, **extra: str
) -> dict[str, str]:
    """The environment of a second server beside the e2e one. On PostgreSQL + Redis it shares
    the database (pushes cross processes). On SQLite it gets its own copy of the migrated
    database: with the in-memory channel layer two daphnes do not hear each other's pushes,
    and either one's deadline sweep could make the other's bot moves, unheard."""
    env = {**env, **extra}
    if not env.get("DATABASE_URL"):
        copy = workdir / f"{name}.sqlite3"
        with sqlite3.connect(env["SQLITE_PATH"]) as source, sqlite3.connect(copy) as target:
            source.backup(target)  # consistent while the other server runs
        env["SQLITE_PATH"] = str(copy)
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
