"""Rematches: a finished game's players play again, same game, options and seats.

Whoever asks organizes the rematch and sits where they sat; bots are seated again at once
(same seat, level and name); every other player is invited by name, as `lobby.invite`
does. Accepting seats them where they sat, declining gives their seat to a bot
(`games.services.lobby.accept`/`decline`), and the rematch starts by itself once everybody
has answered, or at once when nobody was invited.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import blocking
from games import mail
from games.live import realtime
from games.models import Game, Invitation, Membership
from games.services.errors import NotAPlayer, RefusedMove
from games.services.lobby.rematches import start_rematch_if_answered
from games.services.states import seated

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def rematch(*, game_id: int, user: User) -> Game:
    """A new game of the same kind, options and seats, waiting for the invited players'
    answers (started at once if every other seat is a bot); one per finished game. Whoever
    asks becomes its organizer; automated seats are invited like the others."""
    game = Game.objects.select_for_update().get(pk=game_id)
    members = seated(game)
    mine = next((m for m in members.values() if m.user_id == user.pk), None)
    if mine is None:
        raise NotAPlayer(_("Only the players of this game can start a rematch."))
    if game.status != Game.Status.FINISHED:
        raise RefusedMove(_("A rematch can start once the game is over."))
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
        move_seconds=game.move_seconds,
        rated=game.rated,  # a rematch counts like the game it repeats
        rematch_of=game,
    )
    invited: list[tuple[int, int]] = []  # (user id, invitation id)
    # Nobody blocked either way is invited (accounts/blocking.py): their seat stays free.
    blocked = blocking.blocked_either_way(user.pk)
    for seat, member in sorted(members.items()):
        if member.user_id is not None and member.user_id in blocked:
            continue
        if member.user_id == user.pk:
            Membership.objects.create(
                game=new, user=user, role=Membership.Role.ORGANIZER, seat=seat
            )
        elif member.is_bot:
            Membership.objects.create(
                game=new,
                role=Membership.Role.PLAYER,
                seat=seat,
                bot=member.bot,
                bot_name=member.bot_name,
            )
        elif member.user_id is not None:
            Membership.objects.create(
                game=new, user_id=member.user_id, role=Membership.Role.INVITEE
            )
            invitation = Invitation.objects.create(
                game=new, inviter=user, invitee_id=member.user_id
            )
            mail.invitation_sent(invitation)
            invited.append((member.user_id, invitation.pk))
    if not start_rematch_if_answered(new):  # started: the lobby told everybody already
        people = [user.pk, *(uid for uid, _ in invited)]
        transaction.on_commit(lambda: realtime.lobby_changed(people))
        if new.public:  # the open games list may show it
            transaction.on_commit(realtime.public_games_changed)

    def announce() -> None:  # each invitee gets the notice with accept / decline
        for invitee_id, invitation_id in invited:
            realtime.invitation_received(invitee_id, invitation_id)

    transaction.on_commit(announce)
    game.version += 1  # the old table now shows the way to the rematch
    game.save(update_fields=["version"])
    old_id, version = game.pk, game.version
    transaction.on_commit(lambda: realtime.game_changed(old_id, version))
    return new
