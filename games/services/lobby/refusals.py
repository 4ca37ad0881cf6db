"""The refusals a lobby service raises: a message shown to the player as is, and the HTTP
status the views answer with (400, 403, 409, 410 or 404; 429 for too many letters)."""

from __future__ import annotations


class LobbyRefused(Exception):
    """A lobby request that is refused; `message` is shown to the player as is."""

    status = 409

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class BadRequest(LobbyRefused):
    """The request names something that does not exist (a user, a seat, a membership)."""

    status = 400


class NotAllowed(LobbyRefused):
    """The user may see the game but not do this (web policy: organizer only, ...)."""

    status = 403


class Conflict(LobbyRefused):
    """The game's current state refuses it (started, full, already invited, ...)."""

    status = 409


class LinkUnusable(LobbyRefused):
    """An invite link that was used, revoked or has expired (410), or never existed (404)."""

    status = 410
