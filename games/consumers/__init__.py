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
cross the channel layer, and in that socket's language, decided at connect
(docs/languages.md). Every (re)connect sends the current render at once, so a missed
push heals itself. Renders are coalesced: events that arrive while a render is running
cause one more render, not one each, and a frame identical to the last one is not sent.
A socket the user may not open is closed before it is accepted (4401 signed out,
4403 no access). A client sends nothing but the table's `{"skip": key}` (skip ahead
through a resolution played out step by step, games/steps.py); anything else is ignored.

Modules: `live` (what every socket shares), `tables` (table and waiting room), `user`
(banner, invitations, lobby), `pool` (the render threads and the stand-in request).

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

from games.consumers.game import GameConsumer
from games.consumers.live import (
    CLOSE_FORBIDDEN,
    CLOSE_SESSION_CHANGED,
    CLOSE_SIGNED_OUT,
    SESSION_RECHECK_SECONDS,
    LiveConsumer,
)
from games.consumers.pool import RENDER_POOL, Frames, in_pool, render_for, render_request
from games.consumers.tables import RoomConsumer, TableConsumer
from games.consumers.user import UserConsumer, games_awaiting, turn_banner_html

__all__ = [
    "CLOSE_FORBIDDEN",
    "CLOSE_SESSION_CHANGED",
    "CLOSE_SIGNED_OUT",
    "RENDER_POOL",
    "SESSION_RECHECK_SECONDS",
    "Frames",
    "GameConsumer",
    "LiveConsumer",
    "RoomConsumer",
    "TableConsumer",
    "UserConsumer",
    "games_awaiting",
    "in_pool",
    "render_for",
    "render_request",
    "turn_banner_html",
]
