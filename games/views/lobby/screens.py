"""The lobby's screens (GET, and the new-game form): the lobby and its lists, the waiting
room and its invite links, and the user search of the invite box."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.http import AuthedRequest
from accounts.models import User
from games.access import visible_game_or_404
from games.forms import NewGameForm, UserSearchForm
from games.models import Game
from games.presenters.lobby import lobby_context
from games.presenters.room import room_context
from games.services import lobby as services
from games.services.lobby import LobbyRefused
from games.talk import presenter as talk
from games.views import pages

SEARCH_LIMIT = 8


@require_GET
def lobby(request: AuthedRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return pages.landing(request)  # "/" signed out: what the site is, sign up / sign in
    return render(request, "games/lobby.html", lobby_context(request.user))


@require_GET
@login_required
def lobby_lists(request: AuthedRequest) -> HttpResponse:
    return render(request, "games/lobby.html#lists", lobby_context(request.user))


@login_required
def new_game(request: AuthedRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None, kind=request.GET.get("kind", ""))
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                organizer=request.user,
                name=form.cleaned_data["name"],
                public=form.public,
                max_players=form.cleaned_data["max_players"],
                kind=form.game_kind.slug,
                options=form.options,
                move_seconds=form.cleaned_data["pace"],
                rated=form.cleaned_data["rated"],
            )
        except LobbyRefused as refusal:
            form.add_error(None, refusal.message)
        else:
            return redirect("waiting-room", game_id=game.pk)
    status = 400 if form.is_bound else 200
    return render(request, "games/new_game.html", {"form": form}, status=status)


@require_GET
@login_required
def waiting_room(request: AuthedRequest, game_id: int) -> HttpResponse:
    if request.htmx and request.GET.get("part") == "invite-links":
        return _invite_links(request, game_id)
    game = visible_game_or_404(request.user, game_id)
    if game.status != Game.Status.WAITING:
        return redirect("table", game_id=game.pk)
    context = room_context(game, request.user)
    if request.htmx:
        return render(request, "games/waiting_room.html#room", context)
    context.update(talk.panel(game, request.user))  # the chat, outside #room (pushes keep it)
    return render(request, "games/waiting_room.html", context)


def _invite_links(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The invite links of the waiting room, fetched again after each push of the room.

    Nothing to swap (204) when the game has started (the page is on its way to the table)
    or the user holds no seat; a bare 404 when the game is not visible to them.
    """
    try:
        game = visible_game_or_404(request.user, game_id)
    except Http404:
        return HttpResponse(status=404)
    context = room_context(game, request.user)
    if not context["can_invite"]:
        return HttpResponse(status=204)
    return render(request, "games/waiting_room.html#invite-links", context)


@require_GET
@login_required
def user_search(request: AuthedRequest, game_id: int) -> HttpResponse:
    """Up to 8 people whose username or display name starts with `q`, not yet in the game."""
    game = visible_game_or_404(request.user, game_id)
    if not game.memberships.filter(user=request.user, seat__isnull=False).exists():
        return HttpResponse(_("Only players of this game can invite."), status=403)
    # The invite box sends its own field ("username"); `q` is the documented parameter.
    form = UserSearchForm({"q": request.GET.get("q", request.GET.get("username", ""))})
    query = form.cleaned_data["q"] if form.is_valid() else ""
    found: list[User] = []
    if query:
        found = list(
            User.objects.filter(
                Q(username__istartswith=query) | Q(display_name__istartswith=query),
                is_active=True,
            )
            .exclude(memberships__game=game)
            .order_by("username")[:SEARCH_LIMIT]
        )
    context = {"game": game, "found": found, "query": query}
    return render(request, "games/waiting_room.html#user-results", context)
