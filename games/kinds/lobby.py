"""The lobby before a game starts: who organizes, who is invited, who plays. Every game.

Pure functions over an immutable `Lobby`; each refuses with `LobbyError` (a player-facing
message). Seats are given by join order: `players(lobby)` is the seating of the game. The
table's size (`seats`) and the player counts the game allows (`seat_counts`) come from the
game kind; the defaults are Hundred and Ten's (rules section 2), whose seed library this
module first served.

Decisions where the seed library leaves room:
* the organizer cannot leave (they remove other people or simply never start the game);
* an invitee who joins takes the next seat (join order), not the place of their invitation;
* everybody, bots included, is a `Person`; bots are added by the organizer only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from .words import Phrase, gettext_noop

MAX_PLAYERS = 4
MIN_PLAYERS = 2
NUMBERS = (
    # Translators: a number of players in words (here and below), in "At least %(count)s
    # players are needed to start."
    gettext_noop("no"),
    gettext_noop("one"),
    gettext_noop("two"),
    gettext_noop("three"),
    gettext_noop("four"),
    gettext_noop("five"),
    gettext_noop("six"),
    gettext_noop("seven"),
    gettext_noop("eight"),
    gettext_noop("nine"),
    gettext_noop("ten"),
)


class Role(StrEnum):
    ORGANIZER = "organizer"
    PLAYER = "player"
    INVITEE = "invitee"


class LobbyError(Exception):
    """A lobby action the rules refuse; `str(error)` is a player-facing sentence, in English.

    As with `IllegalAction` (games/kinds/protocol.py), `message` is a `Phrase` of a message
    marked with `gettext_noop` and its `params`, which the Django side translates when it
    shows it (games/phrases.py `refusal_text`)."""

    def __init__(self, message: str, params: Mapping[str, object] | None = None) -> None:
        self.message = Phrase(message, params)
        super().__init__(self.message)


@dataclass(frozen=True, slots=True)
class Person:
    """Somebody in the lobby: an id chosen by the caller, roles, and whether it is a bot."""

    id: str
    roles: frozenset[Role]
    bot: bool = False

    @property
    def is_player(self) -> bool:
        return Role.PLAYER in self.roles


@dataclass(frozen=True, slots=True)
class Lobby:
    """People in join order; `started` once the organizer started the game. At most `seats`
    players; the game starts with any count in `seat_counts`."""

    organizer: str
    public: bool
    people: tuple[Person, ...]
    started: bool = False
    seats: int = MAX_PLAYERS
    seat_counts: tuple[int, ...] = (2, 3, 4)


def new_lobby(
    organizer_id: str,
    public: bool = False,
    *,
    seats: int = MAX_PLAYERS,
    seat_counts: tuple[int, ...] = (2, 3, 4),
) -> Lobby:
    """A lobby with its organizer, who is also its first player (seat 0)."""
    organizer = Person(organizer_id, frozenset({Role.ORGANIZER, Role.PLAYER}))
    return Lobby(
        organizer=organizer_id,
        public=public,
        people=(organizer,),
        seats=seats,
        seat_counts=seat_counts,
    )


def counted(count: int) -> str:
    """A small number in words ("two", a `Phrase` to translate), larger ones in digits."""
    return Phrase(NUMBERS[count]) if 0 <= count < len(NUMBERS) else str(count)


def describe_counts(counts: tuple[int, ...]) -> str:
    """ "2 to 4", "4 or 6", "4": the player counts a game allows, for a sentence (a `Phrase`
    to translate where it has words)."""
    ordered = sorted(counts)
    if len(ordered) == 1:
        return str(ordered[0])
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        # Translators: the player counts a game allows, e.g. "2 to 4" (players).
        return Phrase(gettext_noop("%(low)s to %(high)s"), {"low": ordered[0], "high": ordered[-1]})
    return Phrase(
        # Translators: the player counts a game allows, e.g. "4, 6 or 8" (players).
        gettext_noop("%(counts)s or %(last)s"),
        {"counts": ", ".join(map(str, ordered[:-1])), "last": ordered[-1]},
    )


def find(lobby: Lobby, person_id: str) -> Person | None:
    """The person with id `person_id`, or None."""
    return next((p for p in lobby.people if p.id == person_id), None)


def players(lobby: Lobby) -> tuple[str, ...]:
    """Ids of the players, in seat order."""
    return tuple(p.id for p in lobby.people if p.is_player)


def _not_started(lobby: Lobby) -> None:
    if lobby.started:
        raise LobbyError(gettext_noop("The game has already started."))


def _must_be_organizer(lobby: Lobby, by: str, refusal: str) -> None:
    """LobbyError(`refusal`, a whole sentence) unless `by` organizes the game."""
    if by != lobby.organizer:
        raise LobbyError(refusal)


def _seat_free(lobby: Lobby) -> None:
    if len(players(lobby)) >= lobby.seats:
        raise LobbyError(gettext_noop("This game is full."))


def invite(lobby: Lobby, by: str, invitee_id: str) -> Lobby:
    """`by` (any player) invites `invitee_id`."""
    _not_started(lobby)
    inviter = find(lobby, by)
    if inviter is None or not inviter.is_player:
        raise LobbyError(gettext_noop("Only players of this game can invite."))
    existing = find(lobby, invitee_id)
    if existing is not None:
        if existing.is_player:
            raise LobbyError(gettext_noop("They are already playing in this game."))
        raise LobbyError(gettext_noop("They have already been invited."))
    return replace(lobby, people=(*lobby.people, Person(invitee_id, frozenset({Role.INVITEE}))))


def join(lobby: Lobby, who: str) -> Lobby:
    """`who` takes the next seat: anyone in a public game, only invitees in a private one."""
    _not_started(lobby)
    existing = find(lobby, who)
    if existing is not None and existing.is_player:
        raise LobbyError(gettext_noop("You are already playing in this game."))
    invited = existing is not None and Role.INVITEE in existing.roles
    if not lobby.public and not invited:
        raise LobbyError(gettext_noop("This game is private: you need an invitation to join."))
    _seat_free(lobby)
    people = tuple(p for p in lobby.people if p.id != who)
    return replace(lobby, people=(*people, Person(who, frozenset({Role.PLAYER}))))


def decline(lobby: Lobby, who: str) -> Lobby:
    """An invitee turns the invitation down."""
    existing = find(lobby, who)
    if existing is None or existing.roles != frozenset({Role.INVITEE}):
        raise LobbyError(gettext_noop("You have no invitation to decline."))
    return replace(lobby, people=tuple(p for p in lobby.people if p.id != who))


def leave(lobby: Lobby, who: str) -> Lobby:
    """A player other than the organizer leaves before the start."""
    _not_started(lobby)
    existing = find(lobby, who)
    if existing is None or not existing.is_player:
        raise LobbyError(gettext_noop("You are not playing in this game."))
    if who == lobby.organizer:
        raise LobbyError(gettext_noop("The organizer cannot leave the game."))
    return replace(lobby, people=tuple(p for p in lobby.people if p.id != who))


def add_bot(lobby: Lobby, by: str, bot_id: str) -> Lobby:
    """The organizer seats a bot."""
    _not_started(lobby)
    _must_be_organizer(lobby, by, gettext_noop("Only the organizer can add a bot."))
    if find(lobby, bot_id) is not None:
        raise LobbyError(gettext_noop("That name is already taken in this game."))
    _seat_free(lobby)
    bot = Person(bot_id, frozenset({Role.PLAYER}), bot=True)
    return replace(lobby, people=(*lobby.people, bot))


def remove(lobby: Lobby, by: str, who: str) -> Lobby:
    """The organizer removes a player, bot or invitee (not themselves)."""
    _not_started(lobby)
    _must_be_organizer(lobby, by, gettext_noop("Only the organizer can remove people."))
    if who == by:
        raise LobbyError(gettext_noop("You cannot remove yourself."))
    if find(lobby, who) is None:
        raise LobbyError(gettext_noop("There is nobody by that name in this game."))
    return replace(lobby, people=tuple(p for p in lobby.people if p.id != who))


def start(lobby: Lobby, by: str) -> Lobby:
    """The organizer starts the game with a player count it allows; invitations lapse."""
    _must_be_organizer(lobby, by, gettext_noop("Only the organizer can start the game."))
    _not_started(lobby)
    count = len(players(lobby))
    if count < min(lobby.seat_counts):
        raise LobbyError(
            gettext_noop("At least %(count)s players are needed to start."),
            {"count": counted(min(lobby.seat_counts))},
        )
    if count not in lobby.seat_counts:
        raise LobbyError(
            # Translators: %(counts)s is e.g. "2 to 4" or "4 or 6".
            gettext_noop("This game is played by %(counts)s players, not %(count)s."),
            {"counts": describe_counts(lobby.seat_counts), "count": count},
        )
    return replace(lobby, people=tuple(p for p in lobby.people if p.is_player), started=True)
