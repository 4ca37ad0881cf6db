from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # The table service announces commits; the renderer and the bot runner listen
        # (they build on the service, so it cannot call them without an import cycle).
        from games import bots, context, signals

        signals.version_committed.connect(context.on_version_committed, dispatch_uid="redraws")
        signals.bot_turn.connect(bots.on_bot_turn, dispatch_uid="bot-turn")
