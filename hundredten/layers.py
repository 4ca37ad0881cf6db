"""Our channel layer for the embedded default: Channels' in-memory one without its
per-message sweep (on Redis the settings use channels-redis's Pub/Sub layer as it comes).

Channels' `InMemoryChannelLayer` looks through every channel's queue and every group
membership for expired entries on each `receive` and each `group_send`, so with N sockets
every message costs O(N): at a few hundred sockets that sweep was the largest single cost of
a move in one daphne process (bench/realtime.py, profiled with py-spy). Here the sweep runs
at most once every `sweep_interval` seconds. Messages still expire after `expiry` seconds (a
second late at most) and group memberships after `group_expiry`.

That is the whole change. Measured at 150 games (1,200 sockets, 2026-11-26, two runs each):
the stock layer 39.7 and 42.4 ms of daphne CPU per move (push p99 1.5 and 2.2 s), this one
25.4 ms (p99 about 310 ms); keeping each channel's queue while it is read and a `group_send`
without a task per member, which this class also did until then, changed nothing measurable
(24.6 and 25.8 ms), so they went (bench/results/realtime.md).
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    # Written against Channels 4.3.2; tests/fences/ fails when an upgrade changes what this
    # relies on: it overrides (and calls) the private InMemoryChannelLayer._clean_expired,
    # which the parent's receive and group_send call before their work.

    def __init__(self, sweep_interval: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sweep_interval = sweep_interval
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_interval
        super()._clean_expired()  # type: ignore[misc]  # not in channels' type stubs
