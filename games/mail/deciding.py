"""Deciding, when a row falls due, whether its letter goes now, later or never."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from accounts.addresses import verified_addresses
from accounts.models import User
from games import presence
from games.mail.queue import PREFERENCE, Reason
from games.models import Game, Invitation, Membership, PendingMail


def quiet_end(user: User, now: datetime) -> datetime | None:
    """When the user's quiet hours end, if `now` falls inside them (else None).

    The window runs from `quiet_from` up to `quiet_until` in the user's time zone, and wraps
    midnight when it ends at an earlier time than it starts (22:00 to 08:00)."""
    start, end = user.quiet_from, user.quiet_until
    if start is None or end is None or start == end:
        return None
    try:
        zone = ZoneInfo(user.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    clock = local.time()
    inside = start <= clock < end if start < end else (clock >= start or clock < end)
    if not inside:
        return None
    day = local.date() if clock < end else local.date() + timedelta(days=1)
    until = datetime.combine(day, end, tzinfo=zone).astimezone(UTC)
    return until if until > now else None


@dataclass
class Batch:
    """What the rows claimed together need to be decided and written (a few queries)."""

    addresses: dict[int, str]
    members: dict[int, list[Membership]]  # by game id, seated people and bots
    invitations: dict[int, Invitation]
    connected: set[tuple[int, int]]  # (game id, user id) with a socket open on the game

    @classmethod
    def load(cls, rows: list[PendingMail]) -> Batch:
        game_ids = {row.game_id for row in rows}
        members: dict[int, list[Membership]] = defaultdict(list)
        seated = Membership.objects.filter(game_id__in=game_ids, seat__isnull=False)
        for member in seated.select_related("user"):
            members[member.game_id].append(member)
        invited = [row.key for row in rows if row.reason == Reason.INVITED]
        watch: dict[int, set[int]] = defaultdict(set)
        for row in rows:
            if row.reason in (Reason.TURN, Reason.COME_BACK):
                watch[row.game_id].add(row.user_id)
        return cls(
            addresses=verified_addresses({row.user_id for row in rows}),
            members=members,
            invitations=Invitation.objects.select_related("inviter").in_bulk(invited),
            connected={
                (game_id, uid)
                for game_id, uids in watch.items()
                for uid in presence.connected_user_ids(game_id, uids)
            },
        )

    def member(self, row: PendingMail) -> Membership | None:
        return next((m for m in self.members[row.game_id] if m.user_id == row.user_id), None)

    def names(self, game_id: int) -> dict[int, str]:
        """Seat -> the name of whoever sits there."""
        return {m.seat: m.name for m in self.members[game_id] if m.seat is not None}


def drop_reason(row: PendingMail, batch: Batch) -> str:
    """Why the letter of `row` must not go (the outcome to record), or "" to send it."""
    user, game = row.user, row.game
    if not user.is_active:
        return "account closed"
    if not getattr(user, PREFERENCE[Reason(row.reason)]):
        return "turned off"
    if row.user_id not in batch.addresses:
        return "no verified address"
    back = (row.game_id, row.user_id) in batch.connected
    if row.reason == Reason.TURN:
        member = batch.member(row)
        if game.status != Game.Status.ACTIVE:
            return "game not in progress"
        if member is None or not member.must_act:
            return "turn passed"
        if member.automated:
            return "seat handed to the bot"
        if back:
            return "back at the table"
    elif row.reason == Reason.COME_BACK:
        if game.status != Game.Status.ACTIVE:
            return "game not in progress"
        if back:
            return "back at the table"
    elif row.reason == Reason.INVITED:
        invitation = batch.invitations.get(row.key)
        if (
            invitation is None
            or invitation.invitee_id != row.user_id
            or invitation.state != Invitation.State.PENDING
        ):
            return "invitation closed"
    return ""
