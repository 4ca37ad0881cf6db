"""How a lobby POST is answered: the partial it came from (`#room`, `#lobby-lists` or the
invite box), with the refusal's message and status when the lobby says no, or a Django
message and a redirect for a plain form post; a 404 for a game the user may not see."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from accounts.http import AuthedRequest
from games.access import visible_game_or_404
from games.models import Game
from games.presenters.lobby import lobby_context
from games.presenters.room import room_context
from games.services.lobby import LobbyRefused


def _from_lobby(request: AuthedRequest) -> bool:
    return bool(request.htmx) and request.htmx.target == "lobby-lists"


def _not_visible(request: AuthedRequest) -> HttpResponse:
    """404 for a game the user may not see: the 404 page, or a message in the partial."""
    message = _("That game is not available.")
    if not request.htmx:
        raise Http404(message)
    if _from_lobby(request):
        context = lobby_context(request.user, error=message)
        return render(request, "games/lobby.html#lists", context, status=404)
    return render(request, "games/waiting_room.html#room-gone", {"message": message}, status=404)


def _answer(
    request: AuthedRequest, game_id: int, *, error: str = "", status: int = 200, done: str = ""
) -> HttpResponse:
    """The page after a lobby POST: the partial it came from (htmx) or a redirect."""
    if _from_lobby(request):
        context = lobby_context(request.user, error=error)
        return render(request, "games/lobby.html#lists", context, status=status)
    try:
        game = visible_game_or_404(request.user, game_id)
    except Http404:
        if error:
            return _not_visible(request)
        # The user just left (or declined) a private game: back to the lobby.
        messages.info(request, done)
        return HttpResponseClientRedirect(reverse("lobby")) if request.htmx else redirect("lobby")
    if request.htmx:
        if game.status != Game.Status.WAITING and not error:
            return HttpResponseClientRedirect(reverse("table", args=[game.pk]))
        if request.htmx.target == "invite-box":
            return _invite_box(request, game, error=error, notice=done, status=status)
        context = room_context(game, request.user, error=error)
        return render(request, "games/waiting_room.html#room", context, status=status)
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return redirect("waiting-room", game_id=game.pk)


def _invite_box(
    request: AuthedRequest, game: Game, *, error: str, notice: str, status: int
) -> HttpResponse:
    """The invite box with its message, plus the room out of band (its invitee list).

    The box lives outside #room so that pushes of the room never wipe what is being typed.
    """
    context = room_context(game, request.user)
    box = {**context, "invite_error": error, "invite_notice": "" if error else notice}
    html = render_to_string("games/waiting_room.html#invite-box", box, request=request)
    html += render_to_string("games/waiting_room.html#room", {**context, "oob": True}, request)
    return HttpResponse(html, status=status)


def _run(
    request: AuthedRequest, game_id: int, action: Callable[[], object], done: str = ""
) -> HttpResponse:
    """Call a service; a refusal becomes a message in the page, and changes nothing."""
    try:
        action()
    except LobbyRefused as refusal:
        return _answer(request, game_id, error=refusal.message, status=refusal.status)
    except Http404:
        return _not_visible(request)
    return _answer(request, game_id, done=done)


def _bad_input(request: AuthedRequest, game_id: int, message: str) -> HttpResponse:
    try:
        visible_game_or_404(request.user, game_id)  # private stays private, even for bad input
    except Http404:
        return _not_visible(request)
    return _answer(request, game_id, error=message, status=400)
