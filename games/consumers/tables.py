"""The game sockets' pages: the table (`TableConsumer`) and the waiting room (`RoomConsumer`),
each a `GameConsumer` (games/consumers/game.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings
from django.urls import reverse

from games.consumers import marks
from games.consumers.game import Followed, GameConsumer, with_dots
from games.consumers.pool import render_for
from games.live import presence
from games.models import Game
from games.presenters.basis import adoptable
from games.presenters.context import table_context
from games.presenters.room import room_context
from games.steps import Steps


class TableConsumer(GameConsumer):
    """The table: #table for this user, plus the shared #table-side when it changed."""

    presence_part = "presence"
    reuses_known_rows = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_side = ""
        # A resolution played out step by step (games/steps.py). The render reads `steps`;
        # the event loop changes it only in `take_pending`, between renders.
        self.steps = Steps()
        self.step_task: asyncio.Task[None] | None = None
        self.step_due = False
        self.skip_asked = ""
        # (resolution, version) of the last whole table drawn at a step: the next steps of
        # that table redraw only the middle of the felt (#center-area).
        self.step_basis: tuple[str, int] | None = None
        # The last whole table sent, for a change that only moves the seats' marks
        # (games/consumers/marks.py); None after a step of a resolution.
        self.drawn: marks.Drawn | None = None

    async def closed(self) -> None:
        if self.step_task is not None:
            self.step_task.cancel()
        await super().closed()

    # --- a resolution, step by step ----------------------------------------------------

    def received(self, message: dict[str, Any]) -> None:
        key = message.get("skip")
        if isinstance(key, str) and key and key == self.steps.key:
            self.skip_asked = key
            self.want("page")

    def rendered(self) -> None:
        if self.steps.active and (self.step_task is None or self.step_task.done()):
            self.step_task = asyncio.get_running_loop().create_task(self.next_step())

    async def next_step(self) -> None:
        await asyncio.sleep(settings.TABLE_STEP_SECONDS)
        self.step_due = True
        self.want("page")

    def take_pending(self) -> Game | Followed | None:
        if self.skip_asked:
            self.steps.skip(self.skip_asked)
            self.skip_asked = ""
        if self.step_due:
            self.steps.advance()
            self.step_due = False
        return super().take_pending()

    def elsewhere(self, game: Game) -> str:
        if game.status == Game.Status.WAITING:
            return reverse("waiting-room", args=[game.pk])
        return ""

    def renders_in_memory(self, parts: set[str], pending: Any) -> bool:
        # A move's redraw: the row, members and state of the announced version are kept by
        # this process (`take_pending` found the row) or follow in memory from the version
        # before (`adoptable`: another process made the move), and presence is held here.
        if parts != {"page"} or not presence.held(self.game_id):
            return False
        if isinstance(pending, Followed):
            return adoptable(self.game_id, pending.version, pending.change)
        return isinstance(pending, Game)

    def page_frames(self, game: Game) -> list[str]:
        frames = self.in_last_frame(self.table_frames(game), self.composer_frame(game))
        return self.in_last_frame(frames, self.people_frame(game))

    def table_frames(self, game: Game) -> list[str]:
        # The turn banner is not part of this frame: the services send lobby.changed to the
        # members whose turn starts or ends, and the user socket redraws the banner then.
        # While a resolution plays out on the table last drawn whole, the next step likely
        # redraws the felt's middle alone: its context leaves the seats out.
        middle = self.steps.active and (self.step_basis or ("", -1))[1] == game.version
        context = table_context(game, self.user, steps=self.steps, middle_only=middle)
        step, basis = context.get("step"), (context.get("steps_key", ""), game.version)
        if step is not None and step > 0 and basis == self.step_basis:
            # A later step of the resolution on the same table: only the felt's middle
            # changes, drawn once for every socket (games/presenters/felt.py `Public`).
            if middle:
                return [context["middle"]]
            return [render_for(self.request, "games/table.html#center", context)]
        if middle:  # the steps ended (or were skipped): the whole table after all
            context = table_context(game, self.user, steps=self.steps)
        self.step_basis = basis if step is not None else None
        patched = marks.patch(self.drawn, context)
        if patched is not None:
            frame, self.drawn = patched
            # The dots the page shows now, for the next presence check (render_presence).
            now = {s["seat"]: s["connected"] for s in context["seats"]}
            self.last_sent = with_dots(self.last_sent or "", now)
            return [frame]
        self.drawn = marks.Drawn.of(context) if step is None else None
        frames = self.fresh_text(render_for(self.request, "games/table.html#table", context))
        side = context["side"]
        # One frame: both parts swap together. The side panel waits for the end of a
        # resolution played out step by step (it would tell how it ends).
        if side and side != self.last_side and step is None:
            self.last_side = side
            frames = ["".join(frames) + side]
        return frames


class RoomConsumer(GameConsumer):
    game_related = ("organizer",)

    def elsewhere(self, game: Game) -> str:
        if game.status != Game.Status.WAITING:
            return reverse("table", args=[game.pk])
        return ""

    def page_frames(self, game: Game) -> list[str]:
        frames = self.in_last_frame(super().page_frames(game), self.composer_frame(game))
        return self.in_last_frame(frames, self.people_frame(game))

    def render_page(self, game: Game) -> str:
        return render_for(
            self.request, "games/waiting_room.html#room", room_context(game, self.user)
        )
