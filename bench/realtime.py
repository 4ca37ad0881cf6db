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
the naive bot's, chosen on a pure engine mirror of each game, each POSTed with what its
player's page shows (bench/live/clients.py). A turn where several seats must act (Hearts'
pass) is played as that many POSTs sent at once, each from a page of the same version: all
but the first to land are then older than the table and must pass the server's decision-key
check (a 409 there is a bug, and is reported). Each such move's push is measured at every
other player's table socket (the first table at the version the move's answer shows, or a
later one: redraws coalesce); the move that completes the turn (Hearts: the exchange) is
counted apart. A game whose first turn is simultaneous warms up with a page load per player
instead of a move, so that turn is measured. A turn is one think pause: `--moves` counts
turns.

This script makes the steps and reports them; the parts are in bench/live/: the daphnes
(servers.py), the games (tables.py), the players' connections, sockets and moves
(browser.py, sockets.py, clients.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.live import sockets as sockets_module  # noqa: E402
from bench.live.clients import Results, chat, drive, load_pages  # noqa: E402
from bench.live.servers import (  # noqa: E402
    Servers,
    prepare,
    server_environment,
    start_daphne,
    tail,
)
from bench.live.sockets import Sockets, connect_all  # noqa: E402
from bench.live.tables import (  # noqa: E402
    PLAYERS,
    BenchGame,
    bot_moves,
    make_games,
    start_bot_tables,
)

PUSH_LIMIT_MS = 250.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def step(
    servers: Servers, games: list[BenchGame], think: float, moves: int, seed: int,
    chat_every: float = 0.0,
) -> Results:  # fmt: skip
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
    sockets.chat_frames = sockets.chat_bytes = 0
    began = time.perf_counter()
    talk = [  # --chat: each table's talk beside its moves, the tables' phases spread evenly
        asyncio.create_task(
            chat(servers, g, chat_every, (n + 0.5) / len(games) * chat_every, results)
        )  # fmt: skip
        for n, g in enumerate(games)
        if chat_every > 0
    ]
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
    for task in talk:
        task.cancel()
    await asyncio.gather(*talk, return_exceptions=True)
    results.chat_frames, results.chat_bytes = sockets.chat_frames, sockets.chat_bytes
    for ws in sockets.open:
        await ws.close()
    for g in games:
        for browser in [*g.browsers.values(), *g.talkers.values()]:
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
        # Daphne CPU-seconds over player-seconds, each game at its own pace: what a seat
        # costs whatever the game, so tables of different sizes compare (issue 37).
        + f"\n    per player-second: {r.busy * 1000 / (games * seats):.3f} ms"
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
        sent = r.counts.get("ws bytes sent", 0)
        each = sent / len(r.post_ms) / seats
        text += f"\n    per player per move: {each:.0f} bytes sent (to each seat of its table)"
    if r.chat_sent:
        sent = r.chat_sent
        text += (
            f"\n    chat: {sent} messages sent ({sent / max(1, len(r.post_ms)):.2f} per move; "
            f"answers {dict(sorted(r.chat_statuses.items()))}), {r.chat_frames} chat frames "
            f"received ({r.chat_frames / sent:.2f} per message), {r.chat_bytes} bytes "
            f"({r.chat_bytes / sent:.0f} per message)"
        )
        text += "".join(f"\n    {error}" for error in r.chat_errors[:5])
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
        "--chat", type=float, default=0.0, metavar="SECONDS", help="table talk beside the "
        "moves: each table sends a chat message every SECONDS (its players in turn, each "
        "table at its own phase), by the chat form's POST; not counted as moves, but their "
        "daphne CPU lands in the CPU per move",
    )  # fmt: skip
    parser.add_argument(
        "--processes", type=int, default=1, help="daphne processes (more than one: set "
        "DATABASE_URL and REDIS_URL, so they share the database and the channel layer)",
    )  # fmt: skip
    parser.add_argument(
        "--no-ping", action="store_true", help="no connection indicator's pings (one every "
        "5 s from each table page): the load a tree before it (22b12f4) was measured with",
    )  # fmt: skip
    args = parser.parse_args()
    if args.no_ping:
        sockets_module.PING_SECONDS = 0.0
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
    # Table talk's rate limit (per person) must never throttle --chat's traffic; the same
    # in every run, so runs with and without chat differ in the chat alone.
    env["TALK_LIMIT"] = "1000/10s/user"
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
          f"{f'a chat message per table every {args.chat} s; ' if args.chat else ''}"
          f"load average {os.getloadavg()[0]:.2f}", flush=True)  # fmt: skip
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    made = 0
    bot_tables: list[int] = []
    if args.bot_tables:
        bot_tables = start_bot_tables(args.bot_tables, args.game, args.bot_level, args.seats)
        time.sleep(3)  # the daphnes' sweeps find their first bot moves due
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
            r = asyncio.run(step(servers, fresh(100), args.think, args.moves, 1, args.chat))
            print(line("100 games", 100, r, args.seats), flush=True)
            r = asyncio.run(step(servers, fresh(125), args.think, args.moves, 2, args.chat))
            print(line("1000 sockets", 125, r, args.seats), flush=True)
        best = 0
        for count in [int(n) for n in args.ramp.split(",") if n.strip()][:10]:
            before = bot_moves(bot_tables) if bot_tables else 0
            r = asyncio.run(
                step(servers, fresh(count), args.think, args.moves, 3 + count, args.chat)
            )
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
