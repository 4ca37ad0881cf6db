"""Blocks in the lobby (accounts/blocking.py; docs/friends.md): nobody is invited by, or
joins a game organized by, somebody they blocked or who blocked them. The refusal is
neutral: it never says that a block is the reason, nor who blocked whom."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts import blocking
from accounts.models import User
from games.models import Game
from games.services.lobby.refusals import NotAllowed


def refuse_invitation(game: Game, *, by_id: int, invitee: User) -> None:
    """`by_id` may not invite `invitee` to `game` when either blocked the other, or the
    invitee and the game's organizer did."""
    blocked = blocking.blocked_either_way(invitee.pk)
    if by_id in blocked or game.organizer_id in blocked:
        raise NotAllowed(
            _("You cannot invite %(name)s to this game.") % {"name": invitee.shown_name}
        )


def refuse_joining(game: Game, *, user_id: int, inviter_id: int | None = None) -> None:
    """`user_id` may not join `game` (by its Join button or an invite link from
    `inviter_id`) when they and its organizer, or they and the inviter, blocked each other."""
    blocked = blocking.blocked_either_way(user_id)
    if game.organizer_id in blocked or (inviter_id is not None and inviter_id in blocked):
        raise NotAllowed(_("You cannot join this game."))
