"""What the lobby lists show a user: their turns, games in progress, invitations, games
waiting for players, friends' games, open public games, games to watch, their latest past
games and their friends (games/services/friends.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.friends import circle
from games import registry
from games.models import Game, Invitation, Membership
from games.ratings import board
from games.ratings.scale import Shown
from games.services import friends, past_games

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class Listing:
    """One game in a lobby list: its name, who plays, its state and where it leads."""

    game: Game
    players: list[str]
    url: str
    status: str
    invitation: Invitation | None = None
    # The players again, with their player pages (names link to them; bots do not).
    people: tuple[past_games.Person, ...] = ()

    @property
    def seats_text(self) -> str:
        seats = self.game.max_players
        return ngettext(
            "%(count)s of %(seats)s player", "%(count)s of %(seats)s players", seats
        ) % {
            "count": len(self.players),
            "seats": seats,
        }

    @property
    def kind_name(self) -> str:
        return registry.kind(self.game.kind).name


Ratings = dict[tuple[str, int], Shown]


def _listing(game: Game, ratings: Ratings, invitation: Invitation | None = None) -> Listing:
    members = sorted(
        (m for m in game.memberships.all() if m.seat is not None), key=lambda m: m.seat or 0
    )
    waiting = game.status == Game.Status.WAITING
    status = str(game.get_status_display())
    at_turn = [m for m in members if m.must_act]
    if game.status == Game.Status.ACTIVE and len(at_turn) == 1:
        # Translators: "status" is the game's ("In progress"); then whose turn it is.
        status = _("%(status)s · %(name)s to play") % {"status": status, "name": at_turn[0].name}
    elif game.status == Game.Status.ACTIVE and at_turn:
        status = ngettext(
            "%(status)s · %(count)s player choosing",
            "%(status)s · %(count)s players choosing",
            len(at_turn),
        ) % {"status": status, "count": len(at_turn)}
    return Listing(
        game=game,
        players=[m.name for m in members],
        url=reverse("waiting-room" if waiting else "table", args=[game.pk]),
        status=status,
        invitation=invitation,
        people=tuple(
            past_games.person_of(m, ratings.get((game.kind, m.user_id or 0), Shown.start()))
            for m in members
        ),
    )


def lobby_context(user: User, error: str = "") -> dict[str, Any]:
    """Everything the lobby lists show `user` (rendered again on every lobby push)."""
    ties = circle(user.pk)  # friends, requests and blocks: one query
    games = Game.objects.with_people()
    invitations = (
        Invitation.objects.filter(
            invitee=user, state=Invitation.State.PENDING, game__status=Game.Status.WAITING
        )
        .select_related("game", "inviter")
        .prefetch_related(
            Prefetch("game__memberships", queryset=Membership.objects.select_related("user"))
        )
        .order_by("-created_at")
    )
    lists = {
        "your_turn": list(games.your_turn(user).order_by("-started_at")),
        "in_progress": list(games.in_progress_for(user).order_by("-started_at")),
        "waiting": list(games.waiting_for(user).order_by("-created_at")),
        "open_games": list(games.open_to(user).order_by("-created_at")[:20]),
        # Public games in progress the user may watch.
        "watch": list(past_games.watchable(user)),
        # Public games waiting for players in which a friend plays (docs/friends.md).
        "friends_games": list(friends.friends_games(user, ties)),
    }
    invited = [(i.game, i) for i in invitations]
    # Everybody's rating by their name, in the game listed: one query for every list.
    ratings = board.of_people(
        (game.kind, m.user_id)
        for game in [
            *(g for listed in lists.values() for g in listed),
            *(g for g, _invitation in invited),
        ]
        for m in game.memberships.all()
        if m.user_id is not None and m.seat is not None
    )
    return {
        **{name: [_listing(g, ratings) for g in listed] for name, listed in lists.items()},
        "invitations": [_listing(g, ratings, i) for g, i in invited],
        "past_games": past_games.latest_past(user),
        "friends": friends.panel(user, ties),
        "error": error,
    }
