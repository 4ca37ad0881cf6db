"""The socket tests here share the realtime tests' clean-up (sockets closed, the render
threads' connections given back, a fresh channel layer); the letters, the mail tests' real
SMTP server (`inbox`)."""

from __future__ import annotations

from tests.mail.conftest import inbox
from tests.realtime.conftest import _bots_without_pause, _no_connection_left_in_worker_threads

__all__ = ["_bots_without_pause", "_no_connection_left_in_worker_threads", "inbox"]
