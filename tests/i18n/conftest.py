"""The socket tests here share the realtime tests' clean-up (sockets closed, the render
threads' connections given back, a fresh channel layer)."""

from __future__ import annotations

from tests.realtime.conftest import _bots_without_pause, _no_connection_left_in_worker_threads

__all__ = ["_bots_without_pause", "_no_connection_left_in_worker_threads"]
