from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The table service announces its changes (games/signals.py); the mail, the
        # renderer, the pushes and the deadline sweep listen (they build on the service).
        from allauth.account import signals as account_signals
        from django.contrib.auth.signals import user_logged_out

        from games import mail, signals
        from games.clocks import deadlines
        from games.live import realtime
        from games.presenters import basis

        # In this order: the shared part of the redraws is ready before the pushes go.
        signals.version_committed.connect(basis.on_version_committed, dispatch_uid="redraws")
        signals.table_committed.connect(realtime.on_table_committed, dispatch_uid="pushes")
        signals.table_committed.connect(deadlines.on_table_committed, dispatch_uid="bots")
        signals.table_changed.connect(mail.on_table_changed, dispatch_uid="mail")
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
