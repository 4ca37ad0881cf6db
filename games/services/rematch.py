"""Rematches: a finished game's players play again, same game, options and seats."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import realtime
from games.models import Game, Membership
from games.services.table import NotAPlayer, RefusedMove, begin, seated


@transaction.atomic
def rematch(*, game_id: int, user: Any) -> Game:
    """A new game of the same kind, options and seats (bots too), started at once; one per
    finished game. Whoever asks becomes its organizer; automated seats get their humans back.
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    members = seated(game)
    mine = next((m for m in members.values() if m.user_id == user.pk), None)
    if mine is None:
        raise NotAPlayer("Only the players of this game can start a rematch.")
    if game.status != Game.Status.FINISHED:
        raise RefusedMove("A rematch can start once the game is over.")
    existing = Game.objects.filter(rematch_of=game).order_by("created_at").first()
    if existing is not None:
        return existing
    new = Game.objects.create(
        name=game.name if game.name.endswith("(rematch)") else f"{game.name} (rematch)"[:60],
        kind=game.kind,
        options=game.options,
        organizer=user,
        public=game.public,
        max_players=game.max_players,
        rematch_of=game,
    )
    for seat, member in sorted(members.items()):
        Membership.objects.create(
            game=new,
            user=member.user,
            role=Membership.Role.ORGANIZER if member.user_id == user.pk else Membership.Role.PLAYER,
            seat=seat,
            bot=member.bot,
            bot_name=member.bot_name,
        )
    begin(new)
    game.version += 1  # the old table now shows the way to the rematch
    game.save(update_fields=["version"])
    old_id, version = game.pk, game.version
    transaction.on_commit(lambda: realtime.game_changed(old_id, version))
    return new
