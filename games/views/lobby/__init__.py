"""Lobby, new game, waiting room and invitations: HTTP in, HTML out.

Buttons post with htmx and get back the partial they live in (`#room` or `#lobby-lists`),
with the refusal's message and status (400 / 403 / 404 / 409) when the lobby says no. Plain
form posts (no JavaScript) get a Django message and a redirect instead.
Private means private: `visible_game_or_404` answers 404 to everyone who is not a member.

Modules: `responses` (how a POST is answered), `screens` (the pages) and `actions` (the
buttons, and following an invite link). What the lobby lists and the waiting room show is
in games/presenters/, which the sockets use too (a consumer never imports a view).
"""

from __future__ import annotations

from games.views.lobby.actions import (
    accept,
    add_bot,
    decline,
    email_invite_link,
    follow_invite_link,
    invite,
    invite_link,
    join,
    leave,
    remove,
    revoke_invitation,
    start,
)
from games.views.lobby.screens import (
    SEARCH_LIMIT,
    lobby,
    lobby_lists,
    new_game,
    user_search,
    waiting_room,
)

__all__ = [
    "SEARCH_LIMIT",
    "accept",
    "add_bot",
    "decline",
    "email_invite_link",
    "follow_invite_link",
    "invite",
    "invite_link",
    "join",
    "leave",
    "lobby",
    "lobby_lists",
    "new_game",
    "remove",
    "revoke_invitation",
    "start",
    "user_search",
    "waiting_room",
]
