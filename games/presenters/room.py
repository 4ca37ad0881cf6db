"""What the waiting room shows a user, a member or an outsider of a public game: the game's
options and clock, its seats (a bot's level, a seat a rematch keeps for its invitee), the
invitees, the user's invite links and which buttons they get."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.addresses import verified_address
from accounts.friends import friend_ids
from games import registry
from games.clocks import turns
from games.gamekind import GameKind
from games.models import Game, Invitation, Membership
from games.ratings import board
from games.ratings.scale import Shown
from games.services import friends

if TYPE_CHECKING:
    from accounts.models import User


def _pace_text(game: Game) -> list[str]:
    """The game's clock, e.g. ["Clock: 30 s per move"] (nothing without one)."""
    text = turns.pace_text(game.move_seconds)
    return [_("Clock: %(pace)s") % {"pace": text}] if text else []


def _options_text(kind: GameKind, chosen: dict[str, Any]) -> list[str]:
    """The game's rule options as chosen, e.g. ["Play to: 100 points"]."""
    texts = []
    for option in kind.options:
        value = chosen.get(option.name, option.default)
        label = next((label for v, label in option.choices if v == value), str(value))
        # Translators: a rule option as chosen, e.g. "Play to: 100 points".
        texts.append(_("%(option)s: %(choice)s") % {"option": option.label, "choice": label})
    return texts


@dataclass(frozen=True)
class Seat:
    number: int  # 1-based, as people count
    index: int  # 0-based, as the services want it
    member: Membership | None
    team: int | None = None
    levels: dict[str, str] | None = None  # the game's bot levels: level -> label
    kept_for: str = ""  # a rematch's invitee who sat here last game (the seat is theirs)
    rating: Shown | None = None  # the seat's player's (or bot level's) rating in this game

    @property
    def role(self) -> str:
        if self.member is None:
            # Translators: a seat nobody sits in yet.
            return _("Empty")
        if self.member.is_bot:
            return str((self.levels or {}).get(self.member.bot, _("Bot")))
        return str(self.member.get_role_display())


def _kept_seats(game: Game, invitees: list[tuple[Membership, Invitation | None]]) -> dict[int, str]:
    """A rematch's seats kept for its invitees (the seat each had last game), by seat."""
    if game.rematch_of_id is None or not invitees:
        return {}
    names = {m.user_id: m.name for m, _invitation in invitees if m.user_id is not None}
    last = Membership.objects.filter(
        game_id=game.rematch_of_id, user_id__in=names, seat__isnull=False
    ).values_list("seat", "user_id")
    return {seat: names[user_id] for seat, user_id in last if seat is not None and user_id}


def room_context(game: Game, user: User, error: str = "") -> dict[str, Any]:
    """What the waiting room shows `user`; works for members and for outsiders of a public
    game (who see no invite links and get a Join button)."""
    memberships = list(game.memberships.select_related("user"))
    by_seat = {m.seat: m for m in memberships if m.seat is not None}
    me = next((m for m in memberships if user.is_authenticated and m.user_id == user.pk), None)
    seated = me is not None and me.seat is not None
    is_organizer = user.is_authenticated and game.organizer_id == user.pk
    waiting = game.status == Game.Status.WAITING
    pending = Invitation.objects.filter(game=game, state=Invitation.State.PENDING).select_related(
        "inviter"
    )
    invitations = {i.invitee_id: i for i in pending if i.invitee_id is not None}
    invitees = [
        (m, invitations.get(m.user_id or 0))
        for m in memberships
        if m.role == Membership.Role.INVITEE
    ]
    links: list[Invitation] = []
    if seated and waiting:
        mine = pending.filter(token__isnull=False, invitee__isnull=True)
        links = [
            link
            for link in mine.order_by("-created_at")
            if not link.has_expired() and (is_organizer or link.inviter_id == user.pk)
        ]
    player_count = len(by_seat)
    free = player_count < game.max_players
    kind = registry.kind(game.kind)
    team_game = kind.teams is not None
    can_start_with = (game.max_players,) if team_game else kind.seat_counts
    levels = dict(kind.bot_levels)
    kept = _kept_seats(game, invitees) if waiting else {}
    ratings = board.of_members(kind, by_seat.values())
    can_invite = seated and waiting
    return {
        "game": game,
        "kind": kind,
        "team_game": team_game,
        "options": [*_options_text(kind, game.options), *_pace_text(game)],
        "me": me,
        "seats": [
            Seat(
                n + 1,
                n,
                by_seat.get(n),
                kind.team_of(n, game.max_players),
                levels,
                kept.get(n, "") if n not in by_seat else "",
                ratings.get(by_seat[n].pk) if n in by_seat else None,
            )
            for n in range(game.max_players)
        ],
        # A rematch starts by itself once everybody invited has answered.
        "is_rematch": game.rematch_of_id is not None,
        "invitees": invitees,
        "links": links,
        "player_count": player_count,
        "waiting": waiting,
        "is_organizer": is_organizer,
        "is_player": seated,
        "is_invitee": me is not None and me.role == Membership.Role.INVITEE,
        "my_invitation": invitations.get(user.pk) if user.is_authenticated else None,
        "can_invite": can_invite,
        # One-click invitations in the invite box: friends first, then recent opponents.
        "suggestions": friends.invite_suggestions(user, game) if can_invite else [],
        "friend_ids": friend_ids(user.pk) if can_invite else set(),
        # Emailing invitations needs a verified address (games/services/lobby/letter_limits.py).
        "can_mail_invites": seated and waiting and bool(verified_address(user.pk)),
        "can_join": me is None and waiting and game.public and free,
        "can_start": is_organizer and waiting and player_count in can_start_with,
        "start_needs": ngettext(
            "%(count)s player (every seat)", "%(count)s players (every seat)", game.max_players
        )
        % {"count": game.max_players}
        if team_game
        else kind.seats_text,
        "free_seat": free,
        "error": error,
    }
