"""What the table service refuses, as exceptions the views turn into answers: `str(error)` is
shown to the player and `status` is the HTTP status."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

STALE_MESSAGE = gettext_lazy("The table changed; here is the current one.")


class TableError(Exception):
    """A refused request at the table; `str(error)` is shown to the player and `status` is
    the HTTP status of the answer."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleTable(TableError):
    """The player acted on an old view of the table."""

    status = 409

    def __init__(self, message: str | None = None) -> None:
        super().__init__(str(STALE_MESSAGE) if message is None else message)


class NotAPlayer(TableError):
    """The user has no seat in this game (a spectator, an invitee or an outsider)."""

    status = 403


class RefusedMove(TableError):
    """The rules (or the game's status) refuse this move."""

    status = 422


class UnreadableMove(TableError):
    """The request does not name an action of this game."""

    status = 400
