"""The lobby: create a game, invite people (by name or by link), take seats, start.

The rules (who may invite, who may join, how many may play, nothing after the start) live in
one place, the pure lobby functions (`games.kinds.lobby`), with the table size and the
player counts the game's kind allows. Each service here loads a `Lobby` value from the
game's memberships, asks the rules, and stores the outcome. What the web adds on top are
its own policies: only the organizer starts, removes or revokes; invite links; chosen seats
for bots; a team game starts only with every seat taken (partners sit where they sat).

Every service is keyword-only and runs in one transaction with the game row locked. A
refusal raises `LobbyRefused` (player-facing message + HTTP status) and changes nothing.
Notifications go out after commit.

Modules: `refusals` (`LobbyRefused` and its kinds), `room` (a locked game as the rules'
`Lobby`, storing their outcome, telling everybody), `starting` (`create_game`,
`start_game`), `invitations` (by name: invite, accept, decline, revoke), `links` (invite
links), `seating` (join, leave, bots, removing people) and `rematches` (what a rematch's
waiting room does differently). The stand-ins, invited once the game is under way, are
`games.services.stand_ins`.
"""

from __future__ import annotations

from games.services.lobby.invitations import accept, decline, invite, revoke_invitation
from games.services.lobby.links import (
    create_invite_link,
    email_invite_link,
    link_problem,
    use_invite_link,
)
from games.services.lobby.refusals import (
    BadRequest,
    Conflict,
    LinkUnusable,
    LobbyRefused,
    NotAllowed,
)
from games.services.lobby.rematches import start_rematch_if_answered
from games.services.lobby.room import person_id
from games.services.lobby.seating import BOT_NAMES, add_bot, join, leave, remove
from games.services.lobby.starting import create_game, start_game

__all__ = [
    "BOT_NAMES",
    "BadRequest",
    "Conflict",
    "LinkUnusable",
    "LobbyRefused",
    "NotAllowed",
    "accept",
    "add_bot",
    "create_game",
    "create_invite_link",
    "decline",
    "email_invite_link",
    "invite",
    "join",
    "leave",
    "link_problem",
    "person_id",
    "remove",
    "revoke_invitation",
    "start_game",
    "start_rematch_if_answered",
    "use_invite_link",
]
