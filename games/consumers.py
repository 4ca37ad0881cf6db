"""Websocket consumers: push only; moves arrive over HTTP.

Routes (games/routing.py), all opened by templates/base.html for a signed-in user:

- ``/ws/user/`` (``?page=lobby`` on the lobby): `UserConsumer`, group ``user-<id>`` (and
  ``lobby`` on the lobby page). Sends the turn banner (#turn-banner), invitation notices
  (appended to #notices) and, on the lobby, the lobby lists (#lobby-lists).
- ``/ws/games/<id>/``: `TableConsumer`, group ``game-<id>``. Sends games/table.html#table
  (with #table-side when that changed), rendered for its own user.
- ``/ws/games/<id>/room/``: `RoomConsumer`, group ``game-<id>``. Sends
  games/waiting_room.html#room; once the game has started, ``{"redirect": <table url>}``.

Events carry ids only; each consumer renders for ``scope["user"]``, so hidden cards never
cross the channel layer. Every (re)connect sends the current render at once, so a missed
push heals itself. Renders are coalesced: events that arrive while a render is running
cause one more render, not one each, and a frame identical to the last one is not sent.
A socket the user may not open is closed before it is accepted (4401 signed out,
4403 no access); anything a client sends is ignored.

A socket lives no longer than its session. Every socket of a user is also in
``sessions-<id>``: a sign-out closes the sockets of that session (4401), a new password
makes each check its session at once. A session may also end unannounced (it expires, an
admin deletes it or deactivates the user), so before a render a socket whose last check
is over SESSION_RECHECK_SECONDS old checks again, and closes (4001) if its session no
longer signs the user in. Checking before renders only is enough (a socket that sends
nothing shows nothing) and the cheapest: an idle socket costs nothing, a busy one a
session read and a user query a minute, off the event loop. A check before every render
would add both to every redraw (a move's redraw otherwise reads nothing); a timer would
wake idle sockets too. 4001 is no refusal: a password change rotates the changing
session's key, so static/js/realtime.js reconnects with the browser's cookie, and a
signed-out browser is refused then (4401).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import logging
import math
import queue
import re
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import InterfaceError, OperationalError, connection, connections
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django_htmx.middleware import HtmxDetails

from accounts.sessions import session_digest, signed_in_user_pk
from games import bots, presence, realtime
from games.committed import game_identity
from games.context import known_game, table_basis, table_context
from games.models import Game, Invitation, Membership
from games.views.lobby import lobby_context, room_context
from hundredten import csrf
from hundredten.dispatch import ReadersKeptConsumer

log = logging.getLogger(__name__)
T = TypeVar("T")

CLOSE_SIGNED_OUT = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_SESSION_CHANGED = 4001  # the session ended or its key rotated: the page reconnects

# How long a socket trusts its last check of its session before the next render.
SESSION_RECHECK_SECONDS = 60.0


class RenderPool(concurrent.futures.ThreadPoolExecutor):
    """A few daemon threads for renders, each keeping its own database connection.

    Renders run here, not on asgiref's single thread-sensitive thread: that thread also
    runs every view, so rendering there would make each event wait for other people's
    requests (and for the previous render, defeating coalescing). Two threads: with the
    GIL more only slow each other (and the views) down; two still overlap a render that
    waits on PostgreSQL. The threads keep their connections between renders: opening and
    closing one per render cost as much as the render itself (measured with
    bench/realtime.py). `close_connections()` closes them (tests; before dropping a
    database).
    """

    def __init__(self, workers: int) -> None:
        # A ThreadPoolExecutor by type only (asgiref wants one); its own threads never start.
        super().__init__(max_workers=1)
        self.workers = workers
        self._jobs: queue.SimpleQueue[tuple[concurrent.futures.Future[Any], Callable[[], Any]]]
        self._jobs = queue.SimpleQueue()
        self._render_threads: list[threading.Thread] = []
        self._start_lock = threading.Lock()

    def submit(
        self, fn: Callable[..., T], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[T]:
        if len(self._render_threads) < self.workers:
            with self._start_lock:
                while len(self._render_threads) < self.workers:
                    name = f"ws-render-{len(self._render_threads)}"
                    thread = threading.Thread(target=self._work, name=name, daemon=True)
                    thread.start()
                    self._render_threads.append(thread)
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._jobs.put((future, functools.partial(fn, *args, **kwargs)))
        return future

    def _work(self) -> None:
        while True:
            future, job = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except Exception as exc:  # handed to the awaiting coroutine
                future.set_exception(exc)

    def close_connections(self) -> None:
        """Close the database connections of every render thread (and wait for it)."""
        count = len(self._render_threads)
        if not count:
            return
        barrier = threading.Barrier(count)

        def close() -> None:
            try:
                connections.close_all()
            finally:
                barrier.wait(timeout=10)  # so each thread takes exactly one of these jobs

        concurrent.futures.wait([self.submit(close) for _ in range(count)], timeout=15)


RENDER_POOL = RenderPool(workers=2)


def _kept_connection(func: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> T:
        try:
            return func(*args, **kwargs)
        except (InterfaceError, OperationalError):
            # The kept connection broke (say the database restarted): once more, anew.
            connections.close_all()
            return func(*args, **kwargs)

    return run


def in_pool(func: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """`func` as an awaitable run on RENDER_POOL (every query there runs in autocommit,
    so a kept connection never reads an old snapshot)."""
    return sync_to_async(_kept_connection(func), thread_sensitive=False, executor=RENDER_POOL)


async def presence_call(func: Callable[..., T], *args: Any) -> T:
    """A presence call (games.presence): on the event loop when the counts live in this
    process's memory (a lookup there costs less than the hop to a thread), else in the pool
    (Redis). Every open table refreshes its count every 20 s, so this is frequent."""
    if presence.in_process():
        return func(*args)
    return await in_pool(func)(*args)


@dataclass
class Frames:
    """What one render sends: text frames, then optionally a close."""

    texts: list[str] = field(default_factory=list)
    close: bool = False


def redirect_frame(url: str) -> str:
    """An instruction, not HTML: static/js/realtime.js turns it into location.assign(url)."""
    return json.dumps({"redirect": url})


def render_request(scope: Mapping[str, Any], user: Any) -> HttpRequest:
    """A stand-in request so partials render as they do in views (csrf_token, user, request).

    The CSRF secret comes from the socket's own cookie, so a form in a pushed partial holds
    a token valid for this browser.
    """
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = str(scope.get("path", "/"))
    request.user = user
    cookies = dict(scope.get("cookies") or {})
    request.COOKIES = cookies
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    if host:
        request.META["HTTP_HOST"] = host
    secret = cookies.get(settings.CSRF_COOKIE_NAME)
    if secret and csrf.well_formed(secret):
        request.META["CSRF_COOKIE"] = secret
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    # One masked token per socket, not one per render, so identical tables are identical
    # frames (and are not sent twice).
    request.META["RENDER_CSRF_TOKEN"] = csrf.get_token(request)
    return request


def render_for(request: HttpRequest | None, template: str, context: dict[str, Any]) -> str:
    """render_to_string with the socket's stand-in request and its stable CSRF token."""
    if request is not None:
        context = {**context, "csrf_token": request.META["RENDER_CSRF_TOKEN"]}
    return render_to_string(template, context, request=request)


class AwaitingGame(NamedTuple):
    pk: int
    name: str


# Plain SQL: this runs for the two players whose turn moved, on every move, and building
# the same query with the ORM cost about twenty times as much as running it (0.56 ms
# against 0.03 ms on SQLite; bench/results/realtime.md).
_GAMES, _MEMBERSHIPS = Game._meta.db_table, Membership._meta.db_table
_AWAITING_SQL = (
    f"SELECT g.id, g.name FROM {_GAMES} g JOIN {_MEMBERSHIPS} m"
    " ON m.game_id = g.id AND m.must_act"
    " WHERE g.status = %s AND m.user_id = %s AND NOT m.automated ORDER BY g.id"
)


def games_awaiting(user: Any) -> list[AwaitingGame]:
    """Active games in which it is `user`'s own turn (seats the bot plays are not)."""
    with connection.cursor() as cursor:
        cursor.execute(_AWAITING_SQL, [Game.Status.ACTIVE.value, user.pk])
        return [AwaitingGame(*row) for row in cursor.fetchall()]


def turn_banner_html(user: Any, *, fresh: set[int] | None = None) -> str:
    """The #turn-banner fragment for `user`: empty (hidden) when it is nobody's turn of
    theirs. `fresh` holds game ids whose turn just started: only then does the page chime
    or notify (a reconnect redraws the banner silently)."""
    awaiting = games_awaiting(user)
    is_fresh = bool(fresh and any(game.pk in fresh for game in awaiting))
    return render_to_string(
        "games/_notices.html#turn_banner", {"awaiting": awaiting, "fresh": is_fresh}
    )


DOT_RE = re.compile(r'id="presence-(\d+)" class="presence-dot( is-connected)?"')


def dots_in(html: str) -> dict[int, bool]:
    """Seat -> lit, for the presence dots in a rendered table."""
    return {int(m.group(1)): bool(m.group(2)) for m in DOT_RE.finditer(html)}


def _dot_tag(match: re.Match[str], now: dict[int, bool]) -> str:
    seat = int(match.group(1))
    return f'id="presence-{seat}" class="presence-dot{" is-connected" if now[seat] else ""}"'


class LiveConsumer(ReadersKeptConsumer, AsyncWebsocketConsumer):
    """Shared behaviour: sign-in check, group membership, coalesced rendering, no input."""

    user: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.joined: list[str] = []
        self.dirty: set[str] = set()
        self.render_task: asyncio.Task[None] | None = None
        self.last_sent: str | None = None
        self.closing = False
        self.request: HttpRequest | None = None
        self.session_key: str | None = None
        self.session_checked = 0.0  # event-loop time of the last check of the session

    # --- to override -------------------------------------------------------------------

    async def authorize(self) -> bool:
        return True

    def group_names(self) -> list[str]:
        raise NotImplementedError

    def render(self, parts: set[str], pending: Any = None) -> Frames:
        raise NotImplementedError

    def needed(self, parts: set[str]) -> set[str]:
        """The parts a render must draw, of those asked for: none, and no render runs.
        Decided on the event loop between this socket's renders."""
        return parts

    def take_pending(self) -> Any:
        """On the event loop, before a render: hand over what the events collected (the
        render runs on another thread while new events keep arriving)."""
        return None

    async def opened(self) -> None:
        """After accept: extra set-up (presence)."""

    async def closed(self) -> None:
        """After the socket closed: extra clean-up (presence)."""

    # --- lifecycle ---------------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its per-event `close_old_connections()`: that call
        runs on the one thread-sensitive thread every view also uses, so under load each
        push would queue behind other people's requests. These handlers never touch the
        database on the event loop; the render pool looks after its own connections."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.user = user
        # AuthMiddlewareStack has just checked the session (and its auth hash).
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        self.session_checked = asyncio.get_running_loop().time()
        realtime.remember_loop(asyncio.get_running_loop())
        try:
            allowed = await self.authorize()
        except Exception:  # never let a bad id or a database hiccup crash the server
            log.exception("websocket authorization failed for %s", self.scope.get("path"))
            allowed = False
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.request = render_request(self.scope, user)
        for group in [*self.group_names(), realtime.sessions_group(user.pk)]:
            await self.channel_layer.group_add(group, self.channel_name)
            self.joined.append(group)
        await self.accept()
        await self.opened()
        self.want("page")  # the current render at once, on every (re)connect

    async def disconnect(self, code: int) -> None:
        self.closing = True
        if self.render_task is not None:
            self.render_task.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.joined:
            await self.closed()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves arrive over HTTP; whatever a client sends here is ignored."""

    # --- the session (events from games.realtime) --------------------------------------

    async def session_ended(self, event: dict[str, Any]) -> None:
        """The user signed out somewhere: close if it was with this socket's session."""
        digest = event.get("session")
        if (
            self.session_key
            and isinstance(digest, str)
            and constant_time_compare(digest, session_digest(self.session_key))
        ):
            await self.end_session(CLOSE_SIGNED_OUT)

    async def sessions_changed(self, event: dict[str, Any]) -> None:
        """The user's password changed: check this socket's session now."""
        if self.closing:
            return
        self.session_checked = -math.inf
        await self.session_current()

    async def session_current(self) -> bool:
        """Whether this socket's session still signs its user in: trusted for
        SESSION_RECHECK_SECONDS after a check, then checked again. Closes the socket when
        it does not (or cannot be checked: the reconnect checks it afresh)."""
        loop = asyncio.get_running_loop()
        if loop.time() - self.session_checked < SESSION_RECHECK_SECONDS:
            return not self.closing
        try:
            current = await in_pool(signed_in_user_pk)(self.session_key) == self.user.pk
        except Exception:
            log.exception("could not check the session of a socket on %s", self.scope.get("path"))
            current = False
        if not current:
            await self.end_session(CLOSE_SESSION_CHANGED)
            return False
        self.session_checked = loop.time()
        return not self.closing

    async def end_session(self, code: int) -> None:
        """Close the socket: its session ended. A render under way sends nothing."""
        if self.closing:
            return
        self.closing = True
        await self.close(code=code)

    # --- coalesced rendering -----------------------------------------------------------

    def want(self, *parts: str) -> None:
        """Ask for a render of `parts`; bursts while a render runs fold into one more."""
        self.dirty.update(parts)
        if not self.closing and (self.render_task is None or self.render_task.done()):
            self.render_task = asyncio.get_running_loop().create_task(self.flush())

    async def flush(self) -> None:
        while self.dirty and not self.closing:
            parts, self.dirty = self.needed(self.dirty), set()
            if not parts:
                continue
            if not await self.session_current():
                return
            pending = self.take_pending()
            try:
                frames = await self.run_render(parts, pending)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("websocket render failed for %s", self.scope.get("path"))
                continue
            if self.closing:
                return
            try:
                for text in frames.texts:
                    await self.send(text_data=text)
            except Exception:  # the client went away during the render (autobahn's
                self.closing = True  # Disconnected): its disconnect() cleans up
                return
            if frames.close:
                self.closing = True
                await self.close(code=CLOSE_FORBIDDEN)
                return

    async def run_render(self, parts: set[str], pending: Any) -> Frames:
        """Render on the event loop when that needs nothing but memory (no hop to a thread
        and back: on one core that hop costs more than the render), else in the pool. A
        render that wants the database after all raises before it has sent anything, and
        runs again in the pool."""
        if self.renders_in_memory(parts, pending):
            try:
                return self.render(parts, pending)
            except SynchronousOnlyOperation:
                log.warning("an in-memory render of %s read the database", self.scope.get("path"))
        return await in_pool(self.render)(parts, pending)

    def renders_in_memory(self, parts: set[str], pending: Any) -> bool:
        """Whether `render(parts, pending)` reads only what this process holds in memory."""
        return False

    def fresh_text(self, text: str) -> list[str]:
        """[text] unless it is the frame this socket sent last (nothing changed for us)."""
        if text == self.last_sent:
            return []
        self.last_sent = text
        return [text]


class GameConsumer(LiveConsumer):
    """One game's page (table or waiting room), rendered for this socket's user."""

    game_id: int
    heartbeat_task: asyncio.Task[None] | None = None
    # What a presence change redraws: the whole page, or (the table) just the seats' dots.
    presence_part = "page"
    # Relations the page shows, loaded with the game (`_visible` runs before every render).
    game_related: tuple[str, ...] = ()
    # Whether a render may take the game row from the table basis this process keeps for
    # the announced version instead of reading it (a page that shows no related rows).
    reuses_known_rows = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.identity: tuple[int, str, float] | None = None  # once the row has been read
        self.rendered_version = 0  # the version of the row the last render used
        # Since the last render: the newest version game.changed announced, and whether
        # anything else asked for a render (then the row is read; so is the first one's).
        self.announced: int | None = None
        self.reread = True

    async def authorize(self) -> bool:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        return bool(await in_pool(self._visible)())

    def take_pending(self) -> Game | None:
        """The game row to render, if this process keeps the one of the version announced
        (`known_game`); None: read it. Never an older version than the last render's: two
        processes' announcements may arrive out of order."""
        known = None
        if (
            self.reuses_known_rows
            and not self.reread
            and self.announced is not None
            and self.identity is not None
        ):
            known = known_game(self.identity, max(self.announced, self.rendered_version))
        self.announced, self.reread = None, False
        return known

    def _visible(self, known: Game | None = None) -> Game | None:
        """The game if this user may see it (as games.access.visible_game_or_404 decides:
        public, or a member). It runs before every render. The members come from the table
        basis this process keeps for the game's version (every change of membership bumps
        the version). The row itself is one primary-key query, unless the row is `known`
        (`take_pending`): a move's redraws then read nothing."""
        game = known
        if game is None:
            game = self.read_game()
            if game is None:
                return None
            self.identity = game_identity(game)
        if game.public or table_basis(game).member_of(self.user) is not None:
            self.rendered_version = game.version
            return game
        return None

    def read_game(self) -> Game | None:
        return Game.objects.select_related(*self.game_related).filter(pk=self.game_id).first()

    def group_names(self) -> list[str]:
        return [realtime.game_group(self.game_id)]

    async def opened(self) -> None:
        first = await presence_call(presence.join, self.game_id, self.user.pk)
        if first:
            await self.channel_layer.group_send(
                realtime.game_group(self.game_id),
                {"type": "presence.changed", "game_id": self.game_id},
            )
        self.heartbeat_task = asyncio.get_running_loop().create_task(self.heartbeat())

    async def heartbeat(self) -> None:
        while not self.closing:
            await asyncio.sleep(presence.HEARTBEAT)
            with contextlib.suppress(Exception):  # the cache is best effort
                await presence_call(presence.touch, self.game_id, self.user.pk)

    async def closed(self) -> None:
        if self.heartbeat_task is not None:
            self.heartbeat_task.cancel()
        try:
            last = await presence_call(presence.leave, self.game_id, self.user.pk)
            if last:
                await self.channel_layer.group_send(
                    realtime.game_group(self.game_id),
                    {"type": "presence.changed", "game_id": self.game_id},
                )
        except Exception:
            log.exception("presence update failed for game %s", self.game_id)

    # --- events (from games.realtime) ----------------------------------------------------

    async def game_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if type(version) is int:
            self.announced = max(self.announced or 0, version)
        else:
            self.reread = True
        self.want("page")

    async def game_started(self, event: dict[str, Any]) -> None:
        self.reread = True
        self.want("page")

    async def presence_changed(self, event: dict[str, Any]) -> None:
        self.reread = True
        self.want(self.presence_part)

    # --- rendering (in a worker thread) ---------------------------------------------------

    def render(self, parts: set[str], pending: Any = None) -> Frames:
        game = self._visible(pending)
        if game is None:  # removed from a private game, or the game is gone
            return Frames([redirect_frame(reverse("lobby"))], close=True)
        elsewhere = self.elsewhere(game)
        if elsewhere:
            return Frames([redirect_frame(elsewhere)])
        if "page" not in parts:  # only presence changed
            dots = self.render_presence(game)
            return Frames([dots] if dots else [])
        return Frames(self.page_frames(game))

    def render_presence(self, game: Game) -> str:
        """The seats' presence dots (and how long the others have been away) alone, if this
        page shows them and any dot changed since the last frame (cheap: no replay)."""
        shown = dots_in(self.last_sent or "")
        if not shown:
            return ""
        seated = list(
            Membership.objects.filter(game=game, seat__isnull=False, user__isnull=False)
            .order_by("seat")
            .values_list("seat", "user_id")
        )
        here = presence.presence_of(game.pk, [uid for _, uid in seated])
        away = {seat: here.away.get(uid) for seat, uid in seated if seat is not None}
        now = {seat: uid in here.connected for seat, uid in seated if seat is not None}
        if all(shown.get(seat) == lit for seat, lit in now.items()):
            return ""
        dots = "".join(
            render_to_string(
                f"games/_presence.html#{part}",
                {"seat": seat, "connected": lit, "away": away[seat], "oob": True},
            )
            for seat, lit in now.items()
            for part in ("dot", "away")  # the dot, and "away 3 min" after the name
        )
        # What the page shows now: the last table with these dots.
        self.last_sent = DOT_RE.sub(
            lambda m: m.group(0) if int(m.group(1)) not in now else _dot_tag(m, now),
            self.last_sent or "",
        )
        return dots

    def elsewhere(self, game: Game) -> str:
        """The URL this page's user belongs on now, or "" to stay."""
        return ""

    def page_frames(self, game: Game) -> list[str]:
        """The page's frame, unless it is the one sent last."""
        return self.fresh_text(self.render_page(game))

    def render_page(self, game: Game) -> str:
        raise NotImplementedError


class TableConsumer(GameConsumer):
    """The table: #table for this user, plus the shared #table-side when it changed."""

    presence_part = "presence"
    reuses_known_rows = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_side = ""

    async def opened(self) -> None:
        await super().opened()
        # Bots resume after a server restart once somebody looks at the table.
        await in_pool(self._ensure_bots)()

    def _ensure_bots(self) -> None:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is not None:
            try:
                bots.ensure_running(game)
            except Exception:
                log.exception("could not resume the bots of game %s", self.game_id)

    def elsewhere(self, game: Game) -> str:
        if game.status == Game.Status.WAITING:
            return reverse("waiting-room", args=[game.pk])
        return ""

    def renders_in_memory(self, parts: set[str], pending: Any) -> bool:
        # A move's redraw: the row, members and state of the announced version are kept by
        # this process (`take_pending` found the row), and presence is in this process's cache.
        return parts == {"page"} and pending is not None and presence.in_process()

    def page_frames(self, game: Game) -> list[str]:
        # The turn banner is not part of this frame: the services send lobby.changed to the
        # members whose turn starts or ends, and the user socket redraws the banner then.
        context = table_context(game, self.user)
        frames = self.fresh_text(render_for(self.request, "games/table.html#table", context))
        side = context["side"]
        if side and side != self.last_side:  # one frame: both parts swap together
            self.last_side = side
            frames = ["".join(frames) + side]
        return frames


class RoomConsumer(GameConsumer):
    game_related = ("organizer",)

    def elsewhere(self, game: Game) -> str:
        if game.status != Game.Status.WAITING:
            return reverse("table", args=[game.pk])
        return ""

    def render_page(self, game: Game) -> str:
        return render_for(
            self.request, "games/waiting_room.html#room", room_context(game, self.user)
        )


class UserConsumer(LiveConsumer):
    """The per-user socket every signed-in page opens: turn banner, invitations, lobby."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_lobby = False
        self.fresh_games: set[int] = set()
        self.new_invitations: list[int] = []
        self.shown_invitations: set[int] = set()
        self.last_banner: str | None = None
        self.last_lists: str | None = None

    async def authorize(self) -> bool:
        query = parse_qs(bytes(self.scope.get("query_string", b"")).decode("latin-1"))
        self.on_lobby = query.get("page") == ["lobby"]
        return True

    def group_names(self) -> list[str]:
        groups = [realtime.user_group(self.user.pk)]
        if self.on_lobby:
            groups.append(realtime.LOBBY_GROUP)
        return groups

    # --- events (from games.realtime) ----------------------------------------------------

    async def invitation_received(self, event: dict[str, Any]) -> None:
        with contextlib.suppress(KeyError, TypeError, ValueError):
            self.new_invitations.append(int(event["invitation_id"]))
        self.want("notices")

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        # A move changes every member's lists ("Bob to play") but only the banners of the
        # players whose turn ended or began; `turn_game`: this user's turn just began there.
        if "turn_game" in event:
            with contextlib.suppress(TypeError, ValueError):
                self.fresh_games.add(int(event["turn_game"]))
        self.want("lists", "sweep", *(("banner",) if event.get("banner", True) else ()))

    # --- rendering (in a worker thread) ---------------------------------------------------

    def take_pending(self) -> tuple[set[int], list[int]]:
        fresh, self.fresh_games = self.fresh_games, set()
        new, self.new_invitations = self.new_invitations, []
        return fresh, new

    def needed(self, parts: set[str]) -> set[str]:
        # A move tells every member's socket; most have no lists or notices to redraw.
        if "page" in parts:
            parts = (parts - {"page"}) | {"banner", "lists"}
        if not self.on_lobby:
            parts = parts - {"lists"}
        if not self.shown_invitations:
            parts = parts - {"sweep"}
        return parts

    def render(self, parts: set[str], pending: Any = None) -> Frames:
        fresh, new = pending or (set(), [])
        out: list[str] = []
        if "banner" in parts:
            banner = turn_banner_html(self.user, fresh=fresh)
            if fresh or banner != self.last_banner:
                out.append(banner)
                self.last_banner = banner
        if "notices" in parts:
            out.extend(self.render_invitations(new))
        if "sweep" in parts:
            out.extend(self.sweep_invitations())
        if "lists" in parts:
            lists = render_for(self.request, "games/lobby.html#lists", lobby_context(self.user))
            if lists != self.last_lists:
                out.append(lists)
                self.last_lists = lists
        return Frames(["".join(out)] if out else [])

    def render_invitations(self, invitation_ids: list[int]) -> list[str]:
        pending = (
            Invitation.objects.filter(
                pk__in=[pk for pk in invitation_ids if pk not in self.shown_invitations],
                invitee=self.user,
                state=Invitation.State.PENDING,
            )
            .select_related("game", "inviter")
            .order_by("created_at")
        )
        fresh = [invitation for invitation in pending if not invitation.has_expired()]
        if not fresh:
            return []
        self.shown_invitations.update(invitation.pk for invitation in fresh)
        return [render_to_string("games/_notices.html#invitations", {"invitations": fresh})]

    def sweep_invitations(self) -> list[str]:
        """Take down notices of invitations that are no longer open (answered elsewhere,
        revoked, expired)."""
        still_open = set(
            Invitation.objects.filter(
                pk__in=self.shown_invitations, state=Invitation.State.PENDING
            ).values_list("pk", flat=True)
        )
        gone = sorted(self.shown_invitations - still_open)
        self.shown_invitations &= still_open
        return [
            render_to_string("games/_notices.html#invitation_gone", {"invitation_id": pk})
            for pk in gone
        ]
