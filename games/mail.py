"""Word by email: your turn, an invitation, a game's end, "come back to the table".

Each email is a `PendingMail` row first, queued inside the transaction that causes it (a
move, an invitation, a request to come back), so it exists exactly when that change does.
The row's unique (user, game, reason, key) keeps it to one per cause: per turn for TURN (key =
the game's action count), per invitation for INVITED, per hour for COME_BACK.

Every server process runs the deadline sweep (games/deadlines.py), which calls `send_due`
about once a second. Several processes may call it at once, so it *claims* rows: in one
short transaction it locks due rows (`select_for_update(skip_locked=True)`: on PostgreSQL
another sweep passes over them; SQLite has one writer at a time, so a second sweep waits and
then finds them done), decides each one, marks it done with its outcome, and commits. The
letters go out after the commit, so an SMTP conversation never holds a row lock or, on
SQLite, the database's one write lock. The price: a process that dies between the commit and
the send loses those letters (their outcome stays "sending"). At most once, never twice.

What is decided when a row falls due, not when it is queued:
- TURN goes only if it is still the user's turn (`must_act`, not handed to the bot), the
  game is on, and they have no socket open on the game (`games.presence`): back at the table.
- Any letter is dropped if its kind is turned off on the user's profile, or the user has no
  verified address (`accounts.addresses`).
- Quiet hours (in the user's time zone; a window may wrap midnight) postpone it to their end,
  when it is decided again.

Every letter has a plain-text and an HTML body (templates/email/<reason>.txt and .html, the
subject in <reason>_subject.txt), a direct link to the table or waiting room, and a one-click
unsubscribe link (`unsubscribe_url`; also in the List-Unsubscribe header, RFC 8058).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.addresses import verified_addresses
from accounts.models import User
from games import presence, registry
from games.access import visible_game_or_404
from games.models import INVITE_LINK_LIFETIME, Game, Invitation, Membership, PendingMail

log = logging.getLogger(__name__)

Reason = PendingMail.Reason

# Which profile choice lets each kind of letter go.
PREFERENCE = {
    Reason.TURN: "mail_turns",
    Reason.INVITED: "mail_invites",
    Reason.ENDED: "mail_endings",
    Reason.COME_BACK: "mail_come_back",
}
PREFERENCES = tuple(PREFERENCE.values())
UNSUBSCRIBE_SALT = "unsubscribe"
BATCH = 50  # rows claimed per transaction: short enough never to keep movers waiting


# --- queueing (inside the caller's transaction) ----------------------------------------------


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
    transaction): queue one turn email each, sent after a short delay unless they have the
    game open by then or their turn has passed."""
    delay = timedelta(seconds=float(settings.TURN_MAIL_DELAY_SECONDS))
    _queue(game.pk, user_ids, Reason.TURN, key=game.action_count, due_at=timezone.now() + delay)


def game_ended(game: Game) -> None:
    """`game` has just ended (inside the transaction): queue a word to each human player."""
    players = Membership.objects.filter(game=game, seat__isnull=False, user__isnull=False)
    user_ids = [uid for uid in players.values_list("user_id", flat=True) if uid is not None]
    _queue(game.pk, user_ids, Reason.ENDED, key=0, due_at=timezone.now())


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
        raise ComeBackRefused("Only the players at this table can ask someone back.", status=403)
    if game.status != Game.Status.ACTIVE:
        raise ComeBackRefused("This game is not in progress.")
    target = seated.get(seat)
    if target is None:
        raise ComeBackRefused("Nobody sits in that seat.")
    if target.user_id is None:
        raise ComeBackRefused(f"{target.name} is a bot: it never leaves the table.")
    if target.user_id == by.pk:
        raise ComeBackRefused("That is your own seat.")
    if target.user_id in presence.connected_user_ids(game.pk, [target.user_id]):
        raise ComeBackRefused(f"{target.name} is at the table now.")
    now = timezone.now()
    _, created = PendingMail.objects.get_or_create(
        user_id=target.user_id,
        game=game,
        reason=Reason.COME_BACK,
        key=hour_number(now),
        defaults={"due_at": now},
    )
    if not created:
        raise ComeBackRefused(
            f"{target.name} was asked to come back less than an hour ago.", status=429
        )
    return target


# --- unsubscribing ---------------------------------------------------------------------------


def unsubscribe_token(user_id: int) -> str:
    """The signed token of a user's unsubscribe link (no expiry: old letters keep working)."""
    return signing.dumps(user_id, salt=UNSUBSCRIBE_SALT)


def user_id_of(token: str) -> int | None:
    """The user id an unsubscribe token was made for, or None if it is not one of ours."""
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def set_all_preferences(user_id: int, *, on: bool) -> bool:
    """Turn every kind of letter on or off for the user; False if there is no such user."""
    return User.objects.filter(pk=user_id).update(**dict.fromkeys(PREFERENCES, on)) > 0


def absolute(path: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{path}"


# --- deciding --------------------------------------------------------------------------------


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
class _Batch:
    """What the rows claimed together need to be decided and written (a few queries)."""

    addresses: dict[int, str]
    members: dict[int, list[Membership]]  # by game id, seated people and bots
    invitations: dict[int, Invitation]
    connected: set[tuple[int, int]]  # (game id, user id) with a socket open on the game

    @classmethod
    def load(cls, rows: list[PendingMail]) -> _Batch:
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


def _drop_reason(row: PendingMail, batch: _Batch) -> str:
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


# --- writing ---------------------------------------------------------------------------------


def _message(
    template: str, context: dict[str, Any], to: str, *, unsubscribe_url: str = ""
) -> EmailMultiAlternatives:
    """A letter from templates/email/<template>{_subject.txt,.txt,.html}."""
    context = {**context, "site_url": settings.SITE_URL, "unsubscribe_url": unsubscribe_url}
    subject = " ".join(render_to_string(f"email/{template}_subject.txt", context).split())
    text = render_to_string(f"email/{template}.txt", context)
    html = render_to_string(f"email/{template}.html", context)
    # Machine-sent: no out-of-office replies, please (RFC 3834).
    headers = {"Auto-Submitted": "auto-generated"}
    if unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(subject, text, to=[to], headers=headers)
    message.attach_alternative(html, "text/html")
    return message


def _letter(row: PendingMail, batch: _Batch) -> EmailMultiAlternatives:
    user, game = row.user, row.game
    names = batch.names(game.pk)
    others = [m.name for m in batch.members[game.pk] if m.user_id != user.pk]
    context: dict[str, Any] = {
        "name": user.shown_name,
        "game_name": game.name,
        "kind_name": registry.kind(game.kind).name,
        "others": others,
        "url": absolute(reverse("table", args=[game.pk])),
        "settings_url": absolute(reverse("profile")),
        "move_seconds": game.move_seconds,
    }
    if row.reason == Reason.INVITED:
        invitation = batch.invitations[row.key]
        context["inviter"] = invitation.inviter.shown_name
        context["url"] = absolute(reverse("waiting-room", args=[game.pk]))
    elif row.reason == Reason.ENDED:
        outcome = game.outcome or {}
        scores, winners = outcome.get("scores", ()), set(outcome.get("winners", ()))
        context["results"] = [
            {"name": names.get(seat, f"Seat {seat + 1}"), "score": score, "won": seat in winners}
            for seat, score in enumerate(scores)
        ]
        context["won"] = any(
            m.user_id == user.pk and m.seat in winners for m in batch.members[game.pk]
        )
    unsubscribe_url = absolute(reverse("unsubscribe", args=[unsubscribe_token(user.pk)]))
    address = batch.addresses[row.user_id]
    return _message(str(row.reason), context, address, unsubscribe_url=unsubscribe_url)


def send_invite_link(invitation: Invitation, address: str) -> bool:
    """Email a private invite link to `address` (somebody with no account, perhaps): who
    invites them, to which game, and the link. Called after the link's commit; no queue, as
    there is no user to hold the row. False (and logged) if the mail server refused it."""
    game = invitation.game
    context = {
        "inviter": invitation.inviter.shown_name,
        "game_name": game.name,
        "kind_name": registry.kind(game.kind).name,
        "url": absolute(reverse("invite-link-landing", args=[invitation.token])),
        "days": INVITE_LINK_LIFETIME.days,
    }
    try:
        _message("invite_link", context, address).send()
    except OSError:  # smtplib's errors are OSErrors too
        log.warning("could not send invite link %s", invitation.pk, exc_info=True)
        return False
    return True


# --- sending ---------------------------------------------------------------------------------


@dataclass
class _Outgoing:
    mail_id: int
    message: EmailMultiAlternatives


def _due(now: datetime) -> Any:
    return PendingMail.objects.filter(done_at__isnull=True, due_at__lte=now)


def _claim(now: datetime) -> tuple[list[_Outgoing], int]:
    """Lock up to BATCH due rows that no other sweep holds, decide each, and mark it done
    (or postpone it past quiet hours). Returns the letters to send after commit and how
    many rows were handled."""
    with transaction.atomic():
        rows = list(
            _due(now)
            .select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "game")
            .order_by("due_at", "pk")[:BATCH]
        )
        if not rows:
            return [], 0
        batch = _Batch.load(rows)
        outgoing = []
        for row in rows:
            outcome = _drop_reason(row, batch)
            if not outcome:
                until = quiet_end(row.user, now)
                if until is not None:
                    row.due_at = until
                    row.save(update_fields=["due_at"])
                    continue
                try:
                    outgoing.append(_Outgoing(row.pk, _letter(row, batch)))
                    outcome = "sending"
                except Exception:  # a broken template must not jam the queue
                    log.exception("could not write mail %s", row.pk)
                    outcome = "failed: could not write it"
            row.done_at, row.outcome = now, outcome
            row.save(update_fields=["done_at", "outcome"])
        return outgoing, len(rows)


def _deliver(outgoing: list[_Outgoing]) -> None:
    """Send the claimed letters over one connection and record how each went."""
    outcome: dict[int, str] = {}
    try:
        with get_connection() as connection:
            for letter in outgoing:
                try:
                    connection.send_messages([letter.message])
                except OSError as error:  # smtplib's errors are OSErrors too
                    log.warning("mail %s was refused: %s", letter.mail_id, error)
                    outcome[letter.mail_id] = f"failed: {type(error).__name__}"[:40]
                else:
                    outcome[letter.mail_id] = "sent"
    except OSError as error:  # no connection to the mail server at all
        log.warning("could not reach the mail server: %s", error)
    by_outcome: dict[str, list[int]] = defaultdict(list)
    for letter in outgoing:
        by_outcome[outcome.get(letter.mail_id, "failed: no mail server")].append(letter.mail_id)
    for text, ids in by_outcome.items():
        PendingMail.objects.filter(pk__in=ids).update(outcome=text)


def send_due(now: datetime | None = None) -> int:
    """Send (or drop, or postpone) every queued email that is due at `now`; called by the
    deadline sweep of each server process (games/deadlines.py). Returns how many rows were
    handled: sent, dropped or postponed by this call (not those another sweep took)."""
    now = now or timezone.now()
    handled = 0
    # A plain read first: most sweeps find nothing, and then take no write lock at all.
    while _due(now).exists():
        outgoing, claimed = _claim(now)
        if outgoing:
            _deliver(outgoing)
        handled += claimed
        if claimed < BATCH:
            break
    return handled
