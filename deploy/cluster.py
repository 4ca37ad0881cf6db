"""The production-like cluster: nginx in front of several daphne processes that share
PostgreSQL and Redis, all in the background. Their config, pid files, logs and secrets live
in a run folder (.cluster/, git-ignored); `stop` ends exactly the processes whose pid files
are there. `make serve-cluster` and `make stop-cluster` run this (docs/deployment.md);
tests/scaleout/test_proxy.py uses its pieces with a folder and ports of its own.

    python deploy/cluster.py start [--processes 2] [--host 127.0.0.1] [--port 8000]
    python deploy/cluster.py stop

DATABASE_URL and REDIS_URL are used when set (the database is created if missing);
otherwise the machine's PostgreSQL and Redis, with a role and database "hundredten" whose
password is kept in the run folder.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
RUN_DIR = ROOT / ".cluster"
TEMPLATE = Path(__file__).with_name("nginx.conf.in")
NGINX = "/usr/sbin/nginx"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
DATABASE = "hundredten"  # the local role and database when DATABASE_URL is not set


def kept_secret(path: Path) -> str:
    """A random secret made on first use and read back afterwards."""
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50) + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def wait_listening(host: str, port: int, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def local_service(url: str, default_port: int, service: str) -> None:
    """Start the machine's PostgreSQL or Redis when the URL is local and nothing answers
    (Debian starts them on install, except where services may not start, as in containers)."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or default_port
    if host in LOOPBACK and not wait_listening(host, port, seconds=1):
        subprocess.run(["service", service, "start"], check=True)
        if not wait_listening(host, port):
            sys.exit(f"{service} did not start listening on {host}:{port}")


def local_database(run: Path) -> str:
    """DATABASE_URL for a role and database of our own on the machine's PostgreSQL, made
    through its postgres account (Debian's PostgreSQL takes a password on 127.0.0.1)."""
    password = kept_secret(run / "db-password")
    script = f"""
SELECT 'CREATE ROLE {DATABASE} LOGIN'
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{DATABASE}')\\gexec
ALTER ROLE {DATABASE} PASSWORD '{password}';
SELECT 'CREATE DATABASE {DATABASE} OWNER {DATABASE}'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '{DATABASE}')\\gexec
"""
    as_postgres = (
        ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else ["sudo", "-u", "postgres"]
    )
    subprocess.run(
        [*as_postgres, "psql", "-q", "-v", "ON_ERROR_STOP=1"],
        input=script,
        text=True,
        cwd="/",
        check=True,
    )
    return f"postgresql://{DATABASE}:{password}@127.0.0.1:5432/{DATABASE}"


def create_database(url: str) -> None:
    """Create DATABASE_URL's database when missing, as its own user."""
    import psycopg
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(urlsplit(url)._replace(path="/postgres").geturl(), autocommit=True) as db:
        if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def write_nginx_conf(
    run: Path, listen: str, daphne_ports: Sequence[int], static_root: Path
) -> Path:
    """deploy/nginx.conf.in, filled in, as run/nginx.conf."""
    user = ""
    if os.geteuid() == 0:
        # As root, nginx would run its workers as nobody, who may not read the static
        # files: they run as the user who started the cluster, as daphne does.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
    values = {
        "user": user,
        "run": str(run),
        "listen": listen,
        "static_root": str(static_root),
        "servers": "\n".join(f"        server 127.0.0.1:{port};" for port in daphne_ports),
    }
    (run / "tmp").mkdir(parents=True, exist_ok=True)
    conf = run / "nginx.conf"
    conf.write_text(re.sub(r"@(\w+)@", lambda m: values[m.group(1)], TEMPLATE.read_text()))
    return conf


def start_daphnes(
    run: Path, env: dict[str, str], ports: Sequence[int]
) -> list[subprocess.Popen[bytes]]:
    """One daphne per port on loopback (only nginx may reach them: they believe its
    X-Forwarded-For), in sessions of their own; returns once all of them listen."""
    procs = []
    for port in ports:
        command = [sys.executable, "-m", "daphne", "--proxy-headers", "-b", "127.0.0.1"]
        command += ["-p", str(port), "--access-log", str(run / f"daphne-{port}-access.log")]
        with (run / f"daphne-{port}.log").open("ab") as log:
            proc = subprocess.Popen(
                [*command, "hundredten.asgi:application"],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        (run / f"daphne-{port}.pid").write_text(f"{proc.pid}\n")
        procs.append(proc)
    for port, proc in zip(ports, procs, strict=True):
        if not wait_listening("127.0.0.1", port) or proc.poll() is not None:
            stop(run)
            for started in procs:
                started.wait(5)
            log_tail = (run / f"daphne-{port}.log").read_text()[-3000:]
            raise RuntimeError(f"daphne on port {port} did not start:\n{log_tail}")
    return procs


def start_nginx(run: Path) -> None:
    """nginx with run/nginx.conf, as a daemon whose master writes run/nginx.pid."""
    if not Path(NGINX).exists():
        raise RuntimeError(f"{NGINX} is missing: `make proxy-deps` installs Debian's nginx")
    command = [
        NGINX,
        "-p",
        f"{run}/",
        "-c",
        str(run / "nginx.conf"),
        "-e",
        str(run / "nginx-error.log"),
    ]
    subprocess.run(command, stdin=subprocess.DEVNULL, check=True)
    deadline = time.monotonic() + 10
    while not (run / "nginx.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def ours(pid: int, run: Path) -> bool:
    """Whether pid is a running process started from this run folder (its command line
    names the folder), and not a zombie: a stale pid file never stops another process."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return str(run) in command and state != "Z"


def stop(run: Path) -> list[str]:
    """Stop each daphne (and any worker it started: its whole session), then nginx, from
    the pid files in run; returns what was stopped. The daphnes first: each answers the
    requests it has taken before it exits (hundredten/drain.py), and nginx, still running,
    passes the answers on (stopped first, it dropped them) and sends new requests to the
    daphnes not yet stopped."""
    files = sorted(run.glob("*.pid"), key=lambda path: (path.name == "nginx.pid", path.name))
    stopped = []
    for pid_file in files:
        pid = int(pid_file.read_text())
        if ours(pid, run):
            if pid_file.name == "nginx.pid":
                os.kill(pid, signal.SIGTERM)
            else:
                os.killpg(pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            while ours(pid, run) and time.monotonic() < deadline:
                time.sleep(0.1)
            if ours(pid, run):  # daphne can hang on SIGTERM while a consumer disconnects
                os.killpg(pid, signal.SIGKILL)
            stopped.append(f"{pid_file.stem} (pid {pid})")
        pid_file.unlink(missing_ok=True)
    return stopped


def running(run: Path) -> bool:
    return any(ours(int(pid_file.read_text()), run) for pid_file in run.glob("*.pid"))


def start(run: Path, processes: int, host: str, port: int) -> None:
    run.mkdir(mode=0o700, exist_ok=True)
    if running(run):
        sys.exit(f"A cluster from {run} is running: `make stop-cluster` first.")
    env = {**os.environ, "DEBUG": "0", "BEHIND_PROXY": "1"}
    env.setdefault("HTTPS", "0")  # plain HTTP on loopback; behind TLS, set HTTPS=1
    env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
    env.setdefault("SITE_URL", f"http://{host}:{port}")
    env["SECRET_KEY"] = env.get("SECRET_KEY") or kept_secret(run / "secret-key")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    local_service(env["REDIS_URL"], 6379, "redis-server")
    local_service(env.get("DATABASE_URL") or "postgresql://127.0.0.1", 5432, "postgresql")
    if env.get("DATABASE_URL"):
        create_database(env["DATABASE_URL"])
    else:
        env["DATABASE_URL"] = local_database(run)
    for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True)
    static_root = Path(env.get("STATIC_ROOT") or ROOT / "staticfiles")
    ports = [port + n for n in range(1, processes + 1)]
    write_nginx_conf(run, f"{host}:{port}", ports, static_root)
    try:
        start_daphnes(run, env, ports)
        start_nginx(run)
    except BaseException:
        stop(run)
        raise
    daphnes = ", ".join(str(port) for port in ports)
    print(f"Serving http://{host}:{port}/ : nginx in front of daphne on ports {daphnes}.")
    print(f"Logs and pid files in {run}/; stop it all with `make stop-cluster`.")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Start or stop nginx + daphne processes.")
    parser.add_argument("command", choices=["start", "stop"])
    parser.add_argument("--processes", type=int, default=2, help="daphne processes")
    parser.add_argument("--host", default="127.0.0.1", help="where nginx listens")
    parser.add_argument(
        "--port", type=int, default=8000, help="nginx's port; daphne: the next ones"
    )
    parser.add_argument("--run-dir", type=Path, default=RUN_DIR)
    args = parser.parse_args(argv)
    run = args.run_dir.resolve()
    if args.command == "start":
        start(run, args.processes, args.host, args.port)
    else:
        stopped = stop(run) if run.exists() else []
        print(
            "Stopped " + ", ".join(stopped) + "." if stopped else f"Nothing from {run} was running."
        )


if __name__ == "__main__":
    main()
