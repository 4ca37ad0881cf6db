"""What a chat message costs daphne, against what any signed-in POST costs it.

    .tools/bin/uv run python bench/post_floor.py            # 3 alternated rounds
    .tools/bin/uv run python bench/post_floor.py --rounds 5 --requests 1500

Issue 40's target leaves a chat message a few milliseconds of daphne CPU (5% of a move's
CPU, over the messages per move of `bench/realtime.py --chat`), and the issue decides that
chat goes by an HTTP POST like every action. This measures, in one daphne (the embedded
default: SQLite on tmpfs, the in-memory channel layer) with every player's two sockets open
as a table page keeps them, the daphne CPU per request of:

- `healthz`: GET /healthz, no session (the cheapest request daphne answers: one query);
- `refused`: the chat form's htmx POST with nothing in it, to the player's own game (every
  middleware, the session, the user, CSRF, the game and membership read, then the small
  400 answer line): a signed-in POST that stores and pushes nothing;
- `message`: the chat form's POST to the player's own game (`games/<id>/talk/say/`), as
  `bench/realtime.py --chat` sends it: the whole message, its four pushes included.

Each round runs the three kinds one after another (in a rotating order), each as
`--requests` requests from `--clients` concurrent players, and reads daphne's CPU time
(/proc) before and after. Results: bench/results/talk.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.live.browser import Browser  # noqa: E402
from bench.live.servers import Servers, prepare, server_environment, start_daphne  # noqa: E402
from bench.live.sockets import Sockets, connect_all  # noqa: E402
from bench.live.tables import BenchGame, make_games  # noqa: E402

KINDS = ("healthz", "refused", "message")


async def run_kind(
    kind: str, servers: Servers, games: list[BenchGame], requests: int, clients: int
) -> tuple[float, dict[int, int]]:
    """Daphne CPU ms per request of `kind`, and the answers' statuses."""
    players = [(g, p) for g in games for p in g.players]
    statuses: dict[int, int] = {}
    queue = list(range(requests))
    browsers = {(g.game_id, p.seat): Browser(servers.ports[0]) for g, p in players}

    async def worker(offset: int) -> None:
        n = offset
        while queue:
            queue.pop()
            g, p = players[n % len(players)]
            n += clients
            browser = browsers[(g.game_id, p.seat)]
            if kind == "healthz":
                status, _ = await browser.get("/healthz", "")
            else:
                text = f"message {n}" if kind == "message" else ""
                status, _ = await browser.post(
                    f"/games/{g.game_id}/talk/say/", p.session, {"text": text}, ""
                )
            statuses[status] = statuses.get(status, 0) + 1

    user, system = servers.cpu_seconds()
    await asyncio.gather(*(worker(i) for i in range(clients)))
    await asyncio.sleep(0.5)  # the last pushes leave daphne
    user2, system2 = servers.cpu_seconds()
    for browser in browsers.values():
        browser.close()
    return (user2 + system2 - user - system) * 1000 / requests, statuses


async def measure(args: argparse.Namespace, servers: Servers, games: list[BenchGame]) -> None:
    sockets = Sockets()
    await connect_all(servers, games, sockets)
    await asyncio.sleep(2)  # the pages' first frames
    await run_kind("message", servers, games, 200, args.clients)  # warm-up
    await run_kind("refused", servers, games, 200, args.clients)
    results: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for r in range(args.rounds):
        order = KINDS[r % 3 :] + KINDS[: r % 3]
        line = []
        for kind in order:
            ms, statuses = await run_kind(kind, servers, games, args.requests, args.clients)
            results[kind].append(ms)
            line.append(f"{kind} {ms:.2f} ms {dict(sorted(statuses.items()))}")
        print(f"round {r + 1} ({time.strftime('%H:%M:%S')}, load {os.getloadavg()[0]:.2f}): "
              + "; ".join(line), flush=True)  # fmt: skip
    print("median daphne CPU per request: " + ", ".join(
        f"{kind} {statistics.median(values):.2f} ms" for kind, values in results.items()
    ))  # fmt: skip
    print(f"chat frames received by the sockets: {sockets.chat_frames}")
    for ws in sockets.open:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=1000, help="per kind and round")
    parser.add_argument("--clients", type=int, default=4, help="requests in flight")
    parser.add_argument("--tables", type=int, default=10, help="four-player tables")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    shm = Path("/dev/shm")
    base = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    workdir = Path(tempfile.mkdtemp(prefix="bench-post-floor-", dir=base))
    env = server_environment(workdir)
    env["TALK_LIMIT"] = "100000/10s/user"  # as bench/realtime.py --chat: never throttled
    os.environ.update(env)
    import django

    django.setup()
    prepare(env)
    proc, port = start_daphne(env, workdir / "daphne.log")
    servers = Servers([proc], [port], [workdir / "daphne.log"])
    print(
        f"daphne pid {proc.pid} on 127.0.0.1:{port}; {args.tables} Hundred and Ten tables, "
        f"4 players x 2 sockets each; {args.requests} requests per kind and round, "
        f"{args.clients} in flight; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    try:
        games = make_games(args.tables, 0, "hundred-and-ten")
        asyncio.run(measure(args, servers, games))
    finally:
        servers.stop()


if __name__ == "__main__":
    main()
