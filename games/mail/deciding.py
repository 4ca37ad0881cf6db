"""Deciding, when a row falls due, whether its letter goes now, later or never.

Turn letters: one per game per absence. A row is queued each time a turn begins (per turn:
games/mail/queue.py), but when one falls due
- it is dropped if a later turn's row is queued (that one carries on), the turn has passed,
  the seat went to the bot or the game is over;
- it waits while the player is present (a page of the game open, or a request on it less
  than the away threshold ago: games/live/presence.py), and until TURN_MAIL_DELAY_SECONDS after
  their absence began;
- it goes, recording the absence it tells of (`PendingMail.absence`: when that absence
  began), unless a letter for that absence went already: the unique constraint on
  (user, game, absence) makes a second one impossible, across sweeps too. A new letter needs
  a new absence: the player came back (a page, a request) and left again.
There is no reminder during one long absence (only once the departure is forgotten, after
presence.LEFT_TTL, a week, may a still-absent player's next turn bring one more letter).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db.models import Max

from accounts.addresses import verified_addresses
from accounts.models import User
from games.live import presence
from games.live.presence import Presence
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
    presence: dict[int, Presence]  # by game id, of the users of turn and come-back rows
    newest: dict[tuple[int, int], int]  # (game id, user id) -> key of its latest open turn row

    @classmethod
    def load(cls, rows: list[PendingMail], now: datetime) -> Batch:
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
        turns = [row for row in rows if row.reason == Reason.TURN]
        open_turns = (
            PendingMail.objects.filter(
                reason=Reason.TURN,
                done_at__isnull=True,
                game_id__in={row.game_id for row in turns},
                user_id__in={row.user_id for row in turns},
            )
            .values_list("game_id", "user_id")
            .annotate(newest=Max("key"))
        )
        at = now.timestamp()
        return cls(
            addresses=verified_addresses({row.user_id for row in rows}),
            members=members,
            invitations=Invitation.objects.select_related("inviter").in_bulk(invited),
            presence={
                game_id: presence.presence_of(game_id, uids, fresh=True, at=at)
                for game_id, uids in watch.items()
            },
            newest={(game_id, uid): key for game_id, uid, key in open_turns} if turns else {},
        )

    def present(self, row: PendingMail) -> bool:
        here = self.presence.get(row.game_id)
        return here is not None and here.present(row.user_id)

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
    if row.reason == Reason.TURN:
        member = batch.member(row)
        if game.status != Game.Status.ACTIVE:
            return "game not in progress"
        if row.key < batch.newest.get((row.game_id, row.user_id), row.key):
            return "a later turn's letter waits"
        if member is None or not member.must_act:
            return "turn passed"
        if member.automated:
            return "seat handed to the bot"
    elif row.reason == Reason.COME_BACK:
        if game.status != Game.Status.ACTIVE:
            return "game not in progress"
        if batch.present(row):
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


def turn_mail_delay() -> timedelta:
    return timedelta(seconds=float(settings.TURN_MAIL_DELAY_SECONDS))


def absence_of(row: PendingMail, batch: Batch, now: datetime) -> int | datetime:
    """For a turn letter that may go: the absence it would tell of (when it began, whole
    seconds since the epoch; 0 if the player never had the game open), or, while the player
    is present or left less than the delay ago, when to decide again."""
    here = batch.presence.get(row.game_id, Presence())
    if here.present(row.user_id):
        return now + turn_mail_delay()
    away = here.away.get(row.user_id)
    if away is None:
        return 0
    ready = away.since + turn_mail_delay()
    return ready if ready > now else int(away.since.timestamp())
