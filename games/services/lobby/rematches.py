"""A rematch's waiting room (created by `games.services.rematch`): each player's seat from
the game before, a bot for whoever declines, and the start once everybody invited has
answered (or at once when nobody was)."""

from __future__ import annotations

from collections.abc import Iterable

from games.kinds import lobby as rules
from games.models import Game, Invitation, Membership
from games.phrases import refusal_text
from games.services.lobby.refusals import Conflict
from games.services.lobby.room import _Room, _room, _save
from games.services.lobby.seating import BOT_NAMES
from games.services.lobby.starting import _start


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
        raise Conflict(refusal_text(error)) from error
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
