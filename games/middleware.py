"""Presence by request: a signed-in user answered on one of a game's pages (the table and
its partials, the waiting room, the replay, a move...) counts as present at that game for a
while (games/live/presence.py `seen`), whether or not a socket of theirs is open. Any signed-in
request also counts as being online (`online.stamp_online`: what friends see,
docs/friends.md)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games.live import online, presence, realtime


class PresenceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = request.resolver_match
        game_id = match.kwargs.get("game_id") if match is not None else None
        user = getattr(request, "user", None)
        # Only requests on a game the user may see: a 404 (a game they may not see, or none)
        # or 403 would let anyone write a stamp for any number. A move the game refused
        # (409 stale, 422 illegal) was still made by somebody at the table.
        status = response.status_code
        # Online anywhere, for friends: their lobbies hear when somebody has just come online.
        if user is not None and user.is_authenticated and online.stamp_online(user.pk):
            realtime.came_online(user.pk)
        if (
            isinstance(game_id, int)
            and user is not None
            and user.is_authenticated
            and (status < 400 or status in (409, 422))
        ):
            presence.seen(game_id, user.pk)
        return response
