"""What we persist: games, who sits where (roles), invitations, and each game's action log.

We store the log, not the state: a game is its kind (which game, `games/registry.py`), its
options and seed, plus the numbered actions applied to it. A snapshot of the engine state is
kept at the start of each hand so a request never replays more than one hand of actions.
Whose turn it is lives on the memberships (`must_act`): several seats act at once in some
phases (Hearts' pass), and the lobby's "your turn" list stays one indexed filter.

Modules: `game` (Game and Membership), `analysis` (GameAnalysis), `invitations`, `log`
(GameAction, Snapshot) and `mail` (PendingMail). Callers import every row from
`games.models`, as Django finds them here.
"""

from __future__ import annotations

from games.models.analysis import GameAnalysis
from games.models.game import (
    COVER_ASKED,
    COVER_DECLINED,
    COVER_TIMED_OUT,
    DEFAULT_KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Game,
    GameQuerySet,
    Membership,
    new_seed,
)
from games.models.invitations import INVITE_LINK_LIFETIME, Invitation, new_token
from games.models.log import GameAction, Snapshot
from games.models.mail import PendingMail

# The rating rows live with the ratings (games/ratings/), table talk's with it (games/talk/);
# imported here so Django finds them.
from games.ratings.models import BotRating, Rating, RatingChange
from games.talk.models import ChatMessage, ChatMute

__all__ = [
    "COVER_ASKED",
    "COVER_DECLINED",
    "COVER_TIMED_OUT",
    "DEFAULT_KIND",
    "INVITE_LINK_LIFETIME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "BotRating",
    "ChatMessage",
    "ChatMute",
    "Game",
    "GameAction",
    "GameAnalysis",
    "GameQuerySet",
    "Invitation",
    "Membership",
    "PendingMail",
    "Rating",
    "RatingChange",
    "Snapshot",
    # The default of Game.seed, which migration 0001 names as games.models.new_seed.
    "new_seed",
    "new_token",
]
