"""The per-user socket: turn banner, invitation notices, the lobby's lists."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import parse_qs

from django.db import connection
from django.template.loader import render_to_string
from django.utils.translation import get_language

from accounts import friends as accounts_friends
from games.addresses import game_url
from games.consumers.live import LiveConsumer
from games.consumers.pool import Frames, in_pool, render_for
from games.live import online, realtime
from games.models import Game, Invitation, Membership
from games.presenters.lobby import lobby_context

if TYPE_CHECKING:
    from accounts.models import User


class AwaitingGame(NamedTuple):
    pk: int
    name: str

    @property
    def url(self) -> str:
        """Its table's address."""
        return game_url("table", self.pk)


# Plain SQL: this runs for the two players whose turn moved, on every move, and building
# the same query with the ORM cost about twenty times as much as running it (0.56 ms
# against 0.03 ms on SQLite; bench/results/realtime.md).
_GAMES, _MEMBERSHIPS = Game._meta.db_table, Membership._meta.db_table
_AWAITING_SQL = (
    f"SELECT g.id, g.name FROM {_GAMES} g JOIN {_MEMBERSHIPS} m"
    " ON m.game_id = g.id AND m.must_act"
    " WHERE g.status = %s AND m.user_id = %s AND NOT m.automated ORDER BY g.id"
)


def games_awaiting(user: User) -> list[AwaitingGame]:
    """Active games in which it is `user`'s own turn (seats the bot plays are not)."""
    with connection.cursor() as cursor:
        cursor.execute(_AWAITING_SQL, [Game.Status.ACTIVE.value, user.pk])
        return [AwaitingGame(*row) for row in cursor.fetchall()]


def turn_banner_html(user: User, *, fresh: set[int] | None = None) -> str:
    """The #turn-banner fragment for `user`: empty (hidden) when it is nobody's turn of
    theirs. `fresh` holds game ids whose turn just started: only then does the page chime
    or notify (a reconnect redraws the banner silently)."""
    awaiting = tuple(games_awaiting(user))
    is_fresh = bool(fresh and any(game.pk in fresh for game in awaiting))
    return _banner(get_language(), awaiting, is_fresh)


@functools.lru_cache(maxsize=512)
def _banner(language: str | None, awaiting: tuple[AwaitingGame, ...], fresh: bool) -> str:
    """The banner drawn once for everybody it tells the same: at a table whose players all
    act at once, a new turn starts for every one of them with one banner, and a player who
    has chosen sees the empty one everybody shares. It names no user, only games; the
    language is in the key because the render translates."""
    return render_to_string(
        "games/_notices.html#turn_banner", {"awaiting": awaiting, "fresh": fresh}
    )


DOT_RE = re.compile(r'id="presence-(\d+)" class="presence-dot( is-connected)?"')


class UserConsumer(LiveConsumer):
    """The per-user socket every signed-in page opens: turn banner, invitations, lobby."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_lobby = False
        self.friend_ids: set[int] = set()
        self.fresh_games: set[int] = set()
        self.new_invitations: list[int] = []
        self.shown_invitations: set[int] = set()
        self.last_banner: str | None = None
        self.last_lists: str | None = None
        # When a friend the lists show online stops being so (set by the render), and the
        # timer that redraws the lists then (`rendered`).
        self.offline_at: float | None = None
        self.offline_timer: asyncio.TimerHandle | None = None

    async def authorize(self) -> bool:
        query = parse_qs(bytes(self.scope.get("query_string", b"")).decode("latin-1"))
        self.on_lobby = query.get("page") == ["lobby"]
        if self.on_lobby:  # the friends panel shows who is online: follow them coming online
            self.friend_ids = await in_pool(accounts_friends.friend_ids)(self.user.pk)
        return True

    def group_names(self) -> list[str]:
        groups = [realtime.user_group(self.user.pk)]
        if self.on_lobby:
            groups.append(realtime.LOBBY_GROUP)
            groups.extend(realtime.friend_group(uid) for uid in sorted(self.friend_ids))
        return groups

    # --- events (from games.live.realtime) -----------------------------------------------

    async def invitation_received(self, event: dict[str, Any]) -> None:
        with contextlib.suppress(KeyError, TypeError, ValueError):
            self.new_invitations.append(int(event["invitation_id"]))
        self.want("notices")

    async def friend_online(self, event: dict[str, Any]) -> None:
        # A friend has just come online: the friends panel (in the lists) shows it.
        self.want("lists")

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        # A move changes every member's lists ("Bob to play") but only the banners of the
        # players whose turn ended or began; `turn_game`: this user's turn just began there.
        if "turn_game" in event:
            with contextlib.suppress(TypeError, ValueError):
                self.fresh_games.add(int(event["turn_game"]))
        self.want("lists", "sweep", *(("banner",) if event.get("banner", True) else ()))

    # --- rendering (in a worker thread) ---------------------------------------------------

    def take_pending(self) -> tuple[set[int], list[int]]:
        fresh, self.fresh_games = self.fresh_games, set()
        new, self.new_invitations = self.new_invitations, []
        return fresh, new

    def needed(self, parts: set[str]) -> set[str]:
        # A move tells every member's socket; most have no lists or notices to redraw.
        if "page" in parts:
            parts = (parts - {"page"}) | {"banner", "lists"}
        if not self.on_lobby:
            parts = parts - {"lists"}
        if not self.shown_invitations:
            parts = parts - {"sweep"}
        return parts

    def render(self, parts: set[str], pending: Any = None) -> Frames:
        fresh, new = pending or (set(), [])
        # What `take_pending` handed over is drawn by this render whatever parts it was asked
        # for: an event that came while this render waited for its session check asked for
        # its part in the next render, but its news was taken by this one.
        if fresh:
            parts = parts | {"banner"}
        if new:
            parts = parts | {"notices"}
        out: list[str] = []
        if "banner" in parts:
            banner = turn_banner_html(self.user, fresh=fresh)
            if fresh or banner != self.last_banner:
                out.append(banner)
                self.last_banner = banner
        if "notices" in parts:
            out.extend(self.render_invitations(new))
        if "sweep" in parts:
            out.extend(self.sweep_invitations())
        if "lists" in parts:
            context = lobby_context(self.user)
            self.offline_at = context["friends"].offline_at
            lists = render_for(self.request, "games/lobby.html#lists", context)
            if lists != self.last_lists:
                out.append(lists)
                self.last_lists = lists
        return Frames(["".join(out)] if out else [])

    def rendered(self) -> None:
        """Going offline is nobody's request (a stamp grows old, games/live/online.py): the
        lists are redrawn when the first friend they show online stops being so."""
        if self.offline_timer is not None:
            self.offline_timer.cancel()
            self.offline_timer = None
        if self.offline_at is not None:
            # A second late, so that the stamp has surely expired when the render reads it.
            delay = max(self.offline_at - online.now(), 0.0) + 1.0
            loop = asyncio.get_running_loop()
            self.offline_timer = loop.call_later(delay, self.want, "lists")

    async def closed(self) -> None:
        if self.offline_timer is not None:
            self.offline_timer.cancel()
        await super().closed()

    def render_invitations(self, invitation_ids: list[int]) -> list[str]:
        pending = (
            Invitation.objects.filter(
                pk__in=[pk for pk in invitation_ids if pk not in self.shown_invitations],
                invitee=self.user,
                state=Invitation.State.PENDING,
            )
            .select_related("game", "inviter")
            .order_by("created_at")
        )
        fresh = [invitation for invitation in pending if not invitation.has_expired()]
        if not fresh:
            return []
        self.shown_invitations.update(invitation.pk for invitation in fresh)
        return [render_to_string("games/_notices.html#invitations", {"invitations": fresh})]

    def sweep_invitations(self) -> list[str]:
        """Take down notices of invitations that are no longer open (answered elsewhere,
        revoked, expired)."""
        still_open = set(
            Invitation.objects.filter(
                pk__in=self.shown_invitations, state=Invitation.State.PENDING
            ).values_list("pk", flat=True)
        )
        gone = sorted(self.shown_invitations - still_open)
        self.shown_invitations &= still_open
        return [
            render_to_string("games/_notices.html#invitation_gone", {"invitation_id": pk})
            for pk in gone
        ]
