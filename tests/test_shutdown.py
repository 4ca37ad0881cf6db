"""SIGTERM while a move is in flight: daphne exits promptly, and the move is stored at most
once with a consistent log (no lost reply that left a half-written game, no doubled row).

A real daphne subprocess per try: a move is posted over HTTP while the other player's table
socket is open (so the move's pushes have a receiver), and SIGTERM follows after a small
delay. Before the fix, an after-commit push from the request thread waited for an event
loop that had stopped, and the process never exited.
"""

from __future__ import annotations

import http.client
import re
import signal
import sqlite3
import subprocess
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from websockets.sync.client import connect
from websockets.typing import Origin

from tests.conftest import manage, server_env, shell_json, start_daphne

DELAYS_MS = (0, 5, 10, 20, 50)
ROUNDS = 2  # 10 tries (before the fix, 4 to 6 in 15 hung)
TOGETHER = 3  # servers started at a time
EXIT_WITHIN_SECONDS = 5.0

SETUP = """
import json
from django.test import Client
from accounts.models import User
from games.services import lobby

def person(name):
    user = User.objects.create_user(
        username=name, password="a-good-long-password-1", display_name=name.capitalize())
    client = Client()
    client.force_login(user)
    return user, client.cookies["sessionid"].value

alice, alice_session = person("alice")
bob, bob_session = person("bob")
games = []
for n in range({count}):
    game = lobby.create_game(organizer=alice, name=f"Shutdown {{n}}", public=False, max_players=2)
    lobby.invite(game_id=game.pk, by=alice, username=bob.username)
    lobby.accept(game_id=game.pk, user=bob)
    lobby.start_game(game_id=game.pk, by=alice)
    games.append(game.pk)
print("SETUP" + json.dumps({{"games": games, "alice_session": alice_session,
    "bob_session": bob_session}}))
"""


def setup_games(env: dict[str, str], count: int) -> dict[str, Any]:
    return shell_json(env, SETUP.format(count=count))


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not found"
    return match.group(1)


def prepare_move(url: str, game_id: int, session: str) -> tuple[str, dict[str, str]]:
    """The body and headers of bob's opening bid, as the table page would post it."""
    host = urllib.parse.urlsplit(url).netloc
    conn = http.client.HTTPConnection(host, timeout=10)
    try:
        conn.request("GET", f"/games/{game_id}/table/", headers={"Cookie": f"sessionid={session}"})
        response = conn.getresponse()
        html = response.read().decode()
    finally:
        conn.close()
    assert response.status == 200, html[:500]
    cookies = response.headers.get_all("Set-Cookie") or []
    csrf = next(c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("csrftoken="))
    version = found(r'id="table"[^>]*data-version="(\d+)"', html)
    body = urllib.parse.urlencode({"version": version, "kind": "bid", "amount": "15"})
    headers = {
        "Cookie": f"sessionid={session}; csrftoken={csrf}",
        "X-CSRFToken": found(r'"X-CSRFToken": "([^"]+)"', html),
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    return body, headers


def post(url: str, path: str, body: str, headers: dict[str, str], result: list[Any]) -> None:
    # The connection is closed whatever happens: kept alive by the stored error's traceback
    # (a reference cycle), an open socket would be collected during some later test and
    # fail it with a ResourceWarning.
    conn = http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=10)
    try:
        conn.request("POST", path, body=body, headers=headers)
        result.append(conn.getresponse().status)
    except OSError as error:  # the server went away mid-request: allowed
        result.append(type(error).__name__)
    finally:
        conn.close()


def log_of(db: Path, game_id: int) -> tuple[int, list[int]]:
    with sqlite3.connect(db) as conn:
        (count,) = conn.execute(
            "SELECT action_count FROM games_game WHERE id = ?", (game_id,)
        ).fetchone()
        seqs = [
            seq
            for (seq,) in conn.execute(
                "SELECT seq FROM games_gameaction WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
    return int(count), seqs


def one_try(
    proc: subprocess.Popen[bytes], url: str, log: Path, game_id: int, delay_ms: int, setup: Any
) -> tuple[bool, list[Any]]:
    """Post bob's bid with alice's table socket open, SIGTERM after `delay_ms`: (hung, reply)."""
    body, headers = prepare_move(url, game_id, setup["bob_session"])
    result: list[Any] = []
    with connect(
        url.replace("http://", "ws://") + f"/ws/games/{game_id}/",
        origin=Origin(url),
        additional_headers={"Cookie": f"sessionid={setup['alice_session']}"},
        open_timeout=10,
    ) as ws:
        ws.recv(timeout=10)  # the table on connect: alice's consumer is in the group
        poster = threading.Thread(
            target=post, args=(url, f"/games/{game_id}/move/", body, headers, result)
        )
        poster.start()
        time.sleep(delay_ms / 1000)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(EXIT_WITHIN_SECONDS)
            hung = False
        except subprocess.TimeoutExpired:
            hung = True
            proc.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER: every thread's stack
            proc.wait(5)
        poster.join(15)
    return hung, result


def test_sigterm_during_a_move_exits_promptly_and_keeps_the_log_consistent(
    tmp_path: Path,
) -> None:
    # Its own SQLite file (which the checks read) and the in-memory layer, in either CI run.
    env = server_env(tmp_path, DATABASE_URL="", BOT_DELAY_SECONDS="0", PYTHONFAULTHANDLER="1")
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    tries = [delay for _ in range(ROUNDS) for delay in DELAYS_MS]
    setup = setup_games(env, len(tries))
    hung: list[str] = []
    logs = [tmp_path / f"daphne-{n}.log" for n in range(len(tries))]
    for first in range(0, len(tries), TOGETHER):
        batch = range(first, min(first + TOGETHER, len(tries)))
        # A round's servers start together (starting is most of this test's time); each
        # try then stops only its own.
        with ThreadPoolExecutor(len(batch)) as pool:
            servers = list(pool.map(lambda n: start_daphne(env, logs[n]), batch))
        try:
            for n, (proc, url) in zip(batch, servers, strict=True):
                game_id, delay_ms = setup["games"][n], tries[n]
                did_hang, result = one_try(proc, url, logs[n], game_id, delay_ms, setup)
                if did_hang:
                    hung.append(f"try {n} (delay {delay_ms} ms):\n{logs[n].read_text()[-6000:]}")
                count, seqs = log_of(Path(env["SQLITE_PATH"]), game_id)
                assert len(seqs) <= 1, f"try {n}: the move was stored {len(seqs)} times"
                assert count == len(seqs), f"try {n}: action_count {count}, {len(seqs)} rows"
                assert seqs == list(range(1, len(seqs) + 1)), f"try {n}: seqs {seqs}"
                if result and result[0] == 200:
                    assert seqs == [1], f"try {n}: the reply said stored, the log has {seqs}"
        finally:
            for proc, _ in servers:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(5)
    assert not hung, f"{len(hung)} of {len(tries)} tries hung after SIGTERM:\n" + "\n".join(
        hung[:2]
    )
