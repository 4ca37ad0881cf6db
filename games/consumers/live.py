"""`LiveConsumer`: what every live page's socket shares (sign-in, groups, sessions, coalesced
rendering). See games/consumers/__init__.py."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
from collections.abc import Callable
from typing import Any, TypeVar

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.http import HttpRequest
from django.utils import translation
from django.utils.crypto import constant_time_compare

from accounts.languages import scope_language
from accounts.models import User
from accounts.sessions import session_digest, signed_in_user_pk
from games.consumers.pool import Frames, in_pool, render_request
from games.live import presence, realtime

log = logging.getLogger(__name__)

T = TypeVar("T")

CLOSE_SIGNED_OUT = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_SESSION_CHANGED = 4001  # the session ended or its key rotated: the page reconnects

# How long a socket trusts its last check of its session before the next render.
SESSION_RECHECK_SECONDS = 60.0

# The connection indicator (static/js/ping.js) sends {"ping": n} every 5 s and times the
# {"pong": n} that comes back. A socket answers at most one ping in this interval, so a
# page (or anybody with a socket) sending a flood of them costs one small frame a second.
PING_MIN_SECONDS = 1.0
PING_MAX = 2**53  # a JavaScript counter: a whole number below this


class LiveConsumer(AsyncWebsocketConsumer):
    """Shared behaviour: sign-in check, group membership, coalesced rendering, no input."""

    user: User

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
        self.last_pong = -math.inf  # event-loop time of the last ping answered
        # What this socket's frames are drawn in, decided at connect (`in_language`).
        self.language: str = settings.LANGUAGE_CODE

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

    async def connect(self) -> None:
        user = self.scope.get("user")
        # The scope holds channels' lazy proxy, which passes isinstance for the User it
        # wraps (an AnonymousUser fails it, as it fails is_authenticated).
        if not isinstance(user, User) or not user.is_authenticated:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.user = user
        # As a page of this browser would be: the profile's, the cookie's or the browser's.
        self.language = scope_language(self.scope, user)
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
        self.request.LANGUAGE_CODE = self.language
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
        """Moves arrive over HTTP. A client may send one small JSON object (a ping; the
        table: skip ahead); anything else, or anything malformed, is ignored."""
        if not text_data or len(text_data) > 200 or self.closing:
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        if not isinstance(message, dict):
            return
        if "ping" in message:
            await self.pong(message)
            return
        self.received(message)

    async def pong(self, message: dict[str, Any]) -> None:
        """Answer {"ping": n} (n a whole number, nothing else in it) with {"pong": n}, at
        most once every PING_MIN_SECONDS; other pings are ignored."""
        token = message["ping"]
        if len(message) != 1 or type(token) is not int or not 0 <= token < PING_MAX:
            return
        now = asyncio.get_running_loop().time()
        if now - self.last_pong < PING_MIN_SECONDS:
            return
        self.last_pong = now
        try:
            await self.send(text_data=json.dumps({"pong": token}))
        except Exception:  # the client went away meanwhile: its disconnect() cleans up
            self.closing = True

    def received(self, message: dict[str, Any]) -> None:
        """A JSON object the client sent (on the event loop): ignored unless overridden."""

    def rendered(self) -> None:
        """After a render's frames went out (on the event loop)."""

    def in_language(self, func: Callable[..., T]) -> Callable[..., T]:
        """`func` run with this socket's language active: every frame a socket draws is
        drawn through this (its renders, its chat lines), on the loop or in the pool."""
        language = self.language

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> T:
            with translation.override(language):
                return func(*args, **kwargs)

        return run

    # --- the session (events from games.live.realtime) ---------------------------------

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
            self.rendered()

    async def run_render(self, parts: set[str], pending: Any) -> Frames:
        """Render on the event loop when that needs nothing but memory (no hop to a thread
        and back: on one core that hop costs more than the render), else in the pool. A
        render that wants the database after all raises before it has sent anything, and
        runs again in the pool."""
        render = self.in_language(self.render)
        if self.renders_in_memory(parts, pending):
            try:
                return render(parts, pending)
            except presence.NotHeld:  # presence this process does not hold (a read expired)
                pass
            except SynchronousOnlyOperation:
                log.warning("an in-memory render of %s read the database", self.scope.get("path"))
        return await in_pool(render)(parts, pending)

    def renders_in_memory(self, parts: set[str], pending: Any) -> bool:
        """Whether `render(parts, pending)` reads only what this process holds in memory."""
        return False

    def fresh_text(self, text: str) -> list[str]:
        """[text] unless it is the frame this socket sent last (nothing changed for us)."""
        if text == self.last_sent:
            return []
        self.last_sent = text
        return [text]
