"""Queueing letters, inside the transaction that causes them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.access import visible_game_or_404
from games.live import presence
from games.models import Game, Invitation, Membership, PendingMail

if TYPE_CHECKING:
    from games.signals import TableChange

Reason = PendingMail.Reason

# Which profile choice lets each kind of letter go.
PREFERENCE = {
    Reason.TURN: "mail_turns",
    Reason.INVITED: "mail_invites",
    Reason.ENDED: "mail_endings",
    Reason.COME_BACK: "mail_come_back",
}
PREFERENCES = tuple(PREFERENCE.values())


def _queue(
    game_id: int, user_ids: Iterable[int], reason: str, *, key: int, due_at: datetime
) -> None:
    rows = [
        PendingMail(user_id=uid, game_id=game_id, reason=reason, key=key, due_at=due_at)
        for uid in dict.fromkeys(user_ids)
    ]
    # A row already there for the same cause stays as it is: one letter per cause.
    PendingMail.objects.bulk_create(rows, ignore_conflicts=True)


def turn_began(game: Game, user_ids: Iterable[int]) -> None:
    """It has just become these users' turn in `game` (called inside the move's
    transaction): queue a turn row each, decided after a short delay (games/mail/deciding.py:
    at most one letter per absence, and none while they are present or once the turn has
    passed)."""
    delay = timedelta(seconds=float(settings.TURN_MAIL_DELAY_SECONDS))
    _queue(game.pk, user_ids, Reason.TURN, key=game.action_count, due_at=timezone.now() + delay)


def game_ended(game: Game) -> None:
    """`game` has just ended (inside the transaction): queue a word to each human player."""
    players = Membership.objects.filter(game=game, seat__isnull=False, user__isnull=False)
    user_ids = [uid for uid in players.values_list("user_id", flat=True) if uid is not None]
    _queue(game.pk, user_ids, Reason.ENDED, key=0, due_at=timezone.now())


def on_table_changed(sender: Any, *, change: TableChange, **_: Any) -> None:
    """A change at the table, inside its transaction (`games.signals.table_changed`): word
    by email to those away whose turn began (sent later, unless they are back by then), and
    to every player when the game ended."""
    if change.fresh:
        turn_began(change.game, change.fresh)
    if change.ended:
        game_ended(change.game)


def invitation_sent(invitation: Invitation) -> None:
    """`invitation` (by name, or a rematch's) was just made, inside the transaction: queue
    a word to its invitee. A link nobody has used yet names nobody, so it gets none."""
    if invitation.invitee_id is None:
        return
    _queue(
        invitation.game_id,
        [invitation.invitee_id],
        Reason.INVITED,
        key=invitation.pk,
        due_at=timezone.now(),
    )


class ComeBackRefused(Exception):
    """Asking that seat back is not allowed; `message` is shown as is, `status` is the HTTP
    status (the table's: 403 not a player, 422 refused, 429 asked already this hour).

    Not the table service's own errors: that module imports this one (turn_began)."""

    def __init__(self, message: str, *, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def hour_number(now: datetime) -> int:
    """Whole hours since the epoch: the key that allows one come-back letter an hour."""
    return int(now.timestamp()) // 3600


@transaction.atomic
def ask_to_come_back(*, game_id: int, by: User, seat: int) -> Membership:
    """`by`, seated at the table, asks the human in `seat` (away now) to come back: queue a
    COME_BACK letter, at most one an hour per game and person. Returns their membership.

    Raises Http404 (a private game `by` is not in) or ComeBackRefused.
    """
    game = visible_game_or_404(by, game_id)
    seated = {m.seat: m for m in game.memberships.select_related("user") if m.seat is not None}
    if not any(m.user_id == by.pk for m in seated.values()):
        raise ComeBackRefused(_("Only the players at this table can ask someone back."), status=403)
    if game.status != Game.Status.ACTIVE:
        raise ComeBackRefused(_("This game is not in progress."))
    target = seated.get(seat)
    if target is None:
        raise ComeBackRefused(_("Nobody sits in that seat."))
    if target.user_id is None:
        raise ComeBackRefused(
            _("%(name)s is a bot: it never leaves the table.") % {"name": target.name}
        )
    if target.user_id == by.pk:
        raise ComeBackRefused(_("That is your own seat."))
    if target.user_id in presence.present_user_ids(game.pk, [target.user_id]):
        raise ComeBackRefused(_("%(name)s is at the table now.") % {"name": target.name})
    now = timezone.now()
    _row, created = PendingMail.objects.get_or_create(
        user_id=target.user_id,
        game=game,
        reason=Reason.COME_BACK,
        key=hour_number(now),
        defaults={"due_at": now},
    )
    if not created:
        raise ComeBackRefused(
            _("%(name)s was asked to come back less than an hour ago.") % {"name": target.name},
            status=429,
        )
    return target
