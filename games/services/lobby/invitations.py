"""Invitations by name: a player invites somebody, who accepts (and takes a seat) or
declines; the organizer revokes a pending invitation, by name or by link."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import mail
from games.kinds import lobby as rules
from games.live import realtime
from games.models import COVER_DECLINED, Game, Invitation, Membership
from games.phrases import refusal_text
from games.services.lobby.blocks import refuse_invitation, refuse_joining
from games.services.lobby.refusals import BadRequest, Conflict
from games.services.lobby.rematches import _old_seat, _seat_bot_for, _start_if_answered
from games.services.lobby.room import (
    _changed,
    _close_invitation,
    _locked_room,
    _organizer_only,
    _refused,
    _require_free_seat,
    _save,
    _user_pid,
    person_id,
)
from games.services.lobby.seating import _take_seat


@transaction.atomic
def invite(*, game_id: int, by: User, username: str) -> Invitation:
    """`by` (any player) invites the user called `username` (who also gets an email)."""

    room = _locked_room(game_id, by)
    invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if invitee is None:
        raise BadRequest(_("There is nobody called “%(name)s”.") % {"name": username.strip()[:40]})
    refuse_invitation(room.game, by_id=by.pk, invitee=invitee)
    try:
        after = rules.invite(room.lobby, _user_pid(by), _user_pid(invitee))
    except rules.LobbyError as error:
        raise _refused(room, by, error) from error
    _save(room, after)
    invitation = Invitation.objects.create(game=room.game, inviter=by, invitee=invitee)
    mail.invitation_sent(invitation)
    _changed(room)
    invitee_id, invitation_id = invitee.pk, invitation.pk
    transaction.on_commit(lambda: realtime.invitation_received(invitee_id, invitation_id))
    return invitation


@transaction.atomic
def accept(*, game_id: int, user: User) -> Membership:
    """An invitee accepts: they become a player in the lowest free seat (in a rematch, the
    seat they had; the rematch starts once everybody invited has answered)."""
    room = _locked_room(game_id, user)
    member = room.members.get(_user_pid(user))
    if member is None or member.role != Membership.Role.INVITEE:
        if member is not None:
            raise Conflict(_("You are already playing in this game."))
        raise Conflict(_("You have no invitation to this game."))
    # An invitation made before a block between the invitee and its inviter or the game's
    # organizer no longer seats them (neutral refusal, as for an invite link).
    inviter_id = (
        Invitation.objects.filter(game=room.game, invitee=user, state=Invitation.State.PENDING)
        .order_by("-pk")
        .values_list("inviter_id", flat=True)
        .first()
    )
    refuse_joining(room.game, user_id=user.pk, inviter_id=inviter_id)
    if room.game.status == Game.Status.ACTIVE:  # a stand-in (`stand_ins.invite_stand_in`)
        raise Conflict(
            _(
                "This game is under way: %(organizer)s gives you a seat when one is free. "
                "Open the game to watch meanwhile."
            )
            % {"organizer": room.game.organizer.shown_name}
        )
    if room.game.rematch_of_id is None:
        return _take_seat(room, user)
    seat = _old_seat(room, user.pk)
    _require_free_seat(room)
    try:
        after = rules.join(room.lobby, _user_pid(user))
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, after, seat=seat if seat in room.free_seats() else None)
    _close_invitation(room.game, user.pk, Invitation.State.ACCEPTED)
    if not _start_if_answered(room):
        _changed(room)
    return room.members[_user_pid(user)]


@transaction.atomic
def decline(*, game_id: int, user: User) -> None:
    """An invitee turns the invitation down and is no longer a member. In a rematch a bot
    takes the seat they had, and the rematch starts once everybody invited has answered."""
    room = _locked_room(game_id, user)
    try:
        after = rules.decline(room.lobby, _user_pid(user))
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, after)
    _close_invitation(room.game, user.pk, Invitation.State.DECLINED)
    game = room.game
    if game.rematch_of_id is not None and game.status == Game.Status.WAITING:
        seat = _old_seat(room, user.pk)
        if seat is not None and seat in room.free_seats():
            _seat_bot_for(room, seat, note=COVER_DECLINED % {"name": user.shown_name})
        if _start_if_answered(room, also=[user.pk]):
            return
    _changed(room, also=[user.pk])


def _answered(invitation: Invitation) -> str:
    """Why an invitation no longer pending cannot be revoked."""
    said: dict[str, str] = {
        Invitation.State.ACCEPTED: _("This invitation is already accepted."),
        Invitation.State.DECLINED: _("This invitation is already declined."),
        Invitation.State.REVOKED: _("This invitation is already revoked."),
        Invitation.State.EXPIRED: _("This invitation is already expired."),
    }
    return said.get(invitation.state, _("This invitation is no longer pending."))


@transaction.atomic
def revoke_invitation(*, game_id: int, by: User, invitation_id: int) -> Invitation:
    """The organizer withdraws a pending invitation (by name: the invitee leaves; link: dead)."""
    room = _locked_room(game_id, by)
    _organizer_only(room, by, _("Only the organizer can revoke invitations."))
    invitation = Invitation.objects.filter(pk=invitation_id, game=room.game).first()
    if invitation is None:
        raise BadRequest(_("There is no such invitation in this game."))
    if invitation.state != Invitation.State.PENDING:
        raise Conflict(_answered(invitation))
    also = []
    if invitation.invitee_id is not None:
        member = room.members.get(f"user:{invitation.invitee_id}")
        if member is not None and member.role == Membership.Role.INVITEE:
            try:
                after = rules.remove(room.lobby, _user_pid(by), person_id(member))
            except rules.LobbyError as error:
                raise Conflict(refusal_text(error)) from error
            _save(room, after)
        also.append(invitation.invitee_id)
    elif room.game.status != Game.Status.WAITING:
        raise Conflict(_("The game has already started."))
    invitation.state = Invitation.State.REVOKED
    invitation.responded_at = timezone.now()
    invitation.save(update_fields=["state", "responded_at"])
    _changed(room, also=also)
    return invitation
