"""The room every lobby service works in: the game locked for update, its memberships by
engine id and the rules' `Lobby` for them (`_room`); storing the rules' outcome in the
memberships (`_save`) and closing a member's pending invitation; the web's own refusals
(organizer only, no free seat); telling the room and every member's lobby after commit
(`_changed`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.access import visible_game_or_404
from games.kinds import lobby as rules
from games.live import realtime
from games.models import Game, Invitation, Membership
from games.phrases import refusal_text
from games.services.lobby.refusals import Conflict, LobbyRefused, NotAllowed


def person_id(member: Membership) -> str:
    """The id the engine knows a membership by: "user:<id>" or "bot:<name>"."""
    if member.user_id is not None:
        return f"user:{member.user_id}"
    return f"bot:{member.bot_name}"


def _user_pid(user: User) -> str:
    return f"user:{user.pk}"


@dataclass
class _Room:
    """A locked game, its memberships by engine id, and the engine's `Lobby` for it."""

    game: Game
    members: dict[str, Membership]
    lobby: rules.Lobby

    def seated(self) -> list[Membership]:
        return sorted(
            (m for m in self.members.values() if m.seat is not None), key=lambda m: m.seat or 0
        )

    def free_seats(self) -> list[int]:
        taken = {m.seat for m in self.members.values()}
        return [seat for seat in range(self.game.max_players) if seat not in taken]

    def human_ids(self) -> list[int]:
        return [m.user_id for m in self.members.values() if m.user_id is not None]


def _room(game: Game) -> _Room:
    """Load the lobby of `game` (already locked). People come in seat order, then invitees,
    so the engine's join order is our seat order."""
    memberships = list(game.memberships.select_related("user"))
    seated = sorted((m for m in memberships if m.seat is not None), key=lambda m: m.seat or 0)
    invitees = sorted((m for m in memberships if m.seat is None), key=lambda m: m.joined_at)
    people = []
    for member in (*seated, *invitees):
        if member.role == Membership.Role.ORGANIZER:
            roles = frozenset({rules.Role.ORGANIZER, rules.Role.PLAYER})
        elif member.role == Membership.Role.PLAYER:
            roles = frozenset({rules.Role.PLAYER})
        else:
            roles = frozenset({rules.Role.INVITEE})
        people.append(rules.Person(person_id(member), roles, bot=member.is_bot))
    kind = registry.kind(game.kind)
    lobby = rules.Lobby(
        organizer=f"user:{game.organizer_id}",
        public=game.public,
        people=tuple(people),
        started=game.status != Game.Status.WAITING,
        seats=game.max_players,
        seat_counts=_counts(kind.seat_counts, game.max_players, team_game=kind.teams is not None),
    )
    return _Room(game=game, members={person_id(m): m for m in memberships}, lobby=lobby)


def _counts(allowed: tuple[int, ...], seats: int, *, team_game: bool) -> tuple[int, ...]:
    """The player counts a table of `seats` may start with: those the game allows, up to
    the table's size; a team game only with every seat taken (partners stay put)."""
    if team_game:
        return (seats,)
    return tuple(count for count in allowed if count <= seats)


def _locked_room(game_id: int, user: User) -> _Room:
    """The game locked for update, or 404 if `user` may not see it."""
    return _room(visible_game_or_404(user, game_id, for_update=True))


def _role_of(person: rules.Person) -> Membership.Role:
    if rules.Role.ORGANIZER in person.roles:
        return Membership.Role.ORGANIZER
    if person.is_player:
        return Membership.Role.PLAYER
    return Membership.Role.INVITEE


def _save(
    room: _Room, after: rules.Lobby, *, seat: int | None = None, level: str = ""
) -> list[Membership]:
    """Store the engine's outcome: create, promote or delete memberships to match `after`.

    A new player takes `seat` if given (a bot's chosen seat), else the lowest free seat; a
    new bot plays at `level` (else the game's default seat bot).
    Returns the memberships that were deleted.
    """
    kept = {person.id for person in after.people}
    gone = [member for pid, member in room.members.items() if pid not in kept]
    for old in gone:
        room.members.pop(person_id(old))
        old.delete()
    for person in after.people:
        role = _role_of(person)
        member = room.members.get(person.id)
        if member is not None and member.role == role:
            continue
        if member is None:
            kind, _colon, ident = person.id.partition(":")
            member = Membership(
                game=room.game,
                user_id=int(ident) if kind == "user" else None,
                bot=(level or registry.kind(room.game.kind).seat_bot) if person.bot else "",
                bot_name=ident if person.bot else "",
            )
        if role == Membership.Role.INVITEE:
            member.seat = None
        elif member.seat is None:
            member.seat = seat if seat is not None else min(room.free_seats())
        member.role = role
        member.save()
        room.members[person.id] = member
    room.lobby = after
    return gone


def _refused(room: _Room, actor: User, error: rules.LobbyError) -> LobbyRefused:
    """The engine's refusal as ours: 403 when the actor holds no seat (not allowed to act
    at all), else 409 (the game's current state refuses it)."""
    member = room.members.get(_user_pid(actor))
    if member is None or member.seat is None:
        return NotAllowed(refusal_text(error))
    return Conflict(refusal_text(error))


def _changed(room: _Room, *, also: Iterable[int] = ()) -> None:
    """Bump the version and tell the room and every human member's lobby after commit."""
    game = room.game
    game.version += 1
    game.save(update_fields=["version"])
    game_id, version = game.pk, game.version
    user_ids = {*room.human_ids(), *also}
    transaction.on_commit(lambda: realtime.game_changed(game_id, version))
    transaction.on_commit(lambda: realtime.lobby_changed(user_ids))
    if game.public:  # everyone's "Open public games" list may change
        transaction.on_commit(realtime.public_games_changed)


def _organizer_only(room: _Room, actor: User, refusal: str) -> None:
    """Web policy: only the organizer starts, seats bots, removes people, revokes; others
    are refused with `refusal` (a sentence)."""
    if room.game.organizer_id != actor.pk:
        raise NotAllowed(refusal)


def _require_free_seat(room: _Room) -> None:
    if not room.free_seats():
        raise Conflict(_("This game is full."))


def _pending_invitation(game: Game, user_id: int) -> Invitation | None:
    return Invitation.objects.filter(
        game=game, invitee_id=user_id, state=Invitation.State.PENDING
    ).first()


def _close_invitation(game: Game, user_id: int, state: Invitation.State) -> None:
    invitation = _pending_invitation(game, user_id)
    if invitation is not None:
        invitation.state = state
        invitation.responded_at = timezone.now()
        invitation.save(update_fields=["state", "responded_at"])
