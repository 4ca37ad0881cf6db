"""Past games and player pages: HTTP in, HTML out (games/services/past_games.py and
player_page.py read).

Signed-in users only. A player page answers 404 for an unknown or inactive username.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts import friends
from accounts.http import AuthedRequest
from accounts.models import User
from games import registry
from games.ratings import board
from games.services import friends as people
from games.services import past_games as service
from games.services import player_page as player_service


@require_GET
@login_required
def past_games(request: AuthedRequest) -> HttpResponse:
    """The user's finished and abandoned games, newest first, a page at a time (?page=)."""
    page, rows = service.past_page(request.user, request.GET.get("page"))
    ties = friends.circle(request.user.pk)
    context = {
        "page": page,
        "rows": rows,
        "befriendable": people.befriendable(request.user, rows, ties),
    }
    return render(request, "games/past_games.html", context)


@require_GET
@login_required
def player(request: AuthedRequest, username: str) -> HttpResponse:
    found = User.objects.filter(username=username, is_active=True).first()
    if found is None:
        raise Http404("No such player.")
    context = player_service.player_page(found, request.user)
    # The friend and block buttons (accounts/friend_views.py); one's own page lists friends.
    ties = friends.circle(request.user.pk)
    context["relation"] = friends.relation(request.user, found, ties)
    context["friends"] = friends.friends_of(found.pk) if ties.friends and context["is_me"] else []
    context["befriendable"] = people.befriendable(request.user, context["recent"], ties)
    context["blocked_names"] = ties.blocked_names() if context["is_me"] else []
    return render(request, "games/player.html", context)


@require_GET
@login_required
def leaderboard(request: AuthedRequest, slug: str) -> HttpResponse:
    """A game's leaderboard, a page at a time (?page=; out of range: the last page)."""
    kind = registry.REGISTRY.get(slug)
    if kind is None:
        raise Http404("No such game.")
    context = {
        "kind": kind,
        "kinds": list(registry.REGISTRY.values()),
        "page": board.leaderboard(kind, request.GET.get("page")),
        "min_games": board.MIN_GAMES,
    }
    return render(request, "games/leaderboard.html", context)
