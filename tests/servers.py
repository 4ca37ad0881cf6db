"""Servers the tests start as users meet them: a production-like daphne in a subprocess with
its environment, `manage.py` commands and shell scripts run in that environment, and a second
server beside the e2e one (tests/conftest.py starts the e2e server from these)."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


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
        # The analysis of a finished game with the fewest samples (games/services/analysis.py).
        "ANALYSIS_BUDGET": "1",
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
