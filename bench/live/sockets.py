"""The sockets a browser on the table page opens (per player: the table socket and the
per-user socket), when each table reached each player, and what each player's page shows
(read from every table it gets: socket push, POST answer or page load)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from typing import Any

from bench.live.servers import Servers
from bench.live.tables import BenchGame

VERSION_RE = re.compile(rb'id="table"[^>]*data-version="(\d+)"')
# A patch of the seats' marks (games/consumers/marks.py): the version it brings the table to.
PATCH_RE = re.compile(rb'data-table-version="(\d+)"')
# A line of table talk (games/talk/presenter.py `pushed`): a fragment of its own.
CHAT_MARK = b'hx-swap-oob="beforeend:#chat-log"'
SIDE_RE = re.compile(rb'id="table-side"[^>]*data-side="([^"]*)"')
TURN_RE = re.compile(rb'name="turn" value="([^"]*)"')
# A game page's connection indicator (static/js/ping.js) pings its table socket this often;
# the server answers each with a small {"pong": n} frame, which the reader passes over.
# bench/realtime.py --no-ping sets it to 0 (no pings), the load of a tree before it.
PING_SECONDS = 5.0


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
        # Chat lines received, on every socket (table and user), and their bytes (--chat).
        self.chat_frames = 0
        self.chat_bytes = 0

    async def pinger(self, ws: Any) -> None:
        """A page's connection indicator: {"ping": n} every PING_SECONDS, from a random
        moment (pages open at different times)."""
        try:
            await asyncio.sleep(random.uniform(0, PING_SECONDS))
            n = 0
            while True:
                n += 1
                await ws.send(json.dumps({"ping": n}))
                await asyncio.sleep(PING_SECONDS)
        except Exception:  # closed at the end of a step (or cancelled)
            return

    async def reader(self, ws: Any, key: tuple[int, int] | None) -> None:
        try:
            async for frame in ws:
                now = time.perf_counter()
                data = frame.encode() if isinstance(frame, str) else frame
                if CHAT_MARK in data:
                    self.chat_frames += 1
                    self.chat_bytes += len(data)
                    continue
                if key is None:
                    continue
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
        if key is not None and PING_SECONDS:  # the table page's socket carries the pings
            sockets.readers.append(asyncio.create_task(sockets.pinger(ws)))

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
