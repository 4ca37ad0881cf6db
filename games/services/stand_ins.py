"""Stand-ins: during a game, the organizer invites someone (by name or link) who may then be
given an absent player's seat (`games.services.absence.replace`).

The lobby's rules decide who may be invited, as before the start: this is the one
invitation allowed once the game is under way. The room helpers are the lobby service's
(`games.services.lobby.room`), which this builds on.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import mail
from games.kinds import lobby as rules
from games.live import realtime
from games.models import Game, Invitation
from games.phrases import refusal_text
from games.services.lobby.blocks import refuse_invitation, refuse_joining
from games.services.lobby.links import _new_link, link_problem, use_invite_link
from games.services.lobby.refusals import BadRequest, Conflict, LinkUnusable
from games.services.lobby.room import (
    _changed,
    _locked_room,
    _organizer_only,
    _Room,
    _room,
    _save,
    _user_pid,
)


def _stand_in_room(game_id: int, by: User) -> _Room:
    room = _locked_room(game_id, by)
    if room.game.status != Game.Status.ACTIVE:
        raise Conflict(_("Stand-ins are invited while the game is under way."))
    _organizer_only(room, by, _("Only the organizer can invite a stand-in."))
    return room


@transaction.atomic
def invite_stand_in(*, game_id: int, by: User, username: str) -> Invitation:
    """The organizer of a game in progress invites the user called `username`, who may
    then be given an absent player's seat (`absence.replace`)."""
    room = _stand_in_room(game_id, by)
    invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if invitee is None:
        raise BadRequest(_("There is nobody called “%(name)s”.") % {"name": username.strip()[:40]})
    refuse_invitation(room.game, by_id=by.pk, invitee=invitee)
    try:
        # The lobby's rules, as before the start: this is the one invitation allowed after.
        after = rules.invite(replace(room.lobby, started=False), _user_pid(by), _user_pid(invitee))
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, replace(after, started=True))
    invitation = Invitation.objects.create(game=room.game, inviter=by, invitee=invitee)
    mail.invitation_sent(invitation)
    _changed(room)
    invitee_id, invitation_id = invitee.pk, invitation.pk
    transaction.on_commit(lambda: realtime.invitation_received(invitee_id, invitation_id))
    return invitation


@transaction.atomic
def create_stand_in_link(*, game_id: int, by: User) -> Invitation:
    """A single-use link for a stand-in: whoever follows it first becomes an invitee of the
    game in progress (`follow_link`)."""
    room = _stand_in_room(game_id, by)
    return _new_link(room, by)


@transaction.atomic
def follow_link(*, token: str, user: User) -> Game:
    """`user` follows an invite link: before the start they take a seat
    (`use_invite_link`); during the game they become an invitee the organizer may give an
    absent player's seat to (the link is then used, the invitation still pending)."""
    found = Invitation.objects.filter(token=token).only("game_id").first()
    if found is None:
        raise LinkUnusable(_("This invite link does not exist."), status=404)
    game = Game.objects.select_for_update().select_related("organizer").get(pk=found.game_id)
    if game.status != Game.Status.ACTIVE:
        return use_invite_link(token=token, user=user)
    link = Invitation.objects.get(pk=found.pk)  # read again under the game's lock
    room = _room(game)
    if _user_pid(user) in room.members:
        return game
    problem = link_problem(link)
    if problem is not None:
        raise problem
    refuse_joining(game, user_id=user.pk, inviter_id=link.inviter_id)
    try:
        after = rules.invite(
            replace(room.lobby, started=False), room.lobby.organizer, _user_pid(user)
        )
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, replace(after, started=True))
    link.invitee = user
    link.save(update_fields=["invitee"])
    _changed(room)
    return game
