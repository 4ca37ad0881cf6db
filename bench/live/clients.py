"""The load: every game played by HTTP POSTs of its turns' moves, one think pause per turn,
and what the measured moves took (`Results`).

Every POST carries what its player's page shows: the table version and the decision key (the
hidden `turn` input), from the last table the page got (socket push, POST answer or page
load); a player whose page shows no move (a resolution played out step by step) waits for
it, as a person watches."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from bench.live.browser import Browser
from bench.live.servers import Servers
from bench.live.sockets import VERSION_RE, Sockets
from bench.live.tables import BenchGame, Turn

ERROR_RE = re.compile(rb'class="[^"]*table-error[^"]*"[^>]*>([^<]*)<')


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
    # With --chat: the chat messages POSTed meanwhile (not moves: in none of the lists
    # above), by answer status, and the chat frames the sockets got (bench/live/sockets.py).
    chat_statuses: dict[int, int] = field(default_factory=dict)
    chat_errors: list[str] = field(default_factory=list)
    chat_frames: int = 0
    chat_bytes: int = 0

    @property
    def chat_sent(self) -> int:
        return sum(self.chat_statuses.values())

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


async def chat(servers: Servers, g: BenchGame, every: float, phase: float,
               results: Results) -> None:  # fmt: skip
    """The table's talk beside its moves (`--chat`): one message every `every` seconds,
    the first after `phase` seconds (each table its own, so they do not all fire at once),
    said by each player in turn, by the POST the chat form sends (htmx, with the player's
    session and CSRF). The player's second connection to daphne, as a browser opens one
    while the first is busy, so a message never waits behind a move. Runs until cancelled
    (when the table's measured moves are done)."""
    await asyncio.sleep(phase)
    started = time.perf_counter()
    for n in itertools.count():
        player = g.players[n % len(g.players)]
        browser = g.talkers.setdefault(
            player.seat, Browser(servers.port_for(g.game_id, player.seat))
        )
        status, data = await browser.post(
            f"/games/{g.game_id}/talk/say/", player.session,
            {"text": f"message {n} from seat {player.seat}"}, "",
        )  # fmt: skip
        results.chat_statuses[status] = results.chat_statuses.get(status, 0) + 1
        if status != 200 and len(results.chat_errors) < 10:
            said = data.split(b"\r\n\r\n", 1)[-1][:200].decode(errors="replace")
            results.chat_errors.append(f"game {g.game_id}: chat POST {status}: {said!r}")
        # On a fixed schedule (not `every` after each answer), so a slow answer does not
        # thin the traffic out.
        await asyncio.sleep(max(0.0, started + (n + 1) * every - time.perf_counter()))


async def load_pages(servers: Servers, g: BenchGame, sockets: Sockets, results: Results) -> None:
    """Every player loads the table page (a warm-up that makes no move)."""
    for player in g.players:
        browser = g.browsers.setdefault(
            player.seat, Browser(servers.port_for(g.game_id, player.seat))
        )
        status, data = await browser.get(f"/games/{g.game_id}/table/", player.session)
        if status != 200 or sockets.saw_page((g.game_id, player.seat), data) is None:
            results.errors.append(f"game {g.game_id}: page GET {status}")
