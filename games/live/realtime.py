"""Group names and broadcast helpers. Events carry ids (and a game's latest moves, for the
other processes' copies of its state), never a table's HTML: each consumer renders for its
own user, so a card reaches a page only through that user's view (a chat line, which
carries no card, is drawn once: `talk_said`).

Call these from `transaction.on_commit` so nobody is told about a change that rolled back.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from accounts.sessions import session_digest

if TYPE_CHECKING:
    from accounts.models import User
    from games.signals import TableChange

log = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


# Every socket opened from the lobby page, so a change to the public games list reaches
# people who are not members of the game.
LOBBY_GROUP = "lobby"


def friend_group(user_id: int) -> str:
    """The lobby sockets of `user_id`'s friends (each joins its friends' groups when it
    opens), told when `user_id` comes online: no query on the request that comes online."""
    return f"friends-of-{user_id}"


# The event loop of this process's websockets (daphne's), noted by the consumers when a
# socket connects and by the HTTP handler for each request. Sends from other threads (views,
# the deadline sweep) are handed to it without waiting: the request does not wait for the channel
# layer, and no thread starts an event loop of its own (which the in-memory layer cannot be
# woken from, and which would open a Redis connection per send).
#
# Once that loop has stopped (SIGTERM: the reactor stops it, then Python joins the request
# threads), a push is dropped: scheduled on it, it would never run, and
# `async_to_sync` from a request thread would hand it to that same stopped loop and wait for
# ever, so the move's request never ended and daphne never exited (tests/test_shutdown.py).
# Dropping is safe: every (re)connect to the next server gets the current table.
_loop: asyncio.AbstractEventLoop | None = None


def remember_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _loop
    _loop = loop


def _log_failure(group: str) -> Callable[[concurrent.futures.Future[None]], None]:
    def check(future: concurrent.futures.Future[None]) -> None:
        if not future.cancelled() and future.exception() is not None:
            log.error("push to %s failed", group, exc_info=future.exception())

    return check


Send = tuple[str, dict[str, Any]]  # a group and the event for it


_held = threading.local()  # the pushes `together` holds in this thread


@contextmanager
def together() -> Iterator[None]:
    """The pushes sent inside go at the end, in order, in one hop to the loop (a move's: the
    game's pages and each player's lobby)."""
    if getattr(_held, "sends", None) is not None:  # inside another: that one sends them
        yield
        return
    _held.sends = []
    try:
        yield
    finally:
        sends, _held.sends = _held.sends, None
        _send_all(sends)


def _send(group: str, event: dict[str, Any]) -> None:
    held = getattr(_held, "sends", None)
    if held is not None:
        held.append((group, event))
    else:
        _send_all([(group, event)])


def _send_all(sends: Sequence[Send]) -> None:
    layer = get_channel_layer()
    if layer is None or not sends:  # no channel layer configured: nothing to push to
        return
    groups = ", ".join(group for group, _ in sends)

    async def send_each() -> None:
        for group, event in sends:
            try:
                await layer.group_send(group, event)
            except Exception:  # a push is best effort: every (re)connect heals with a fresh render
                log.exception("push to %s failed", group)

    loop = _loop
    if loop is not None and not loop.is_closed():
        if not loop.is_running():
            log.info("push to %s dropped: the event loop has stopped", groups)
            return
        coroutine = send_each()
        try:
            future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        except RuntimeError:  # closed since the check above
            coroutine.close()
            log.info("push to %s dropped: the event loop is closed", groups)
            return
        future.add_done_callback(_log_failure(groups))
        return
    # No server loop in this process (a script, a test), or one that is closed (asgiref then
    # runs the send on a loop of its own): send and wait. Both this and the hang told at `_loop`
    # are how asgiref 3.13.0's AsyncToSync.__call__ picks its loop (tests/fences/
    # fails when an upgrade changes it).
    try:
        async_to_sync(send_each)()
    except Exception:
        log.exception("push to %s failed", groups)


def game_changed(game_id: int, version: int, change: dict[str, Any] | None = None) -> None:
    """Sent by services after any change to a game (lobby or move), with the game's version
    after it. Received by the table and waiting-room consumers of that game, which
    re-render for their own user. `change`: the moves that made this version, when moves
    alone did (`services.change.change_of`), so that a process which did not make them
    advances its table without reading the database; they are the moves themselves, with
    the cards of every seat, so no consumer ever sends them on: each renders its own
    user's view."""
    event: dict[str, Any] = {"type": "game.changed", "game_id": game_id, "version": version}
    if change is not None:
        event["change"] = change
    _send(game_group(game_id), event)


def lobby_changed(
    user_ids: Iterable[int],
    *,
    banner_for: Iterable[int] | None = None,
    turn_users: Iterable[int] = (),
    game_id: int | None = None,
) -> None:
    """Sent by services when a user's lobby lists change (invitations, joins, starts,
    turns). Received by each user's personal consumer, which re-renders the lobby lists
    (on the lobby page) and, for the users in `banner_for` (default: all), the turn banner.
    `turn_users` are the users for whom it has just become their turn in `game_id` (several
    at once in a simultaneous phase): their banner says so on every page (title, favicon,
    chime, notification), in the same one event and frame."""
    redraw = None if banner_for is None else set(banner_for)
    fresh = set(turn_users) if game_id is not None else set()
    with together():
        for user_id in set(user_ids) | fresh:
            event: dict[str, Any] = {
                "type": "lobby.changed",
                "banner": redraw is None or user_id in redraw,
            }
            if user_id in fresh:
                event.update(banner=True, turn_game=game_id)
            _send(user_group(user_id), event)


def invitation_received(user_id: int, invitation_id: int) -> None:
    """Sent by services when `user_id` is invited. Received by that user's personal
    consumer, which shows a notice with accept / decline."""
    _send(user_group(user_id), {"type": "invitation.received", "invitation_id": invitation_id})


def game_started(game_id: int) -> None:
    """Sent by services when the organizer starts the game. Received by the waiting-room
    consumers, which send their page to the table."""
    _send(game_group(game_id), {"type": "game.started", "game_id": game_id})


def presence_changed(game_id: int) -> None:
    """Sent by the game consumers when a user's first socket on a game opens or their last
    one closes. Received by the table and waiting-room consumers, which re-render (the seats
    show who is connected)."""
    _send(game_group(game_id), {"type": "presence.changed", "game_id": game_id})


def on_table_committed(sender: Any, *, change: TableChange, **_: Any) -> None:
    """A change at the table committed (`games.signals.table_committed`): every page of the
    game follows it, and the lobbies whose lists or banners it changes."""
    game = change.game
    with together():
        game_changed(game.pk, game.version, change=change.moves)
        if change.ended or change.turn_changed or change.fresh:
            lobby_changed(
                change.member_ids,
                banner_for=change.banner_for,
                turn_users=change.fresh,
                game_id=game.pk,
            )
        if change.ended and game.public:  # everyone's "Watch a game" list may change
            public_games_changed()


def public_games_changed() -> None:
    """Sent by services when the list of open public games changes (created, filled,
    started, gone). Received by every user consumer open on the lobby page, which re-renders
    the lobby lists for its own user."""
    _send(LOBBY_GROUP, {"type": "lobby.changed"})


def came_online(user_id: int) -> None:
    """`user_id` has just come online: their friends' lobbies redraw the friends panel."""
    _send(friend_group(user_id), {"type": "friend.online"})


def sessions_group(user_id: int) -> str:
    """Every socket of a user, whatever its page (a table's or a waiting room's socket is
    not in ``user-<id>``)."""
    return f"sessions-{user_id}"


def signed_out(user_id: int, session_key: str) -> None:
    """Sent when a user signs out (`on_signed_out`). Received by every socket of that user;
    those opened with the session that ended close (the others are other browsers')."""
    event = {"type": "session.ended", "session": session_digest(session_key)}
    _send(sessions_group(user_id), event)


def sessions_changed(user_id: int) -> None:
    """Sent when a user's password changes or is reset (`on_password_changed`): the
    sessions signed in with the old one have ended (the one that changed it, if any, goes
    on under a new key). Received by every socket of that user, which checks its session
    at once and closes if it no longer signs the user in."""
    _send(sessions_group(user_id), {"type": "sessions.changed"})


def on_signed_out(
    sender: Any, request: Any = None, user: User | None = None, **kwargs: Any
) -> None:
    """Receiver of Django's `user_logged_out` (allauth's sign-out and the admin's send it
    just before they flush the session)."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and user.pk is not None and session_key:
        signed_out(user.pk, session_key)


def on_password_changed(
    sender: Any, request: Any = None, user: User | None = None, **kwargs: Any
) -> None:
    """Receiver of allauth's `password_changed`, `password_set` and `password_reset` (sent
    once the new password is saved and the changing session's key rotated)."""
    if user is not None and user.pk is not None:
        sessions_changed(user.pk)


def talk_said(game_id: int, message_id: int, drawn: dict[str, Any] | None = None) -> None:
    """Sent by games/talk/service.py when somebody wrote or reacted at a game. Received by
    the table and waiting-room consumers of that game, which send the line (and a
    reaction's bubble) to their user if that user may read it (games/talk/rules.py).
    `drawn`: the line drawn once, with what each consumer needs to decide without a query
    (games/talk/presenter.py `drawn`); the one event that carries HTML, since a chat line
    shows every reader the same words (only its sender's copy differs), and no consumer
    sends it to a user who may not read it."""
    event: dict[str, Any] = {"type": "talk.said", "game_id": game_id, "message_id": message_id}
    if drawn is not None:
        event["drawn"] = drawn
    _send(game_group(game_id), event)


def talk_changed(game_id: int) -> None:
    """Sent by games/talk/service.py when the organizer set the game's talk (on, reactions
    only, off). Received by the table and waiting-room consumers, which redraw the chat
    panel's composer (rule line, reaction buttons, message box) for their user."""
    _send(game_group(game_id), {"type": "talk.changed", "game_id": game_id})
