"""Invite links: single-use private links, made or emailed by a player; following one
before the start is accepting it, and takes a seat."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import mail
from games.kinds import lobby as rules
from games.models import INVITE_LINK_LIFETIME, Game, Invitation, Membership, new_token
from games.phrases import refusal_text
from games.services.lobby.blocks import refuse_joining
from games.services.lobby.letter_limits import record_letter
from games.services.lobby.refusals import Conflict, LinkUnusable
from games.services.lobby.room import (
    _changed,
    _locked_room,
    _refused,
    _Room,
    _room,
    _save,
    _user_pid,
    person_id,
)
from games.services.lobby.seating import _take_seat


def _new_link(room: _Room, by: User) -> Invitation:
    """A single-use invite link to `room`'s game from `by`, valid for a week."""
    invitation = Invitation.objects.create(
        game=room.game,
        inviter=by,
        token=new_token(),
        expires_at=timezone.now() + INVITE_LINK_LIFETIME,
    )
    _changed(room)
    return invitation


@transaction.atomic
def create_invite_link(*, game_id: int, by: User) -> Invitation:
    """A single-use private link; whoever follows it first becomes an invitee."""
    room = _locked_room(game_id, by)
    try:
        # Ask the rules whether `by` may invite at all (the link's holder is unknown yet).
        rules.invite(room.lobby, _user_pid(by), "link:")
    except rules.LobbyError as error:
        raise _refused(room, by, error) from error
    return _new_link(room, by)


@transaction.atomic
def email_invite_link(*, game_id: int, by: User, email: str) -> Invitation:
    """A private link (as `create_invite_link`) emailed to `email` after commit, saying who
    invites them to a game of which kind: for a friend who may have no account yet.

    Each letter goes to an address we know nothing about: `record_letter` says who may send
    one and how many (403, 422, 429)."""
    invitation = create_invite_link(game_id=game_id, by=by)  # locks the game, or 404
    address = record_letter(by=by, email=email)
    key = address.unsubscribe_key
    transaction.on_commit(lambda: mail.send_invite_link(invitation, email, unsubscribe_key=key))
    return invitation


def link_problem(invitation: Invitation | None) -> LinkUnusable | None:
    """Why an invite link cannot be used (as an error to raise), or None if it can."""
    if invitation is None:
        return LinkUnusable(_("This invite link does not exist."), status=404)
    if invitation.state == Invitation.State.REVOKED:
        return LinkUnusable(_("This invite link was revoked by the organizer."))
    if invitation.invitee_id is not None or invitation.state != Invitation.State.PENDING:
        if invitation.state == Invitation.State.EXPIRED:
            return LinkUnusable(_("This invite link has expired."))
        return LinkUnusable(_("This invite link has already been used."))
    if invitation.has_expired():
        return LinkUnusable(_("This invite link has expired."))
    return None


@transaction.atomic
def use_invite_link(*, token: str, user: User) -> Game:
    """`user` follows an invite link: following it is accepting it, so they take a seat.

    A member following a link is shown the game, and an invitee (invited by name) takes
    their seat; the link stays unused. A full game refuses, and the link stays usable.
    """
    found = Invitation.objects.filter(token=token).only("game_id").first()
    if found is None:
        raise LinkUnusable(_("This invite link does not exist."), status=404)
    game = Game.objects.select_for_update().select_related("organizer").get(pk=found.game_id)
    link = Invitation.objects.get(pk=found.pk)  # read again under the game's lock
    room = _room(game)
    member = room.members.get(_user_pid(user))
    if member is not None:
        if member.role == Membership.Role.INVITEE and game.status == Game.Status.WAITING:
            _take_seat(room, user)
        return game
    problem = link_problem(link)
    if problem is not None:
        raise problem
    if game.status != Game.Status.WAITING:
        raise LinkUnusable(_("This game has already started, so the link no longer works."))
    refuse_joining(game, user_id=user.pk, inviter_id=link.inviter_id)
    inviter = room.members.get(f"user:{link.inviter_id}")
    # A link outlives its creator's seat: then it invites on the organizer's behalf.
    by = person_id(inviter) if inviter and inviter.seat is not None else room.lobby.organizer
    try:
        after = rules.join(rules.invite(room.lobby, by, _user_pid(user)), _user_pid(user))
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, after)
    link.invitee = user
    link.state = Invitation.State.ACCEPTED
    link.responded_at = timezone.now()
    link.save(update_fields=["invitee", "state", "responded_at"])
    _changed(room)
    return game
