"""Real-time benchmark: one daphne process (or several), many live games, all on loopback.

    .venv/bin/python bench/realtime.py                 # the three measurements below
    .venv/bin/python bench/realtime.py --quick         # a smaller, faster run
    DATABASE_URL=postgresql://... bench/realtime.py    # on PostgreSQL instead of SQLite
    DATABASE_URL=... REDIS_URL=redis://... bench/realtime.py --processes 2   # scale-out

It starts daphne (its own subprocess, DEBUG off, its own SQLite file unless DATABASE_URL is
set), creates users, sessions and started four-player games directly with the Django ORM in
this process against the same database, opens the sockets a browser on the table page opens
(per player: the table socket and the per-user socket) and plays each game by HTTP POSTs of
the naive bot's moves (one kept-alive connection per player, as a browser keeps one), each
game moving about once every --think seconds (default 5, jittered 0.5x to 1.5x), as people
do.

It prints, per step:
- POST->partial: time from sending a move's POST to having the `#table` partial answer;
- action->push: time from sending the POST to the next player's table socket receiving
  the table at the new version;
- moves/s and daphne busy: the moves measured per second of the step, and the daphnes'
  CPU time over that time (the share of one core); with the CPU per move, the number of
  games at which one core would be used up (a process cannot use more: the interpreter's
  lock), an upper bound on what one process holds;
and ramps the number of games to find the largest one daphne process holds with push
p99 <= 250 ms. Loops are bounded; daphne is stopped at the end (or on Ctrl-C).

`--game hearts` makes the tables Hearts games of four humans (default: hundred-and-ten; any
slug of games.registry); `--seats 10` seats ten (One Hundred and Four: ten players choose at
once, then the placements are played out step by step on every table socket). The moves are
the naive bot's, chosen on a pure engine mirror of each game; every POST carries what its
player's page shows: the table version and the decision key (the hidden `turn` input), from
the last table the page got (socket push, POST answer or page load); a player whose page
shows no move (a resolution played out step by step) waits for it, as a person watches.
A turn where several seats must act (Hearts' pass) is played as that
many POSTs sent at once, each from a page of the same version: all but the first to land are
then older than the table and must pass the server's decision-key check (a 409 there is a
bug, and is reported). Each such move's push is measured at every other player's table
socket (the first table at the version the move's answer shows, or a later one: redraws
coalesce); the move that completes the turn (Hearts: the exchange) is counted apart. A game
whose first turn is simultaneous warms up with a page load per player instead of a move, so
that turn is measured. A turn is one think pause: `--moves` counts turns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VERSION_RE = re.compile(rb'id="table"[^>]*data-version="(\d+)"')
# A patch of the seats' marks (games/consumers/marks.py): the version it brings the table to.
PATCH_RE = re.compile(rb'data-table-version="(\d+)"')
SIDE_RE = re.compile(rb'id="table-side"[^>]*data-side="([^"]*)"')
TURN_RE = re.compile(rb'name="turn" value="([^"]*)"')
ERROR_RE = re.compile(rb'class="[^"]*table-error[^"]*"[^>]*>([^<]*)<')
PLAYERS = 4
PUSH_LIMIT_MS = 250.0
# In usernames, so runs against the same PostgreSQL database never collide.
RUN_TOKEN = secrets.token_hex(3)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# --- the server -------------------------------------------------------------------------------


def server_environment(workdir: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DEBUG": "0",
        "HTTPS": "0",
        "SECRET_KEY": "realtime-bench-" + "k" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_ROOT": str(workdir / "static"),
        "BOT_DELAY_SECONDS": "0",
        "LOG_LEVEL": "ERROR",
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": "hundredten.settings",
    }
    if not env.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    return env


def prepare(env: dict[str, str]) -> None:
    """Migrate the bench database and collect the static files, once for every process."""
    for args in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)
    if env.get("SQLITE_PATH") and os.environ.get("BENCH_SQLITE_JOURNAL", "wal") == "wal":
        # WAL (kept in the file): readers (the socket renders) no longer block the writer
        # (a move), whose commit otherwise waits in SQLite's busy-sleep for them.
        import sqlite3

        with sqlite3.connect(env["SQLITE_PATH"]) as db:
            db.execute("PRAGMA journal_mode=WAL")


def start_daphne(env: dict[str, str], log_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "hundredten.asgi:application"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    for _ in range(300):  # at most 30 s
        if proc.poll() is not None:
            raise SystemExit(f"daphne exited:\n{log_path.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, port
        except OSError:
            time.sleep(0.1)
    stop(proc)
    raise SystemExit("daphne did not start listening within 30 s")


@dataclass
class Servers:
    """The daphne processes under test. With several, each player's sockets and POSTs go to
    one of them by (game, seat), so the four players of a game are spread over the processes
    and every push crosses the channel layer (Redis) as it would behind a load balancer."""

    procs: list[subprocess.Popen[bytes]]
    ports: list[int]
    logs: list[Path]

    def port_for(self, game_id: int, seat: int) -> int:
        return self.ports[(game_id + seat) % len(self.ports)]

    def cpu_seconds(self) -> tuple[float, float]:
        """User and system CPU time of the daphne processes so far, summed."""
        times = [cpu_seconds(proc.pid) for proc in self.procs]
        return sum(user for user, _ in times), sum(system for _, system in times)

    def probe(self) -> dict[str, int] | None:
        """With --count: each process's counts since the last call (bench/probe/), summed;
        None without the probe."""
        target = os.environ.get("BENCH_PROBE_FILE")
        if not target:
            return None
        files = [Path(f"{target}.{proc.pid}.json") for proc in self.procs]
        for path in files:
            path.unlink(missing_ok=True)
        for proc in self.procs:
            os.kill(proc.pid, signal.SIGUSR1)
        total: dict[str, int] = {}
        for path in files:
            for _ in range(100):  # at most 10 s
                if path.exists() and path.stat().st_size:
                    break
                time.sleep(0.1)
            for key, value in json.loads(path.read_text()).items():
                total[key] = total.get(key, 0) + value
        return total

    def log_tail(self) -> str:
        return "\n".join(f"[{log.name}]\n{tail(log)}" for log in self.logs)

    def stop(self) -> None:
        for proc in self.procs:
            stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


# --- the data (Django ORM in this process, same database) -------------------------------------


@dataclass
class Player:
    user_id: int
    session: str
    seat: int


# One move of a turn: (seat, form fields as the table's form posts them). A turn is every
# move the game waits for at once: one in a sequential phase, several in a simultaneous one.
Turn = list[tuple[int, dict[str, Any]]]


@dataclass
class BenchGame:
    game_id: int
    players: list[Player]
    turns: list[Turn]  # in order
    version: int = 0
    # Seconds over which a simultaneous turn's moves are spread (0: all at once, a burst).
    pace: float = 0.0
    browsers: dict[int, Browser] = field(default_factory=dict)  # seat -> its HTTP connection


def make_games(
    count: int, first: int, slug: str, spread: int = 0, seats: int = PLAYERS
) -> list[BenchGame]:
    """`count` started games of `seats` humans of the kind `slug`, with the naive bot's
    turns chosen on a pure engine mirror of each game.

    `spread` > 0 (the measured turns of a step), in a game with simultaneous turns: the game
    is played in (through the ORM, before any socket opens) up to a random point 1 to
    `spread` turns before a simultaneous turn (the first one at index >= `spread`: Hearts'
    second pass), so that over the games those turns fall evenly across the measured turns
    (after the warm-up move) instead of all at the first."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import transaction

    from accounts.models import User
    from games import registry
    from games.models import Game, Membership
    from games.services import table

    kind = registry.kind(slug)
    games: list[BenchGame] = []
    for n in range(first, first + count):
        users = []
        for seat in range(seats):
            user = User(username=f"bench{RUN_TOKEN}-{n}s{seat}", display_name=f"P{seat} of {n}")
            user.set_unusable_password()  # no hashing: fast to create
            users.append(user)
        User.objects.bulk_create(users)
        users = list(
            User.objects.filter(username__in=[u.username for u in users]).order_by("username")
        )
        with transaction.atomic():
            game = Game.objects.create(
                name=f"Bench {n}",
                kind=slug,
                options=kind.resolve_options({}),
                organizer=users[0],
                seed=f"bench-{n}",
                max_players=seats,
            )
            Membership.objects.bulk_create(
                Membership(game=game, user=u, role="organizer" if s == 0 else "player", seat=s)
                for s, u in enumerate(users)
            )
            table.begin(game)
        players = []
        for seat, user in enumerate(users):
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            players.append(Player(user.pk, str(store.session_key), seat))
        mirror = mirror_turns(kind, game.seed, game.options, 120, seats)
        together = [i for i, turn in enumerate(mirror) if len(turn) > 1 and i >= spread]
        skip = 0
        if spread and together:
            # Warm-up move at together[0] - offset - 1, then `offset` measured turns before it.
            offset = random.Random(f"{RUN_TOKEN}:{n}").randrange(spread)
            skip = max(0, together[0] - offset - 1)
            with transaction.atomic():
                game = Game.objects.select_for_update().get(pk=game.pk)
                state = table.load_state(game)
                for turn in mirror[:skip]:
                    for seat, action, _ in turn:
                        state = table.record(game, state, seat, action, auto=False)
        game.refresh_from_db()
        turns = [[(seat, fields) for seat, _, fields in turn] for turn in mirror[skip:]]
        games.append(BenchGame(game.pk, players, turns, game.version))
    return games


def start_bot_tables(count: int, slug: str, level: str, seats: int) -> list[int]:
    """`count` games of `seats` bots of `level`, started, for the daphnes to play in the
    background (`--bot-tables`). They are made here with no timer: each daphne's deadline
    sweep finds their first bot move overdue a few seconds later (games/deadlines.py) and
    plays it, and that daphne's bot runner plays on, one move per BOT_DELAY_SECONDS."""
    from django.conf import settings
    from django.db import transaction

    from accounts.models import User
    from games import bots, registry
    from games.models import Game, Membership
    from games.services import table

    organizer = User(username=f"bench{RUN_TOKEN}-bots", display_name="Bench bots")
    organizer.set_unusable_password()
    organizer.save()
    ids = []
    settings.BOT_DELAY_SECONDS = 1.0  # not played here, at once, in the start's transaction
    for n in range(count):
        with transaction.atomic():
            game = Game.objects.create(
                name=f"Bots {n}",
                kind=slug,
                options=registry.kind(slug).resolve_options({}),
                organizer=organizer,
                seed=f"bench-bots-{RUN_TOKEN}-{n}",
                max_players=seats,
            )
            Membership.objects.bulk_create(
                Membership(game=game, role="player", seat=s, bot=level, bot_name=f"Bot {s}")
                for s in range(seats)
            )
            table.begin(game)
        ids.append(game.pk)
    bots.cancel_all()  # the daphnes play them
    return ids


def bot_moves(ids: list[int]) -> int:
    """The moves the background bot tables have made so far."""
    from django.db.models import Sum

    from games.models import Game

    return int(Game.objects.filter(pk__in=ids).aggregate(n=Sum("action_count"))["n"] or 0)


def mirror_turns(
    kind: Any, seed: str, options: dict[str, Any], count: int, seats: int = PLAYERS
) -> list[list[tuple[int, Any, dict[str, Any]]]]:
    """The first `count` turns of the game dealt from `seed`, the naive bot playing every
    seat: per turn, (seat, action, form fields) of each move. In a simultaneous phase each
    waiting seat chooses on the same state (it cannot see the others' choices), so the order
    the server applies them in changes nothing."""
    rules, bot, form = kind.rules, kind.bots["naive"], FORMS[kind.slug]
    state = rules.initial_state(seed, seats, options)
    rng = random.Random(seed)
    turns: list[list[tuple[int, Any, dict[str, Any]]]] = []
    while len(turns) < count and (waiting := sorted(rules.to_act(state))):
        chosen = [(seat, bot.choose(state, seat, rng)) for seat in waiting]
        for seat, action in chosen:
            state = rules.apply(state, seat, action)
        turns.append([(seat, action, form(action)) for seat, action in chosen])
    return turns


def hundred_and_ten_form(move: Any) -> dict[str, Any]:
    from games.kinds.hundred_and_ten import engine

    if isinstance(move, engine.Bid):
        return {"kind": "bid", "amount": str(move.amount)}
    if isinstance(move, engine.Unpass):
        return {"kind": "unpass"}
    if isinstance(move, engine.SelectTrump):
        return {"kind": "trump", "suit": move.suit}
    if isinstance(move, engine.Discard):
        return {"kind": "discard", "cards": [engine.format_card(c) for c in move.cards]}
    return {"kind": "play", "card": engine.format_card(move.card)}


def hearts_form(action: Any) -> dict[str, Any]:
    from games.kinds.hearts import engine

    if isinstance(action, engine.Pass):
        return {"kind": "pass", "cards": [engine.card_code(c) for c in action.cards]}
    return {"kind": "play", "card": engine.card_code(action.card)}


def one_hundred_and_four_form(action: Any) -> dict[str, Any]:
    from games.kinds.one_hundred_and_four import engine

    if isinstance(action, engine.TakeRow):
        return {"kind": "take_row", "row": str(action.row)}
    return {"kind": "choose", "card": str(action.card)}


# The fields the table's form posts for an action, by game kind: one line per game.
FORMS = {
    "hundred-and-ten": hundred_and_ten_form,
    "hearts": hearts_form,
    "one-hundred-and-four": one_hundred_and_four_form,
}


# --- the load ---------------------------------------------------------------------------------


@dataclass
class Results:
    post_ms: list[float] = field(default_factory=list)
    push_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cpu_ms_per_move: float = float("nan")  # the daphnes' CPU time during the measured moves
    system_ms_per_move: float = float("nan")  # of which in the kernel (system time)
    wall_s: float = float("nan")  # how long the measured moves took, start to end
    # By kind of turn ("sequential", "simultaneous", "closing": the move completing a
    # simultaneous turn), when a game has simultaneous turns: POST and push samples.
    post_by: dict[str, list[float]] = field(default_factory=dict)
    push_by: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)  # every answer's HTTP status
    # With --count: what the daphnes did during the measured moves (bench/probe/).
    counts: dict[str, int] | None = None

    @property
    def moves_per_s(self) -> float:
        return len(self.post_ms) / self.wall_s if self.wall_s > 0 else 0.0

    @property
    def busy(self) -> float:
        """The daphnes' CPU time over the wall time of the measured moves: the share of one
        core they used. One process cannot use more than one (the interpreter's lock)."""
        return self.moves_per_s * self.cpu_ms_per_move / 1000 if self.post_ms else 0.0

    def note(self, label: str, post: float | None = None, push: float | None = None) -> None:
        if post is not None:
            self.post_ms.append(post)
            self.post_by.setdefault(label, []).append(post)
        if push is not None:
            self.push_ms.append(push)
            self.push_by.setdefault(label, []).append(push)


class Sockets:
    """Every table socket's frames, by (game, seat) -> [(version, first arrival time)], and
    what each player's page shows: its side panel (a browser's table.js sends its key with
    every move) and the version and decision key (`turn`) of its last table."""

    def __init__(self) -> None:
        self.arrivals: dict[tuple[int, int], list[tuple[int, float]]] = {}
        self.sides: dict[tuple[int, int], str] = {}
        self.pages: dict[tuple[int, int], tuple[int, str]] = {}
        self.waiters: dict[tuple[int, int], list[tuple[int, asyncio.Future[float]]]] = {}
        self.open: list[Any] = []
        self.readers: list[asyncio.Task[None]] = []

    async def reader(self, ws: Any, key: tuple[int, int] | None) -> None:
        try:
            async for frame in ws:
                now = time.perf_counter()
                if key is None:
                    continue
                data = frame.encode() if isinstance(frame, str) else frame
                version = self.saw_page(key, data)
                if version is None:
                    continue
                self.arrivals.setdefault(key, []).append((version, now))
                waiting = self.waiters.get(key)
                if waiting:
                    still = []
                    for wanted, waiter in waiting:
                        if version >= wanted:
                            if not waiter.done():
                                waiter.set_result(now)
                        else:
                            still.append((wanted, waiter))
                    self.waiters[key] = still
        except Exception:  # closed at the end of a step
            return

    def saw_page(self, key: tuple[int, int], data: bytes) -> int | None:
        """Note the side panel, version and decision key a table (frame or answer) shows the
        player; its version (None: no table in it)."""
        side = SIDE_RE.search(data)
        if side:
            self.sides[key] = side.group(1).decode()
        match = VERSION_RE.search(data)
        if not match:
            # A patch leaves the rest of the page, its move form included, as it was.
            patched = PATCH_RE.search(data)
            if not patched:
                return None
            version = int(patched.group(1))
            shown, turn_shown = self.pages.get(key, (-1, ""))
            if version >= shown:
                self.pages[key] = (version, turn_shown)
            return version
        version = int(match.group(1))
        turn = TURN_RE.search(data)
        if version >= self.pages.get(key, (-1, ""))[0]:
            self.pages[key] = (version, turn.group(1).decode() if turn else "")
        return version

    def arrival(self, game_id: int, seat: int, version: int) -> asyncio.Future[float]:
        """When (game, seat)'s table socket first got the table at `version` or later."""
        loop = asyncio.get_running_loop()
        key = (game_id, seat)
        future: asyncio.Future[float] = loop.create_future()
        known = [when for seen, when in self.arrivals.get(key, ()) if seen >= version]
        if known:
            future.set_result(min(known))
        else:
            self.waiters.setdefault(key, []).append((version, future))
        return future


async def connect_all(servers: Servers, games: list[BenchGame], sockets: Sockets) -> None:
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(40)

    async def one(port: int, path: str, session: str, key: tuple[int, int] | None) -> None:
        async with gate:
            ws = await connect(
                f"ws://127.0.0.1:{port}{path}",
                origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={session}"},
                open_timeout=30,
                max_size=None,
                ping_interval=None,
            )
        sockets.open.append(ws)
        sockets.readers.append(asyncio.create_task(sockets.reader(ws, key)))

    await asyncio.gather(
        *(
            one(servers.port_for(g.game_id, p.seat), path, p.session, key)
            for g in games
            for p in g.players
            for path, key in (
                (f"/ws/games/{g.game_id}/", (g.game_id, p.seat)),
                ("/ws/user/", None),
            )
        )
    )


class Browser:
    """One player's HTTP/1.1 connection to daphne, kept alive between moves as a browser
    keeps it (opened on first use, opened anew if the server closed it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(
        self, path: str, session: str, fields: dict[str, Any], side: str
    ) -> tuple[int, bytes]:
        """One POST as htmx (and table.js) send it; (status, headers + body)."""
        from urllib.parse import urlencode

        csrf = secrets.token_hex(16)  # a 32-character secret: cookie and header agree
        body = urlencode(fields, doseq=True).encode()
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Cookie: sessionid={session}; csrftoken={csrf}\r\nX-CSRFToken: {csrf}\r\n"
            f"HX-Request: true\r\nX-Table-Side: {side}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        return await self._send(request)

    async def get(self, path: str, session: str) -> tuple[int, bytes]:
        """The page a browser loads (a full page, not a partial); (status, headers + body)."""
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Cookie: sessionid={session}\r\n\r\n"
        ).encode()
        return await self._send(request)

    async def _send(self, request: bytes) -> tuple[int, bytes]:
        reused = self.stream is not None
        try:
            return await self._exchange(request)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
            return await self._exchange(request)  # the kept connection had gone: once anew

    async def _exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.stream is None:
            self.stream = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.stream
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(b":") for line in head.split(b"\r\n")[1:])
        }
        if headers.get(b"transfer-encoding") == b"chunked":
            body = b""
            while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
                body += (await reader.readexactly(size + 2))[:-2]
            await reader.readuntil(b"\r\n")
        else:
            body = await reader.readexactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"connection") == b"close":
            self.close()
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
        return status, head + body

    def close(self) -> None:
        if self.stream is not None:
            self.stream[1].close()
            self.stream = None


async def drive(servers: Servers, g: BenchGame, sockets: Sockets, think: float, turns: int,
                results: Results, rng: random.Random, measure: bool) -> None:  # fmt: skip
    await asyncio.sleep(rng.uniform(0, think))  # spread the games out
    for _ in range(turns):
        if not g.turns:
            return
        turn = g.turns.pop(0)
        if len(turn) == 1:
            played = await sequential(servers, g, sockets, turn[0], results, measure)
        else:
            played = await simultaneous(servers, g, sockets, turn, results, measure)
        if not played:
            return
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))


async def post_move(
    servers: Servers, g: BenchGame, sockets: Sockets, seat: int, fields: dict[str, Any],
    results: Results,
) -> tuple[float, float, int, bytes, str]:  # fmt: skip
    """POST `seat`'s move with the version and decision key its page shows; (sent,
    answered, status, answer, what was sent for the record)."""
    player = g.players[seat]
    key = (g.game_id, seat)
    # A person acts once their page offers the move: while the table plays a resolution
    # out step by step (One Hundred and Four), the page shows no form, and they watch.
    for _ in range(600):
        if sockets.pages.get(key, (0, "x"))[1]:
            break
        await asyncio.sleep(0.05)
    version, turn = sockets.pages.get(key, (g.version, ""))
    form = {**fields, "version": str(version), "turn": turn}
    started = time.perf_counter()
    browser = g.browsers.setdefault(seat, Browser(servers.port_for(g.game_id, seat)))
    status, data = await browser.post(
        f"/games/{g.game_id}/move/", player.session, form, sockets.sides.get(key, "")
    )
    answered = time.perf_counter()
    results.statuses[status] = results.statuses.get(status, 0) + 1
    if status == 200:
        sockets.saw_page(key, data)  # the browser swaps the answer in
    return started, answered, status, data, f"seat {seat} version={version} turn={turn!r}"


def refused(g: BenchGame, status: int, data: bytes, sent: str) -> str:
    message = ERROR_RE.search(data)
    said = message.group(1).decode(errors="replace").strip() if message else ""
    return f"game {g.game_id}: POST {status} ({sent}; table v{g.version}): {said!r}"


async def sequential(servers: Servers, g: BenchGame, sockets: Sockets,
                     move: tuple[int, dict[str, Any]], results: Results,
                     measure: bool) -> bool:  # fmt: skip
    """One move; its push is timed at the socket of the seat(s) to act next."""
    seat, fields = move
    expected = g.version + 1
    next_seats = [s for s, _ in g.turns[0]] if g.turns else []
    waiters = [sockets.arrival(g.game_id, s, expected) for s in next_seats]
    started, answered, status, data, sent = await post_move(
        servers, g, sockets, seat, fields, results
    )
    if status != 200 or b'id="table"' not in data:
        results.errors.append(refused(g, status, data, sent))
        return False
    g.version = expected
    if measure:
        results.note("sequential", post=(answered - started) * 1000)
    for waiter in waiters:
        try:
            arrived = await asyncio.wait_for(waiter, 10)
        except TimeoutError:
            results.errors.append(f"game {g.game_id}: no push of v{expected} in 10 s")
            return False
        if measure:
            results.note("sequential", push=(arrived - started) * 1000)
    return True


async def simultaneous(servers: Servers, g: BenchGame, sockets: Sockets, turn: Turn,
                       results: Results, measure: bool) -> bool:  # fmt: skip
    """Every move of the turn POSTed at once, each from its player's page (all of the same
    version), or with `--paced`, each at its own moment of one think pause (from the page as
    the others' moves left it); each move's push timed at every other player's table
    socket."""
    base = g.version
    rng = random.Random(f"{g.game_id}:{base}")
    delays = [rng.uniform(0, g.pace) if g.pace else 0.0 for _ in turn]

    async def paced(seat: int, fields: dict[str, Any], delay: float) -> Any:
        await asyncio.sleep(delay)
        return await post_move(servers, g, sockets, seat, fields, results)

    answers = await asyncio.gather(
        *(paced(seat, fields, delay) for (seat, fields), delay in zip(turn, delays, strict=True))
    )
    ok = True
    timed: list[tuple[str, float, asyncio.Future[float], int]] = []
    for (seat, _), (started, answered, status, data, sent) in zip(turn, answers, strict=True):
        version = VERSION_RE.search(data)
        if status != 200 or version is None:
            results.errors.append(refused(g, status, data, sent))
            ok = False
            continue
        after = int(version.group(1))
        label = "closing" if after == base + len(turn) else "simultaneous"
        if measure:
            results.note(label, post=(answered - started) * 1000)
        for other in range(len(g.players)):
            if other != seat:
                timed.append((label, started, sockets.arrival(g.game_id, other, after), after))
    for label, started, waiter, after in timed:
        try:
            arrived = await asyncio.wait_for(waiter, 10)
        except TimeoutError:
            results.errors.append(f"game {g.game_id}: no push of v{after} in 10 s")
            return False
        if measure:
            results.note(label, push=(arrived - started) * 1000)
    if ok:
        g.version = base + len(turn)
    return ok


async def load_pages(servers: Servers, g: BenchGame, sockets: Sockets, results: Results) -> None:
    """Every player loads the table page (a warm-up that makes no move)."""
    for player in g.players:
        browser = g.browsers.setdefault(
            player.seat, Browser(servers.port_for(g.game_id, player.seat))
        )
        status, data = await browser.get(f"/games/{g.game_id}/table/", player.session)
        if status != 200 or sockets.saw_page((g.game_id, player.seat), data) is None:
            results.errors.append(f"game {g.game_id}: page GET {status}")


async def step(
    servers: Servers, games: list[BenchGame], think: float, moves: int, seed: int
) -> Results:
    sockets = Sockets()
    await connect_all(servers, games, sockets)
    # Let the connect-time renders settle: every table socket has its first table.
    for _ in range(1200):  # at most 120 s
        if all((g.game_id, p.seat) in sockets.arrivals for g in games for p in g.players):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    results = Results()
    rng = random.Random(seed)
    # One warm-up move per game (not measured), then the measured turns. A game whose first
    # turn is simultaneous warms up with page loads instead, so that that turn is measured.
    await asyncio.gather(
        *(
            drive(servers, g, sockets, think, 1, results, rng, False)
            if g.turns and len(g.turns[0]) == 1
            else load_pages(servers, g, sockets, results)
            for g in games
        )
    )
    servers.probe()  # with --count: the counts start from zero here
    cpu_before = servers.cpu_seconds()
    began = time.perf_counter()
    await asyncio.gather(
        *(drive(servers, g, sockets, think, moves, results, rng, True) for g in games)
    )
    results.wall_s = time.perf_counter() - began
    if results.post_ms:
        user, system = (
            (after - before) * 1000 / len(results.post_ms)
            for after, before in zip(servers.cpu_seconds(), cpu_before, strict=True)
        )
        results.cpu_ms_per_move, results.system_ms_per_move = user + system, system
    results.counts = servers.probe()
    for ws in sockets.open:
        await ws.close()
    for g in games:
        for browser in g.browsers.values():
            browser.close()
    for task in sockets.readers:
        task.cancel()
    await asyncio.sleep(0.5)
    return results


def line(label: str, games: int, r: Results, seats: int = PLAYERS) -> str:
    sockets = games * seats * 2
    text = (
        f"{label:<14} games={games:<4} sockets={sockets:<5} moves={len(r.post_ms):<5} "
        f"POST->partial p50={percentile(r.post_ms, 50):6.1f} "
        f"p99={percentile(r.post_ms, 99):6.1f} ms  "
        f"push p50={percentile(r.push_ms, 50):6.1f} p99={percentile(r.push_ms, 99):6.1f} ms"
        + f"  daphne CPU/move={r.cpu_ms_per_move:5.1f} ms (system {r.system_ms_per_move:4.1f})"
        + f"  load={os.getloadavg()[0]:.2f}"
        + f"\n    moves/s={r.moves_per_s:5.1f}  daphne busy={r.busy:4.0%} of a core  "
        + f"one core is used up at about {games / r.busy if r.busy else 0:.0f} games"
        + (f"  errors={len(r.errors)} ({r.errors[0]})" if r.errors else "")
    )
    if set(r.post_by) - {"sequential"}:  # a game with simultaneous turns: each kind apart
        for kind in ("simultaneous", "closing", "sequential"):
            posts, pushes = r.post_by.get(kind, []), r.push_by.get(kind, [])
            text += (
                f"\n    {kind:<13} moves={len(posts):<5} POST p50={percentile(posts, 50):6.1f} "
                f"p99={percentile(posts, 99):6.1f} ms  push n={len(pushes):<5} "
                f"p50={percentile(pushes, 50):6.1f} p99={percentile(pushes, 99):6.1f} ms"
            )
    if r.counts is not None and r.post_ms:
        text += "\n" + per_move(r.counts, len(r.post_ms))
    others = {status: n for status, n in r.statuses.items() if status != 200}
    if others:
        text += f"\n    answers other than 200: {others}"
        text += "".join(f"\n    {error}" for error in r.errors[:10])
    return text


def per_move(counts: dict[str, int], moves: int) -> str:
    """The probe's counts per move, grouped (SQL, Redis, events, renders, thread jobs,
    frames), largest first."""
    groups: dict[str, list[tuple[str, int]]] = {}
    for key, value in counts.items():
        kind, _, what = key.partition(" ")
        groups.setdefault(kind, []).append((what, value))
    lines = []
    for kind in ("sql", "redis", "event", "render", "thread", "ws"):
        items = sorted(groups.get(kind, []), key=lambda item: -item[1])
        total = sum(value for what, value in items if what != "bytes sent")
        detail = ", ".join(f"{what} {value / moves:.2f}" for what, value in items[:12])
        lines.append(f"    per move: {kind:<6} {total / moves:7.2f}  ({detail})")
    return "\n".join(lines)


def tail(log: Path, lines: int = 40) -> str:
    """The end of daphne's log without its access lines (the errors)."""
    if not log.exists():
        return "(none)"
    access = re.compile(r'^\S+ - - \[[^]]+\] "')
    kept = [text for text in log.read_text().splitlines() if not access.match(text)]
    return "\n".join(kept[-lines:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--think", type=float, default=5.0, help="seconds between a game's moves")
    parser.add_argument(
        "--moves", type=int, default=6, help="measured turns per game per step (a turn of "
        "several seats at once, e.g. Hearts' pass, is one turn of that many moves)",
    )  # fmt: skip
    parser.add_argument(
        "--game", default="hundred-and-ten", help="the game kind of every table (a slug of "
        "games.registry: hundred-and-ten, hearts)",
    )  # fmt: skip
    parser.add_argument(
        "--together", action="store_true", help="a game with simultaneous turns starts at "
        "its first one, so every table plays one (Hearts: passes) at the start of the "
        "measured turns, a burst; default: each game is played in to 1 to --moves turns "
        "before one, so they spread over the measured turns",
    )  # fmt: skip
    parser.add_argument(
        "--paced", action="store_true", help="the moves of a simultaneous turn are spread "
        "over one think pause (each player chooses at their own moment) instead of all sent "
        "at once",
    )  # fmt: skip
    parser.add_argument(
        "--seats", type=int, default=PLAYERS, help="players per table (a seat count the "
        "game allows; One Hundred and Four: 2 to 10)",
    )  # fmt: skip
    parser.add_argument("--ramp", default="", help="games per ramp step (default 100,...,600)")
    parser.add_argument("--quick", action="store_true", help="small run: 20 and 50 games")
    parser.add_argument("--ramp-only", action="store_true", help="skip the two target points")
    parser.add_argument(
        "--bot-tables",
        type=int,
        default=0,
        help="games of bots only that the daphnes play in the background meanwhile (a bot "
        "move every second per table; their searches run in the daphnes' worker processes)",
    )
    parser.add_argument("--bot-level", default="hard", help="the background bots' level")
    parser.add_argument(
        "--count",
        action="store_true",
        help="count per move what the daphnes do (SQL, Redis, events, renders, frames: "
        "bench/probe/); costs some CPU, so read the CPU figures from a run without it",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="daphne processes (more than one: set "
        "DATABASE_URL and REDIS_URL, so they share the database and the channel layer)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.processes > 1 and not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        parser.error("--processes above 1 needs DATABASE_URL and REDIS_URL")
    if args.quick:
        args.ramp, args.moves = args.ramp or "20,50", 3
    args.ramp = args.ramp or "100,200,300,400,500,600"

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets each side

    # SQLite on tmpfs when there is one: a commit then costs no disk flush, so the figures
    # measure our code rather than this machine's disk (PostgreSQL: set DATABASE_URL).
    shm = Path("/dev/shm")
    base = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    workdir = Path(tempfile.mkdtemp(prefix="bench-realtime-", dir=base))
    env = server_environment(workdir)
    if args.bot_tables:
        env["BOT_DELAY_SECONDS"] = "1.0"  # the human tables have no bots: only theirs
    if args.count:
        probe = str(ROOT / "bench" / "probe")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [probe, env.get("PYTHONPATH")]))
        env["BENCH_PROBE_FILE"] = str(workdir / "probe")
    os.environ.update(env)
    import django

    django.setup()
    from games import registry

    if args.game not in registry.REGISTRY:
        parser.error(f"--game: choose one of {', '.join(registry.REGISTRY)}")
    if args.seats not in registry.kind(args.game).seat_counts:
        parser.error(f"--game {args.game}: not a game of {args.seats} players")
    prepare(env)
    started = [start_daphne(env, workdir / f"daphne-{n}.log") for n in range(args.processes)]
    servers = Servers(
        [proc for proc, _ in started],
        [port for _, port in started],
        [workdir / f"daphne-{n}.log" for n in range(args.processes)],
    )
    where = ", ".join(f"pid {proc.pid} on 127.0.0.1:{port}" for proc, port in started)
    print(f"daphne {where}; database "
          f"{'DATABASE_URL' if env.get('DATABASE_URL') else env['SQLITE_PATH']}; "
          f"game {args.game}{' (simultaneous turns together)' if args.together else ''}; "
          f"think {args.think} s; {args.seats} players x 2 sockets per game; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)  # fmt: skip
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    made = 0
    bot_tables: list[int] = []
    if args.bot_tables:
        bot_tables = start_bot_tables(args.bot_tables, args.game, args.bot_level, args.seats)
        time.sleep(float(env.get("BOT_OVERDUE_SECONDS", "3")) + 3)  # the sweep takes over
        print(f"{args.bot_tables} tables of {args.bot_level} bots playing in the background "
              f"({bot_moves(bot_tables)} moves so far)", flush=True)  # fmt: skip
    try:

        def fresh(count: int) -> list[BenchGame]:
            nonlocal made
            spread = 0 if args.together else args.moves
            games = make_games(count, made, args.game, spread, args.seats)
            for g in games:
                g.pace = args.think if args.paced else 0.0
            made += count
            return games

        if not args.quick and not args.ramp_only:
            # The two target points: POST->partial at 100 games, push at 1,000 sockets.
            r = asyncio.run(step(servers, fresh(100), args.think, args.moves, 1))
            print(line("100 games", 100, r, args.seats), flush=True)
            r = asyncio.run(step(servers, fresh(125), args.think, args.moves, 2))
            print(line("1000 sockets", 125, r, args.seats), flush=True)
        best = 0
        for count in [int(n) for n in args.ramp.split(",") if n.strip()][:10]:
            before = bot_moves(bot_tables) if bot_tables else 0
            r = asyncio.run(step(servers, fresh(count), args.think, args.moves, 3 + count))
            print(line("ramp", count, r, args.seats), flush=True)
            if bot_tables:
                print(f"    meanwhile the bot tables made {bot_moves(bot_tables) - before} moves",
                      flush=True)  # fmt: skip
            if r.errors:
                print("daphne log (last lines):\n" + servers.log_tail(), flush=True)
            if r.errors or percentile(r.push_ms, 99) > PUSH_LIMIT_MS:
                break
            best = count
        print(f"largest ramp step with push p99 <= {PUSH_LIMIT_MS:.0f} ms: {best} games "
              f"({best * args.seats * 2} sockets) in {args.processes} daphne process(es)",
              flush=True)  # fmt: skip
        print(f"median of all push samples: {statistics.median(r.push_ms or [0]):.1f} ms")
        clean = all(tail(log) in ("", "(none)") for log in servers.logs)
        print("daphne log: nothing but access lines" if clean
              else "daphne log (last lines):\n" + servers.log_tail(), flush=True)  # fmt: skip
    except BaseException:
        print("daphne log (last lines):\n" + servers.log_tail())
        raise
    finally:
        servers.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
