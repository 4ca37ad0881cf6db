"""The lobby: create a game, invite people (by name or by link), take seats, start.

The rules (who may invite, who may join, how many may play, nothing after the start) live in
one place, the pure lobby functions (`games.kinds.lobby`), with the table size and the
player counts the game's kind allows. Each service here loads a `Lobby` value from the
game's memberships, asks the rules, and stores the outcome. What the web adds on top are
its own policies: only the organizer starts, removes or revokes; invite links; chosen seats
for bots; a team game starts only with every seat taken (partners sit where they sat).

Every service is keyword-only and runs in one transaction with the game row locked. A
refusal raises `LobbyRefused` (player-facing message + HTTP status) and changes nothing.
Notifications go out after commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import clocks, mail, realtime, registry
from games.access import visible_game_or_404
from games.kinds import lobby as rules
from games.kinds.protocol import resolve_options
from games.models import (
    DEFAULT_KIND,
    INVITE_LINK_LIFETIME,
    Game,
    Invitation,
    Membership,
    new_token,
)
from games.services import table

BOT_NAMES = (
    "Ada", "Blaise", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Hedy", "Niklaus", "Frances"
)  # fmt: skip


class LobbyRefused(Exception):
    """A lobby request that is refused; `message` is shown to the player as is."""

    status = 409

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class BadRequest(LobbyRefused):
    """The request names something that does not exist (a user, a seat, a membership)."""

    status = 400


class NotAllowed(LobbyRefused):
    """The user may see the game but not do this (web policy: organizer only, ...)."""

    status = 403


class Conflict(LobbyRefused):
    """The game's current state refuses it (started, full, already invited, ...)."""

    status = 409


class LinkUnusable(LobbyRefused):
    """An invite link that was used, revoked or has expired (410), or never existed (404)."""

    status = 410


# --- loading the engine's view of a game -----------------------------------------------------


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
            kind, _, ident = person.id.partition(":")
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
        return NotAllowed(error.message)
    return Conflict(error.message)


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


def _organizer_only(room: _Room, actor: User, doing: str) -> None:
    """Web policy: only the organizer starts, seats bots, removes people, revokes."""
    if room.game.organizer_id != actor.pk:
        raise NotAllowed(f"Only the organizer can {doing}.")


def _require_free_seat(room: _Room) -> None:
    if not room.free_seats():
        raise Conflict("This game is full.")


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


# --- services --------------------------------------------------------------------------------


@transaction.atomic
def create_game(
    *,
    organizer: User,
    name: str,
    public: bool,
    max_players: int,
    kind: str = DEFAULT_KIND,
    options: dict[str, Any] | None = None,
    move_seconds: int = 0,
) -> Game:
    """A new game of `kind` with `max_players` seats and rule `options` (defaults for the
    rest), and `move_seconds` on each seat's clock (0: none), waiting for players; the
    organizer takes seat 0."""
    game_kind = registry.REGISTRY.get(kind)
    if game_kind is None:
        raise BadRequest("Choose one of the games on offer.")
    if max_players not in game_kind.seat_counts:
        raise BadRequest(f"{game_kind.name} is played by {game_kind.seats_text}.")
    try:
        chosen = resolve_options(game_kind.options, options or {})
    except ValueError as error:
        raise BadRequest(str(error)) from error
    name = " ".join(name.split())[:60]
    if not name:
        raise BadRequest("Give the game a name.")
    if move_seconds not in clocks.PACE_SECONDS:
        raise BadRequest("Choose one of the clocks on offer.")
    game = Game.objects.create(
        name=name,
        kind=game_kind.slug,
        options=chosen,
        organizer=organizer,
        public=public,
        max_players=max_players,
        move_seconds=move_seconds,
    )
    room = _Room(game=game, members={}, lobby=rules.Lobby(organizer="", public=public, people=()))
    _save(room, rules.new_lobby(_user_pid(organizer), public, seats=max_players))
    _changed(room)
    return game


@transaction.atomic
def invite(*, game_id: int, by: User, username: str) -> Invitation:
    """`by` (any player) invites the user called `username` (who also gets an email)."""

    room = _locked_room(game_id, by)
    invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if invitee is None:
        raise BadRequest(f"There is nobody called “{username.strip()[:40]}”.")
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
    invites them to which game: for a friend who may have no account yet.

    Each letter goes to an address we know nothing about, so one person may send at most
    20 an hour (429): the site must not become a way to mail strangers."""
    from datetime import timedelta  # these two may join the imports at the top

    hourly_limit = 20
    since = timezone.now() - timedelta(hours=1)
    recent = Invitation.objects.filter(inviter=by, token__isnull=False, created_at__gte=since)
    if recent.count() >= hourly_limit:
        raise LobbyRefused(
            "You have sent a lot of invitations in the last hour. Try again later.", status=429
        )
    invitation = create_invite_link(game_id=game_id, by=by)
    transaction.on_commit(lambda: mail.send_invite_link(invitation, email))
    return invitation


def link_problem(invitation: Invitation | None) -> LinkUnusable | None:
    """Why an invite link cannot be used (as an error to raise), or None if it can."""
    if invitation is None:
        return LinkUnusable("This invite link does not exist.", status=404)
    if invitation.state == Invitation.State.REVOKED:
        return LinkUnusable("This invite link was revoked by the organizer.")
    if invitation.invitee_id is not None or invitation.state != Invitation.State.PENDING:
        if invitation.state == Invitation.State.EXPIRED:
            return LinkUnusable("This invite link has expired.")
        return LinkUnusable("This invite link has already been used.")
    if invitation.has_expired():
        return LinkUnusable("This invite link has expired.")
    return None


@transaction.atomic
def use_invite_link(*, token: str, user: User) -> Game:
    """`user` follows an invite link: following it is accepting it, so they take a seat.

    A member following a link is shown the game, and an invitee (invited by name) takes
    their seat; the link stays unused. A full game refuses, and the link stays usable.
    """
    found = Invitation.objects.filter(token=token).only("game_id").first()
    if found is None:
        raise LinkUnusable("This invite link does not exist.", status=404)
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
        raise LinkUnusable("This game has already started, so the link no longer works.")
    inviter = room.members.get(f"user:{link.inviter_id}")
    # A link outlives its creator's seat: then it invites on the organizer's behalf.
    by = person_id(inviter) if inviter and inviter.seat is not None else room.lobby.organizer
    try:
        after = rules.join(rules.invite(room.lobby, by, _user_pid(user)), _user_pid(user))
    except rules.LobbyError as error:
        raise Conflict(error.message) from error
    _save(room, after)
    link.invitee = user
    link.state = Invitation.State.ACCEPTED
    link.responded_at = timezone.now()
    link.save(update_fields=["invitee", "state", "responded_at"])
    _changed(room)
    return game


def _take_seat(room: _Room, user: User) -> Membership:
    _require_free_seat(room)
    try:
        after = rules.join(room.lobby, _user_pid(user))
    except rules.LobbyError as error:
        raise Conflict(error.message) from error
    _save(room, after)
    _close_invitation(room.game, user.pk, Invitation.State.ACCEPTED)
    _changed(room)
    return room.members[_user_pid(user)]


@transaction.atomic
def accept(*, game_id: int, user: User) -> Membership:
    """An invitee accepts: they become a player in the lowest free seat (in a rematch, the
    seat they had; the rematch starts once everybody invited has answered)."""
    room = _locked_room(game_id, user)
    member = room.members.get(_user_pid(user))
    if member is None or member.role != Membership.Role.INVITEE:
        if member is not None:
            raise Conflict("You are already playing in this game.")
        raise Conflict("You have no invitation to this game.")
    if room.game.status == Game.Status.ACTIVE:  # a stand-in (`stand_ins.invite_stand_in`)
        raise Conflict(
            f"This game is under way: {room.game.organizer.shown_name} gives you a seat "
            "when one is free. Open the game to watch meanwhile."
        )
    if room.game.rematch_of_id is None:
        return _take_seat(room, user)
    seat = _old_seat(room, user.pk)
    _require_free_seat(room)
    try:
        after = rules.join(room.lobby, _user_pid(user))
    except rules.LobbyError as error:
        raise Conflict(error.message) from error
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
        raise Conflict(error.message) from error
    _save(room, after)
    _close_invitation(room.game, user.pk, Invitation.State.DECLINED)
    game = room.game
    if game.rematch_of_id is not None and game.status == Game.Status.WAITING:
        seat = _old_seat(room, user.pk)
        if seat is not None and seat in room.free_seats():
            _seat_bot_for(room, seat, note=f"{user.shown_name} declined the rematch")
        if _start_if_answered(room, also=[user.pk]):
            return
    _changed(room, also=[user.pk])


@transaction.atomic
def join(*, game_id: int, user: User) -> Membership:
    """Anyone takes the lowest free seat of a public game (an invitee accepts)."""
    room = _locked_room(game_id, user)
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
    _organizer_only(room, by, "add a bot")
    if not 0 <= seat < room.game.max_players:
        raise BadRequest("That seat does not exist.")
    levels = dict(registry.kind(room.game.kind).bot_levels)
    if level and level not in levels:
        raise BadRequest("This game has no bot of that level.")
    if room.game.status == Game.Status.WAITING and seat not in room.free_seats():
        raise Conflict("That seat is taken.")
    taken = {m.bot_name for m in room.members.values() if m.is_bot}
    name = next((f"Bot {n}" for n in BOT_NAMES if f"Bot {n}" not in taken), f"Bot {len(taken) + 1}")
    try:
        after = rules.add_bot(room.lobby, _user_pid(by), f"bot:{name}")
    except rules.LobbyError as error:
        raise Conflict(error.message) from error
    _save(room, after, seat=seat, level=level)
    _changed(room)
    return room.members[f"bot:{name}"]


@transaction.atomic
def remove(*, game_id: int, by: User, membership_id: int) -> None:
    """The organizer removes a player, a bot or an invitee (which un-invites them)."""
    room = _locked_room(game_id, by)
    _organizer_only(room, by, "remove people")
    member = next((m for m in room.members.values() if m.pk == membership_id), None)
    if member is None:
        raise BadRequest("That person is not in this game.")
    try:
        after = rules.remove(room.lobby, _user_pid(by), person_id(member))
    except rules.LobbyError as error:
        raise Conflict(error.message) from error
    _save(room, after)
    also = []
    if member.user_id is not None:
        _close_invitation(room.game, member.user_id, Invitation.State.REVOKED)
        also.append(member.user_id)
    _changed(room, also=also)


@transaction.atomic
def revoke_invitation(*, game_id: int, by: User, invitation_id: int) -> Invitation:
    """The organizer withdraws a pending invitation (by name: the invitee leaves; link: dead)."""
    room = _locked_room(game_id, by)
    _organizer_only(room, by, "revoke invitations")
    invitation = Invitation.objects.filter(pk=invitation_id, game=room.game).first()
    if invitation is None:
        raise BadRequest("There is no such invitation in this game.")
    if invitation.state != Invitation.State.PENDING:
        raise Conflict(f"This invitation is already {invitation.get_state_display().lower()}.")
    also = []
    if invitation.invitee_id is not None:
        member = room.members.get(f"user:{invitation.invitee_id}")
        if member is not None and member.role == Membership.Role.INVITEE:
            try:
                after = rules.remove(room.lobby, _user_pid(by), person_id(member))
            except rules.LobbyError as error:
                raise Conflict(error.message) from error
            _save(room, after)
        also.append(invitation.invitee_id)
    elif room.game.status != Game.Status.WAITING:
        raise Conflict("The game has already started.")
    invitation.state = Invitation.State.REVOKED
    invitation.responded_at = timezone.now()
    invitation.save(update_fields=["state", "responded_at"])
    _changed(room, also=also)
    return invitation


@transaction.atomic
def start_game(*, game_id: int, by: User) -> Game:
    """The organizer starts with a player count the game allows: seats become 0..n-1 in
    seat order (a team game is full, so nobody moves), pending invitations lapse, and the
    table deals the first hand."""
    room = _locked_room(game_id, by)
    _organizer_only(room, by, "start the game")
    return _start(room, _user_pid(by))


def _start(room: _Room, by: str, *, also: Iterable[int] = ()) -> Game:
    """Start the game of `room` (locked) on behalf of `by` (an engine id): `start_game`, and
    a rematch whose invitations have all been answered. `also`: more users whose lobby
    lists change."""
    try:
        after = rules.start(room.lobby, by)
    except rules.LobbyError as error:
        raise Conflict(error.message) from error
    lapsed = [m.user_id for m in _save(room, after) if m.user_id is not None]
    game = room.game
    now = timezone.now()
    Invitation.objects.filter(game=game, state=Invitation.State.PENDING).update(
        state=Invitation.State.EXPIRED, responded_at=now
    )
    # Compact seats in ascending order: each target seat is free by then (unique seats).
    for index, member in enumerate(room.seated()):
        if member.seat != index:
            member.seat = index
            member.save(update_fields=["seat"])
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.save(update_fields=["status", "started_at"])
    table.begin(game)
    _changed(room, also=[*lapsed, *also])
    game_id = game.pk
    transaction.on_commit(lambda: realtime.game_started(game_id))
    return game


# --- rematches (games/services/rematch.py) ---------------------------------------------------


def _old_seat(room: _Room, user_id: int) -> int | None:
    """The seat `user_id` had in the game this one is a rematch of (None: none)."""
    if room.game.rematch_of_id is None:
        return None
    return (
        Membership.objects.filter(
            game_id=room.game.rematch_of_id, user_id=user_id, seat__isnull=False
        )
        .values_list("seat", flat=True)
        .first()
    )


def _seat_bot_for(room: _Room, seat: int, *, note: str) -> Membership:
    """Seat a bot of the game's default level in `seat` (free) of the waiting `room`, on
    the organizer's behalf, with `note` saying why (shown with its name)."""
    taken = {m.bot_name for m in room.members.values() if m.is_bot}
    name = next((f"Bot {n}" for n in BOT_NAMES if f"Bot {n}" not in taken), f"Bot {len(taken) + 1}")
    try:
        after = rules.add_bot(room.lobby, room.lobby.organizer, f"bot:{name}")
    except rules.LobbyError as error:
        raise Conflict(error.message) from error
    _save(room, after, seat=seat)
    bot = room.members[f"bot:{name}"]
    bot.cover_note = note[:80]
    bot.save(update_fields=["cover_note"])
    return bot


def _start_if_answered(room: _Room, *, also: Iterable[int] = ()) -> bool:
    """Start a waiting rematch (locked) once nobody's invitation is pending; True if it
    started. A count of players the game does not allow leaves it to the organizer."""
    game = room.game
    if game.rematch_of_id is None or game.status != Game.Status.WAITING:
        return False
    pending = Invitation.objects.filter(
        game=game, state=Invitation.State.PENDING, invitee__isnull=False
    )
    if pending.exists():
        return False
    try:
        _start(room, room.lobby.organizer, also=also)
    except Conflict:
        return False
    return True


def start_rematch_if_answered(game: Game) -> bool:
    """`game`, a rematch just seated (row locked or just created): start it at once when
    nobody was invited (every other seat a bot). True if it started."""
    return _start_if_answered(_room(game))


# --- stand-ins: inviting somebody to take an absent player's seat (services/absence.py) --
