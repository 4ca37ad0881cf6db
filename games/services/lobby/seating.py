"""Taking seats before the start: a player joins or leaves, the organizer seats a bot or
removes somebody (a player, a bot or an invitee)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.kinds import lobby as rules
from games.models import Game, Invitation, Membership
from games.phrases import refusal_text
from games.services.lobby.blocks import refuse_joining
from games.services.lobby.refusals import BadRequest, Conflict
from games.services.lobby.room import (
    _changed,
    _close_invitation,
    _locked_room,
    _organizer_only,
    _refused,
    _require_free_seat,
    _Room,
    _save,
    _user_pid,
    person_id,
)

BOT_NAMES = (
    "Ada", "Blaise", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Hedy", "Niklaus", "Frances"
)  # fmt: skip


def _take_seat(room: _Room, user: User) -> Membership:
    _require_free_seat(room)
    try:
        after = rules.join(room.lobby, _user_pid(user))
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, after)
    _close_invitation(room.game, user.pk, Invitation.State.ACCEPTED)
    _changed(room)
    return room.members[_user_pid(user)]


@transaction.atomic
def join(*, game_id: int, user: User) -> Membership:
    """Anyone takes the lowest free seat of a public game (an invitee accepts)."""
    room = _locked_room(game_id, user)
    if _user_pid(user) not in room.members:  # an invitee accepting was invited already
        refuse_joining(room.game, user_id=user.pk)
    return _take_seat(room, user)


@transaction.atomic
def leave(*, game_id: int, user: User) -> None:
    """A player (not the organizer) gives up their seat before the start."""
    room = _locked_room(game_id, user)
    try:
        after = rules.leave(room.lobby, _user_pid(user))
    except rules.LobbyError as error:
        raise _refused(room, user, error) from error
    _save(room, after)
    _changed(room, also=[user.pk])


@transaction.atomic
def add_bot(*, game_id: int, by: User, seat: int, level: str = "") -> Membership:
    """The organizer seats a bot ("Bot Ada") in the empty `seat` (0-based), at `level` (one
    of the game's seat levels; "" for its default)."""
    room = _locked_room(game_id, by)
    _organizer_only(room, by, _("Only the organizer can add a bot."))
    if not 0 <= seat < room.game.max_players:
        raise BadRequest(_("That seat does not exist."))
    levels = dict(registry.kind(room.game.kind).bot_levels)
    if level and level not in levels:
        raise BadRequest(_("This game has no bot of that level."))
    if room.game.status == Game.Status.WAITING and seat not in room.free_seats():
        raise Conflict(_("That seat is taken."))
    taken = {m.bot_name for m in room.members.values() if m.is_bot}
    name = next((f"Bot {n}" for n in BOT_NAMES if f"Bot {n}" not in taken), f"Bot {len(taken) + 1}")
    try:
        after = rules.add_bot(room.lobby, _user_pid(by), f"bot:{name}")
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, after, seat=seat, level=level)
    _changed(room)
    return room.members[f"bot:{name}"]


@transaction.atomic
def remove(*, game_id: int, by: User, membership_id: int) -> None:
    """The organizer removes a player, a bot or an invitee (which un-invites them)."""
    room = _locked_room(game_id, by)
    _organizer_only(room, by, _("Only the organizer can remove people."))
    member = next((m for m in room.members.values() if m.pk == membership_id), None)
    if member is None:
        raise BadRequest(_("That person is not in this game."))
    try:
        after = rules.remove(room.lobby, _user_pid(by), person_id(member))
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
    _save(room, after)
    also = []
    if member.user_id is not None:
        _close_invitation(room.game, member.user_id, Invitation.State.REVOKED)
        also.append(member.user_id)
    _changed(room, also=also)
