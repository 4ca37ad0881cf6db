"""What the lobby lists show a user: their turns, games in progress, invitations, games
waiting for players, open public games, games to watch and their latest past games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.urls import reverse

from games import registry
from games.models import Game, Invitation, Membership
from games.services import past_games


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
        return f"{len(self.players)} of {self.game.max_players} players"

    @property
    def kind_name(self) -> str:
        return registry.kind(self.game.kind).name


def _listing(game: Game, invitation: Invitation | None = None) -> Listing:
    members = sorted(
        (m for m in game.memberships.all() if m.seat is not None), key=lambda m: m.seat or 0
    )
    waiting = game.status == Game.Status.WAITING
    status = str(game.get_status_display())
    at_turn = [m for m in members if m.must_act]
    if game.status == Game.Status.ACTIVE and len(at_turn) == 1:
        status = f"{status} · {at_turn[0].name} to play"
    elif game.status == Game.Status.ACTIVE and at_turn:
        status = f"{status} · {len(at_turn)} players choosing"
    return Listing(
        game=game,
        players=[m.name for m in members],
        url=reverse("waiting-room" if waiting else "table", args=[game.pk]),
        status=status,
        invitation=invitation,
        people=tuple(past_games.person_of(m) for m in members),
    )


def lobby_context(user: Any, error: str = "") -> dict[str, Any]:
    """Everything the lobby lists show `user` (rendered again on every lobby push)."""
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
    return {
        "your_turn": [_listing(g) for g in games.your_turn(user).order_by("-started_at")],
        "in_progress": [_listing(g) for g in games.in_progress_for(user).order_by("-started_at")],
        "invitations": [_listing(i.game, i) for i in invitations],
        "waiting": [_listing(g) for g in games.waiting_for(user).order_by("-created_at")],
        "open_games": [_listing(g) for g in games.open_to(user).order_by("-created_at")[:20]],
        # Public games in progress the user may watch, and their own latest past games.
        "watch": [_listing(g) for g in past_games.watchable(user)],
        "past_games": past_games.latest_past(user),
        "error": error,
    }
