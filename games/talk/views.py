"""Table talk over HTTP: say, react, mute, the organizer's setting, and the log (a page
that reconnects fetches it again). POST only for changes (the websocket stays push-only).

Answers: 200 with the `#chat-answer` line (empty when all went well: the line itself
arrives by the socket, as on every other page of the game); 400 input that cannot be read
(empty, too long, control characters, not UTF-8, an unknown reaction); 403 not allowed to
say it now (talk off, reactions only, a rated hand, not a player); 404 a game the user may
not see (a private game's outsiders learn nothing); 405 not a POST; 429 too fast (allauth's
rate limit, ACCOUNT_RATE_LIMITS["talk"]). A refused request changes nothing.
"""

from __future__ import annotations

from allauth.core import ratelimit
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthedRequest
from games.access import visible_game_or_404
from games.talk import presenter, service
from games.talk.rules import Refused


def _answer(request: AuthedRequest, error: str = "", status: int = 200) -> HttpResponse:
    if not request.htmx and not error:  # a plain form post (no script): back to the game
        game_id = request.resolver_match.kwargs["game_id"] if request.resolver_match else 0
        return redirect("table", game_id=game_id)  # which sends a waiting game to its room
    return render(request, "games/_chat.html#answer", {"talk_error": error}, status=status)


def _limiter(request: AuthedRequest) -> service.Limiter:
    return lambda: ratelimit.consume(request, action="talk", user=request.user)


@require_POST
@login_required
def say(request: AuthedRequest, game_id: int) -> HttpResponse:
    try:
        service.say(
            game_id=game_id,
            user=request.user,
            text=request.POST.get("text"),
            limiter=_limiter(request),
        )
    except Refused as exc:
        return _answer(request, exc.message, exc.status)
    return _answer(request)


@require_POST
@login_required
def react(request: AuthedRequest, game_id: int) -> HttpResponse:
    try:
        service.react(
            game_id=game_id,
            user=request.user,
            code=request.POST.get("code"),
            limiter=_limiter(request),
        )
    except Refused as exc:
        return _answer(request, exc.message, exc.status)
    return _answer(request)


@require_POST
@login_required
def mode(request: AuthedRequest, game_id: int) -> HttpResponse:
    try:
        game = service.set_mode(game_id=game_id, user=request.user, mode=request.POST.get("mode"))
    except Refused as exc:
        return _answer(request, exc.message, exc.status)
    return render(request, "games/_chat.html#body", presenter.panel(game, request.user))


@require_POST
@login_required
def mute(request: AuthedRequest, game_id: int) -> HttpResponse:
    raw = request.POST.get("user", "")
    other = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else None
    try:
        service.mute(
            game_id=game_id,
            user=request.user,
            other_id=other,
            muted=request.POST.get("action") != "unmute",
        )
    except Refused as exc:
        return _answer(request, exc.message, exc.status)
    game = visible_game_or_404(request.user, game_id)
    return render(request, "games/_chat.html#body", presenter.panel(game, request.user))


@require_GET
@login_required
def log(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The log as the user may read it now (static/js/talk.js, after a reconnect)."""
    game = visible_game_or_404(request.user, game_id)
    return render(request, "games/_chat.html#log", presenter.panel(game, request.user))
