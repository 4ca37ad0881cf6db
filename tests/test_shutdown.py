"""SIGTERM while a move is in flight: daphne exits promptly, the move is stored at most once
with a consistent log, and the shutdown is clean: a stored move was answered 2xx on its
connection; a move not stored was answered 503, or its connection was refused or reset.

A real daphne subprocess per try: a move is posted over HTTP while the other player's table
socket is open (so the move's pushes have a receiver), and SIGTERM follows after a small
delay. Before the first fix, an after-commit push from the request thread waited for an
event loop that had stopped, and the process never exited. Before the drain
(hundredten/drain.py), daphne cancelled the request at SIGTERM: in about half the tries the
move was stored and its connection closed with no answer. The same on PostgreSQL + Redis,
with the socket on a second process: tests/scaleout/test_shutdown_two_processes.py.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import http.client
import signal
import sqlite3
import subprocess
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from hundredten.drain import DRAIN_SECONDS
from tests.servers import SHELL_PEOPLE, found, manage, server_env, shell_json, start_daphne
from tests.timeouts import SERVER_TIMEOUT

pytestmark = pytest.mark.timeout(SERVER_TIMEOUT)

# A round: a move per delay, each POST followed by SIGTERM that many ms later, on one server.
DELAYS_MS = (0, 5, 10, 20, 50)
ROUNDS = (
    3  # a test each; 15 tries (before the first fix, 4 to 6 rounds in 15 of one move each hung)
)
# The drain's bound for the requests inside (hundredten/drain.py), then the rest of the exit.
EXIT_WITHIN_SECONDS = DRAIN_SECONDS + 5.0

SETUP = (
    SHELL_PEOPLE
    + """
alice, alice_session = person("{prefix}alice")
bob, bob_session = person("{prefix}bob")
games = [started_game(f"Shutdown {{n}}", alice, bob).pk for n in range({count})]
print("SETUP" + json.dumps({{"games": games, "alice_session": alice_session,
    "bob_session": bob_session}}))
"""
)


def setup_games(env: dict[str, str], count: int, prefix: str = "") -> dict[str, Any]:
    """`count` started two-seat games of alice's and bob's (users named with `prefix`: a
    PostgreSQL database is shared with other tests), and both sessions."""
    return shell_json(env, SETUP.format(count=count, prefix=prefix))


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


# What a move's POST got: the answer's status, or the class of the error it raised.
Reply = int | type[OSError]


def post(url: str, path: str, body: str, headers: dict[str, str], result: list[Reply]) -> None:
    # The connection is closed whatever happens: kept alive by the stored error's traceback
    # (a reference cycle), an open socket would be collected during some later test and
    # fail it with a ResourceWarning. Hence only the error's class is kept.
    conn = http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=10)
    try:
        conn.request("POST", path, body=body, headers=headers)
        result.append(conn.getresponse().status)
    except OSError as error:  # the server went away mid-request: see `Try.answered`
        result.append(type(error))
    finally:
        conn.close()


def stored_moves(env: dict[str, str], game_id: int) -> tuple[int, list[int]]:
    """The game's action_count and its logged moves' seqs, read from the servers' database."""
    count_sql = "SELECT action_count FROM games_game WHERE id = {}"
    seqs_sql = "SELECT seq FROM games_gameaction WHERE game_id = {} ORDER BY seq"
    if env.get("DATABASE_URL"):
        with psycopg.connect(env["DATABASE_URL"]) as pg:
            (count,) = pg.execute(count_sql.format("%s"), (game_id,)).fetchone() or (0,)
            seqs = [seq for (seq,) in pg.execute(seqs_sql.format("%s"), (game_id,))]
        return int(count), seqs
    with sqlite3.connect(env["SQLITE_PATH"]) as lite:
        (count,) = lite.execute(count_sql.format("?"), (game_id,)).fetchone()
        seqs = [seq for (seq,) in lite.execute(seqs_sql.format("?"), (game_id,))]
    return int(count), seqs


@dataclasses.dataclass
class Try:
    n: int
    delay_ms: int
    replies: list[Reply]  # none when the POST did not end
    action_count: int
    seqs: list[int]

    def __str__(self) -> str:
        reply = self.replies[0] if self.replies else "none"
        shown = reply.__name__ if isinstance(reply, type) else reply
        return f"try {self.n} (SIGTERM {self.delay_ms} ms after the POST): {shown}"

    @property
    def stored(self) -> bool:
        return self.seqs == [1]

    @property
    def answered(self) -> bool:
        """As a clean shutdown answers: a stored move 2xx on its connection; one not stored
        503, or its connection refused or reset (ConnectionError: refused, reset, closed
        before the status line, or the body's sending cut)."""
        if not self.replies:
            return False
        reply = self.replies[0]
        if isinstance(reply, int):
            return 200 <= reply < 300 if self.stored else reply == 503
        return not self.stored and issubclass(reply, ConnectionError)


def one_round(
    proc: subprocess.Popen[bytes],
    url: str,
    socket_url: str,
    games: list[int],
    setup: Any,
) -> tuple[bool, list[list[Reply]]]:
    """Bob's bid in each of `games` posted to the server at `url`, with alice's table socket
    of each game open (on `socket_url`'s server), and SIGTERM DELAYS_MS[n] after the nth
    POST: several moves inside the server at once, as under load. (hung, each POST's replies)."""
    moves = [prepare_move(url, game_id, setup["bob_session"]) for game_id in games]
    results: list[list[Reply]] = [[] for _ in games]
    with contextlib.ExitStack() as stack:
        for game_id in games:
            ws = stack.enter_context(
                connect(
                    socket_url.replace("http://", "ws://") + f"/ws/games/{game_id}/",
                    origin=Origin(socket_url),
                    additional_headers={"Cookie": f"sessionid={setup['alice_session']}"},
                    open_timeout=10,
                )
            )
            ws.recv(timeout=10)  # the table on connect: alice's consumer is in the group
        posters = [
            threading.Thread(target=post, args=(url, f"/games/{game_id}/move/", *move, result))
            for game_id, move, result in zip(games, moves, results, strict=True)
        ]
        latest = max(DELAYS_MS) / 1000
        began = time.monotonic()
        # The longest delay's POST first: each starts `latest - delay` after the first.
        for poster, delay_ms in sorted(zip(posters, DELAYS_MS, strict=True), key=lambda p: -p[1]):
            time.sleep(max(0.0, began + latest - delay_ms / 1000 - time.monotonic()))
            poster.start()
        time.sleep(max(0.0, began + latest - time.monotonic()))
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(EXIT_WITHIN_SECONDS)
            hung = False
        except subprocess.TimeoutExpired:
            hung = True
            proc.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER: every thread's stack
            proc.wait(5)
        for poster in posters:
            poster.join(15)
    return hung, results


def sigterm_round(
    env: dict[str, str],
    workdir: Path,
    setup: dict[str, Any],
    round_: int,
    socket_url: str | None = None,
) -> list[Try]:
    """Round `round_` (`one_round`) on a daphne of its own: a try per delay, on that round's
    games of `setup`. Alice's sockets are on that daphne, or on the one at `socket_url`."""
    games_of_round = setup["games"][round_ * len(DELAYS_MS) : (round_ + 1) * len(DELAYS_MS)]
    assert len(games_of_round) == len(DELAYS_MS), "setup made too few games"
    log = workdir / f"daphne-{round_}.log"
    proc, url = start_daphne(env, log)
    try:
        did_hang, replies = one_round(proc, url, socket_url or url, games_of_round, setup)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert not did_hang, f"round {round_} hung after SIGTERM:\n{log.read_text()[-6000:]}"
    done: list[Try] = []
    for game_id, delay_ms, got in zip(games_of_round, DELAYS_MS, replies, strict=True):
        count, seqs = stored_moves(env, game_id)
        done.append(Try(len(done), delay_ms, got, count, seqs))
    return done


def assert_clean_shutdowns(tries: list[Try]) -> None:
    """Each move stored at most once with a consistent log, and answered as it was kept."""
    tally = collections.Counter(
        ("stored" if done.stored else "not stored", str(done).rsplit(": ", 1)[1]) for done in tries
    )
    print("SIGTERM tries:", ", ".join(f"{a}, {b}: {n}" for (a, b), n in sorted(tally.items())))
    for done in tries:
        assert len(done.seqs) <= 1, f"{done}: the move was stored {len(done.seqs)} times"
        assert done.action_count == len(done.seqs), f"{done}: count {done.action_count}"
        assert done.seqs == list(range(1, len(done.seqs) + 1)), f"{done}: seqs {done.seqs}"
    unanswered = [done for done in tries if done.stored and not done.answered]
    assert not unanswered, (
        f"{len(unanswered)} of {len(tries)} tries: the move was stored and its mover got no"
        " answer (2xx): " + "; ".join(map(str, unanswered))
    )
    misanswered = [done for done in tries if not done.answered]
    assert not misanswered, (
        f"{len(misanswered)} of {len(tries)} tries: the move was not stored, and the answer"
        " was neither a 503 nor a refused or reset connection: " + "; ".join(map(str, misanswered))
    )


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path, Any]:
    """A migrated SQLite site with every round's games, set up once for the rounds."""
    workdir = tmp_path_factory.mktemp("shutdown")
    # Its own SQLite file (which the checks read) and the in-memory layer, in either CI run.
    env = server_env(workdir, DATABASE_URL="", BOT_DELAY_SECONDS="0", PYTHONFAULTHANDLER="1")
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    return env, workdir, setup_games(env, ROUNDS * len(DELAYS_MS))


# One test a round, so that each stays far inside the per-test time limit on a slow machine.
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_sigterm_during_a_move_exits_promptly_and_answers_what_it_stored(
    sqlite_server: tuple[dict[str, str], Path, Any], round_: int
) -> None:
    env, workdir, setup = sqlite_server
    assert_clean_shutdowns(sigterm_round(env, workdir, setup, round_))
