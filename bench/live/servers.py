"""The daphne processes under test: each a subprocess of the benchmark on a free loopback
port (DEBUG off, its own SQLite file unless DATABASE_URL is set), its CPU time read from
/proc, its counts collected with --count (bench/probe/), its log's errors tailed."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


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


def tail(log: Path, lines: int = 40) -> str:
    """The end of daphne's log without its access lines (the errors)."""
    if not log.exists():
        return "(none)"
    access = re.compile(r'^\S+ - - \[[^]]+\] "')
    kept = [text for text in log.read_text().splitlines() if not access.match(text)]
    return "\n".join(kept[-lines:])
