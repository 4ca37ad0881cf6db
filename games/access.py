"""Who may see what. Private means private: a non-member gets a 404, never a hint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404

from games.models import Game, Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


def visible_game_or_404(
    user: User | AnonymousUser, game_id: int, *, for_update: bool = False
) -> Game:
    """The game if `user` may see it (a member, or anyone for a public game), else 404.

    With `for_update`, the row is locked (call inside a transaction).
    """
    games = Game.objects.select_related("organizer")
    if for_update:
        games = games.select_for_update(of=("self",))
    try:
        game = games.get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    if game.public:
        return game
    if user.is_authenticated and game.memberships.filter(user=user).exists():
        return game
    raise Http404("No such game.")


def membership_of(user: User | AnonymousUser, game: Game) -> Membership | None:
    if not user.is_authenticated:
        return None
    return game.memberships.filter(user=user).select_related("user").first()
