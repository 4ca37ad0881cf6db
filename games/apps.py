from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # The table service announces commits; the renderer and the bot runner listen
        # (they build on the service, so it cannot call them without an import cycle).
        from allauth.account import signals as account_signals
        from django.contrib.auth.signals import user_logged_out

        from games import basis, bots, realtime, signals

        signals.version_committed.connect(basis.on_version_committed, dispatch_uid="redraws")
        signals.bot_turn.connect(bots.on_bot_turn, dispatch_uid="bot-turn")
        # A new display name is redrawn wherever it shows (accounts knows nothing of games).
        from accounts.signals import shown_name_changed
        from games.services import people

        shown_name_changed.connect(people.on_shown_name_changed, dispatch_uid="renamed")

        # A session that ends closes its open sockets (sign-out; a new password ends every
        # other session). Sessions that end otherwise (expiry) are caught by the sockets'
        # own re-check (games.consumers.SESSION_RECHECK_SECONDS).
        user_logged_out.connect(realtime.on_signed_out, dispatch_uid="sockets-signed-out")
        for signal in (
            account_signals.password_changed,
            account_signals.password_set,
            account_signals.password_reset,
        ):
            signal.connect(realtime.on_password_changed, dispatch_uid="sockets-password")
