"""A game's waiting room from its creation (`create_game`: the organizer in seat 0) to its
start (`start_game`: seats compacted, pending invitations lapsed, the first hand dealt)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.clocks import turns
from games.kinds import lobby as rules
from games.kinds.protocol import resolve_options
from games.live import realtime
from games.models import DEFAULT_KIND, Game, Invitation
from games.phrases import refusal_text
from games.services import table
from games.services.lobby.refusals import BadRequest, Conflict
from games.services.lobby.room import (
    _changed,
    _locked_room,
    _organizer_only,
    _Room,
    _save,
    _user_pid,
)


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
    rated: str = Game.Rated.PEOPLE,
) -> Game:
    """A new game of `kind` with `max_players` seats and rule `options` (defaults for the
    rest), and `move_seconds` on each seat's clock (0: none), waiting for players; the
    organizer takes seat 0."""
    game_kind = registry.REGISTRY.get(kind)
    if game_kind is None:
        raise BadRequest(_("Choose one of the games on offer."))
    if max_players not in game_kind.seat_counts:
        raise BadRequest(
            _("%(game)s is played by %(players)s.")
            % {"game": game_kind.name, "players": game_kind.seats_text}
        )
    try:
        chosen = resolve_options(game_kind.options, options or {})
    except ValueError as error:
        raise BadRequest(str(error)) from error
    name = " ".join(name.split())[:60]
    if not name:
        raise BadRequest(_("Give the game a name."))
    if move_seconds not in turns.PACE_SECONDS:
        raise BadRequest(_("Choose one of the clocks on offer."))
    if rated not in Game.Rated.values:
        raise BadRequest(_("Choose one of the rating choices."))
    game = Game.objects.create(
        name=name,
        kind=game_kind.slug,
        options=chosen,
        organizer=organizer,
        public=public,
        max_players=max_players,
        move_seconds=move_seconds,
        rated=rated,
    )
    room = _Room(game=game, members={}, lobby=rules.Lobby(organizer="", public=public, people=()))
    _save(room, rules.new_lobby(_user_pid(organizer), public, seats=max_players))
    _changed(room)
    return game


@transaction.atomic
def start_game(*, game_id: int, by: User) -> Game:
    """The organizer starts with a player count the game allows: seats become 0..n-1 in
    seat order (a team game is full, so nobody moves), pending invitations lapse, and the
    table deals the first hand."""
    room = _locked_room(game_id, by)
    _organizer_only(room, by, _("Only the organizer can start the game."))
    return _start(room, _user_pid(by))


def _start(room: _Room, by: str, *, also: Iterable[int] = ()) -> Game:
    """Start the game of `room` (locked) on behalf of `by` (an engine id): `start_game`, and
    a rematch whose invitations have all been answered. `also`: more users whose lobby
    lists change."""
    try:
        after = rules.start(room.lobby, by)
    except rules.LobbyError as error:
        raise Conflict(refusal_text(error)) from error
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
