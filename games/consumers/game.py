"""A game's socket, table or waiting room (`GameConsumer`): who may see the game, presence,
the version to draw and the chat lines; the pages themselves are in games/consumers/tables.py."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from games.consumers import heartbeat
from games.consumers.live import LiveConsumer
from games.consumers.pool import Frames, in_pool, presence_call, redirect_frame, render_for
from games.live import presence, realtime, sockets
from games.live.committed import game_identity
from games.models import Game, Membership
from games.presenters.basis import adopt, known_game, table_basis
from games.services import absence
from games.talk import presenter as talk
from games.talk.rules import viewer_among

log = logging.getLogger(__name__)

ABSENCE_PANEL = 'id="absence-panel"'  # templates/games/_absence.html
DOT_RE = re.compile(r'id="presence-(\d+)" class="presence-dot( is-connected)?"')


def dots_in(html: str) -> dict[int, bool]:
    """Seat -> lit, for the presence dots in a rendered table."""
    return {int(m.group(1)): bool(m.group(2)) for m in DOT_RE.finditer(html)}


def with_dots(html: str, now: dict[int, bool]) -> str:
    """`html` with the presence dots of the seats in `now` (seat -> lit) set so."""

    def tag(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if seat not in now:
            return match.group(0)
        return f'id="presence-{seat}" class="presence-dot{" is-connected" if now[seat] else ""}"'

    return DOT_RE.sub(tag, html)


@dataclass(frozen=True)
class Followed:
    """A version announced with the moves that made it (`realtime.game_changed`)."""

    version: int
    change: dict[str, Any]


class GameConsumer(LiveConsumer):
    """One game's page (table or waiting room), rendered for this socket's user."""

    game_id: int
    counted = False  # whether `opened` counted this socket in presence (and the heartbeat)
    # What a presence change redraws: the whole page, or (the table) just the seats' dots.
    presence_part = "page"
    # Relations the page shows, loaded with the game (`_visible` runs before every render).
    game_related: tuple[str, ...] = ()
    # Whether a render may take the game row from the table basis this process keeps for
    # the announced version instead of reading it (a page that shows no related rows).
    reuses_known_rows = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.identity: tuple[int, str, float] | None = None  # once the row has been read
        self.rendered_version = 0  # the version of the row the last render used
        # Since the last render: the newest version game.changed announced, and whether
        # anything else asked for a render (then the row is read; so is the first one's).
        self.announced: int | None = None
        self.reread = True
        # The change the newest announced version's push carried (its moves), if any: a
        # process that did not make them follows them on its own copy (context.adopt).
        self.change: Followed | None = None
        # What the chat composer drawn last showed (`composer_frame`).
        self.composer_key: tuple[Any, ...] | None = None
        # Who sat where when the chat panel's list of people was drawn last (`people_frame`).
        self.people_key: tuple[tuple[int, int], ...] | None = None

    async def authorize(self) -> bool:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        return bool(await in_pool(self._visible)())

    def take_pending(self) -> Game | Followed | None:
        """The game row to render, if this process keeps the one of the version announced
        (`known_game`), or the change that leads to it from one it keeps (`Followed`);
        None: read it. Never an older version than the last render's: two processes'
        announcements may arrive out of order."""
        known: Game | Followed | None = None
        if self.reuses_known_rows and not self.reread and self.identity is not None:
            # Nothing announced (a step of a resolution): the version drawn last.
            version = max(self.announced or 0, self.rendered_version)
            known = known_game(self.identity, version)
            if known is None and self.change is not None and self.change.version == version:
                known = self.change
        self.announced, self.reread, self.change = None, False, None
        return known

    def _visible(self, known: Game | Followed | None = None) -> Game | None:
        """The game if this user may see it (as games.access.visible_game_or_404 decides:
        public, or a member). It runs before every render. The members come from the table
        basis this process keeps for the game's version (every change of membership bumps
        the version). The row itself is one primary-key query, unless the row is `known`
        (`take_pending`): a move's redraws then read nothing, in the process that made it
        and (following its moves) in the others."""
        game = known if isinstance(known, Game) else None
        if isinstance(known, Followed):
            game = adopt(self.game_id, known.version, known.change)
        if game is None:
            game = self.read_game()
            if game is None:
                return None
            self.identity = game_identity(game)
        if game.public or table_basis(game).member_of(self.user) is not None:
            self.rendered_version = game.version
            return game
        return None

    def read_game(self) -> Game | None:
        return Game.objects.select_related(*self.game_related).filter(pk=self.game_id).first()

    def group_names(self) -> list[str]:
        return [realtime.game_group(self.game_id)]

    async def opened(self) -> None:
        first = await presence_call(presence.join, self.game_id, self.user.pk)
        self.counted = True
        heartbeat.opened(self.game_id, self.user.pk)
        sockets.opened(self.game_id)
        if first:
            await self.channel_layer.group_send(
                realtime.game_group(self.game_id),
                {"type": "presence.changed", "game_id": self.game_id},
            )

    async def closed(self) -> None:
        if not self.counted:
            return
        heartbeat.closed(self.game_id, self.user.pk)
        sockets.closed(self.game_id)
        try:
            last = await presence_call(presence.leave, self.game_id, self.user.pk)
            if last:
                await self.channel_layer.group_send(
                    realtime.game_group(self.game_id),
                    {"type": "presence.changed", "game_id": self.game_id},
                )
        except Exception:
            log.exception("presence update failed for game %s", self.game_id)

    # --- events (from games.live.realtime) -----------------------------------------------

    async def game_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if type(version) is int:
            self.announced = max(self.announced or 0, version)
            change = event.get("change")
            if version == self.announced and isinstance(change, dict):
                self.change = Followed(version, change)
        else:
            self.reread = True
        self.want("page")

    async def game_started(self, event: dict[str, Any]) -> None:
        self.reread = True
        self.want("page")

    async def presence_changed(self, event: dict[str, Any]) -> None:
        presence.forget(self.game_id)  # this process's recent read of it is out of date
        self.reread = True
        self.want(self.presence_part)

    async def talk_said(self, event: dict[str, Any]) -> None:
        """Somebody talked (games/talk/): the line for this user, if they may read it. A
        fragment of its own, appended to the chat log: the table is not redrawn."""
        message_id = event.get("message_id")
        if type(message_id) is not int:
            return
        drawn = event.get("drawn")
        try:
            # Drawn once by the sender's process; whether this user reads it is decided
            # here, on the loop, from what the event carries (no query, no render pool).
            # In this socket's language: a line drawn in another is drawn again, once per
            # language and process.
            html = None
            if isinstance(drawn, dict):
                html = talk.frame_for(drawn, self.user.pk, self.language)
        except (KeyError, TypeError, ValueError):  # not the shape this code draws
            log.warning("chat line %s pushed in an unknown shape", message_id)
            html = None
        if html is None:  # too many hide its sender, or unreadable: drawn here, with queries
            await self.send_talk(talk.pushed, message_id)
            return
        if html and not self.closing and await self.session_current():
            await self.send_frame(html)

    async def talk_changed(self, event: dict[str, Any]) -> None:
        """The organizer changed the game's talk: the composer (rule line, reaction buttons,
        message box) redrawn for this user, a fragment of its own (never the table). By the
        socket's one render task, not beside it: a render under way draws the composer from
        the row it read before, and would otherwise send the setting of before after the new
        one. That render reads the row again: the table basis kept for this version has the
        setting of before (the setting changes no version)."""
        self.reread = True
        self.want("talk")

    async def send_talk(self, draw: Any, *args: Any) -> None:
        if self.closing or not await self.session_current():
            return
        try:
            # Drawn for this user alone, checking again that they may see the game (a
            # private game's member removed since the socket opened hears nothing).
            html = await in_pool(self.in_language(draw))(self.game_id, self.user, *args)
        except Exception:
            log.exception("table talk render failed for game %s", self.game_id)
            return
        if html and not self.closing:
            await self.send_frame(html)

    async def send_frame(self, html: str) -> None:
        try:
            await self.send(text_data=html)
        except Exception:  # the client went away meanwhile: its disconnect cleans up
            self.closing = True

    # --- rendering (in a worker thread) ---------------------------------------------------

    def render(self, parts: set[str], pending: Any = None) -> Frames:
        game = self._visible(pending)
        if game is None:  # removed from a private game, or the game is gone
            return Frames([redirect_frame(reverse("lobby"))], close=True)
        elsewhere = self.elsewhere(game)
        if elsewhere:
            return Frames([redirect_frame(elsewhere)])
        if "page" in parts:  # the composer comes with it when it changed
            return Frames(self.page_frames(game))
        frames: list[str] = []
        if self.presence_part in parts:  # the table's dots alone
            dots, left = self.render_presence(game)
            if left:  # the table now offers what to do about them (games/_absence.html)
                return Frames(self.page_frames(game))
            frames = [dots] if dots else []
        if "talk" in parts:  # the organizer's setting (`talk_changed`)
            frames = self.in_last_frame(frames, self.composer_frame(game))
        return Frames(frames)

    def render_presence(self, game: Game) -> tuple[str, bool]:
        """The seats' presence dots (and how long the others have been away) alone, if this
        page shows them and any dot changed since the last frame (cheap: no replay); and
        whether somebody left a game in progress (then the whole table is redrawn instead:
        it offers what to do about them). Somebody back while the page shows the away panel
        gets the panel redrawn too (it named them)."""
        shown = dots_in(self.last_sent or "")
        if not shown:
            return "", False
        seated = list(
            Membership.objects.filter(game=game, seat__isnull=False, user__isnull=False)
            .order_by("seat")
            .values_list("seat", "user_id")
        )
        here = presence.presence_of(game.pk, [uid for _, uid in seated])
        away = {seat: here.away.get(uid) for seat, uid in seated if seat is not None}
        now = {seat: uid in here.connected for seat, uid in seated if seat is not None}
        if all(shown.get(seat) == lit for seat, lit in now.items()):
            return "", False
        if game.status == Game.Status.ACTIVE and any(
            shown.get(seat) and not lit for seat, lit in now.items()
        ):
            return "", True
        dots = "".join(
            render_to_string(
                f"games/_presence.html#{part}",
                {"seat": seat, "connected": lit, "away": away[seat], "oob": True},
            )
            for seat, lit in now.items()
            for part in ("dot", "away")  # the dot, and "away 3 min" after the name
        )
        if ABSENCE_PANEL in (self.last_sent or "") and any(
            lit and not shown.get(seat) for seat, lit in now.items()
        ):
            dots += self.absence_frame(game, here)
        # What the page shows now: the last table with these dots.
        self.last_sent = with_dots(self.last_sent or "", now)
        return dots, False

    def absence_frame(self, game: Game, here: presence.Presence) -> str:
        """The away panel alone, out of band, as the table would draw it now."""
        basis = table_basis(game)
        offers = absence.table_offers(game, basis.members, basis.member_of(self.user), here)
        context = {"absence": offers, "game": game, "oob": True}
        return render_for(self.request, "games/_absence.html", context)

    def elsewhere(self, game: Game) -> str:
        """The URL this page's user belongs on now, or "" to stay."""
        return ""

    def page_frames(self, game: Game) -> list[str]:
        """The page's frame, unless it is the one sent last."""
        return self.fresh_text(self.render_page(game))

    def composer_frame(self, game: Game) -> str:
        """The chat composer (rule line, reactions, message box) for this user, out of band,
        when it changed since the last one drawn: a rated game's chat closes while a hand is
        played and the game's end changes what is said; a page whose socket was down when
        the organizer changed the setting gets it with its first frame. The chat panel is
        outside what the page redraws (#table, #room), so the page's redraw does not carry
        it. Drawn from the table basis the table used (no
        query: `in_hand` comes with the basis, followed in memory with the moves)."""
        at_table = talk.AtTable.of(game, table_basis(game))
        viewer = viewer_among(game, self.user, at_table.members)
        # Compared before anything else is built: most frames leave the composer as it was.
        key = talk.composer_state(game, viewer, known=at_table.known)
        if key == self.composer_key:
            return ""
        self.composer_key = key  # the first time too: the page may be older than the socket
        context = talk.composer(game, viewer, known=at_table.known, state=key)
        return render_for(self.request, "games/_chat.html#composer", {**context, "oob": True})

    def people_frame(self, game: Game) -> str:
        """The chat panel's "At the table" list, out of band, when somebody sat down or left
        since it was drawn (the first time too: the page may be older than the socket). The
        chat panel is outside what the page redraws, and its list is per viewer (mutes,
        blocks): read only when the seats changed, which is rare beside moves."""
        members = table_basis(game).members
        key = talk.seated_key(members)
        if key == self.people_key:
            return ""
        self.people_key = key
        context = talk.people_context(game, self.user, members)
        return render_for(self.request, "games/_chat.html#people", context)

    @staticmethod
    def in_last_frame(frames: list[str], extra: str) -> list[str]:
        """`extra` in the same frame as the page's last one: they change together."""
        if not extra:
            return frames
        return [*frames[:-1], frames[-1] + extra] if frames else [extra]

    def render_page(self, game: Game) -> str:
        raise NotImplementedError
