"""What a change to a person means for their games.

A table's names come from its shared part, kept per game version and process
(`games.presenters.basis.table_basis`), so a new display name must change the version of every game
that shows it: then every process draws it on the next render, reloads included, and the
open pages are told at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import F

from games.live import realtime
from games.models import Game, Membership

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def shown_name_changed(*, user: User) -> None:
    """`user`'s shown name changed: bump the version of every game they are a member of
    (finished ones too: their tables still show it), then, after commit, redraw those games'
    open pages and the lobby lists of the people in their games under way."""
    game_ids = list(
        Membership.objects.filter(user=user).values_list("game_id", flat=True).distinct()
    )
    if not game_ids:
        return
    # F(): a move committing meanwhile keeps its own bump (the row lock orders the two).
    Game.objects.filter(pk__in=game_ids).update(version=F("version") + 1)
    games = list(
        Game.objects.filter(pk__in=game_ids).values_list("pk", "version", "status", "public")
    )
    unfinished = [pk for pk, _, status, _ in games if status != Game.Status.FINISHED]
    # Open public games, and public games in progress ("Watch a game"), list their players
    # to everybody on the lobby.
    listed = any(
        public and status in (Game.Status.WAITING, Game.Status.ACTIVE)
        for _, _, status, public in games
    )
    people = set(
        Membership.objects.filter(game_id__in=unfinished, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )

    def notify() -> None:
        for pk, version, _, _ in games:
            realtime.game_changed(pk, version)
        if people:  # the lists name the players; nobody's turn changed
            realtime.lobby_changed(people, banner_for=())
        if listed:
            realtime.public_games_changed()

    transaction.on_commit(notify)


def on_shown_name_changed(sender: Any, *, user: User, **_: Any) -> None:
    """Connected to `accounts.signals.shown_name_changed` (GamesConfig.ready)."""
    shown_name_changed(user=user)
