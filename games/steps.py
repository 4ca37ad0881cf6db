"""Watching a resolution step by step (One Hundred and Four's placements), on one socket.

Some moves resolve several things at once: when the last of ten players commits a card, all
ten cards are revealed and placed one by one, lowest first. A game's table names the latest
such resolution of a view and how many steps it has (`Table.steps(view)`: a key and a count);
the table socket then shows it one server-rendered state at a time, `TABLE_STEP_SECONDS`
apart, before the current state (games/consumers/tables.py). A page that loads, or a socket
that (re)connects, shows the current state: only a resolution that happens while the page
is open is played out. The player may skip ahead (static/js/table.js sends `{"skip": key}`).

`Steps` is the socket's bookkeeping, Django-free: the render asks `step_for(key, count)`
which step to draw; the event loop calls `advance()` on each tick and `skip(key)`, only
between renders.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_STEPS = ("", 0)  # `Table.steps` of a view with nothing to play out


@dataclass
class Steps:
    seen: str | None = None  # the latest resolution's key this socket has drawn (None: none yet)
    key: str = ""  # the resolution being played out ("" none)
    step: int = 0
    count: int = 0

    @property
    def active(self) -> bool:
        return bool(self.key)

    def step_for(self, key: str, count: int) -> int | None:
        """The step of resolution `key` (with `count` steps) to draw, or None: the current
        state. A key this socket has not drawn before starts at step 0, unless it is the
        socket's first render."""
        if key != self.seen:
            first = self.seen is None
            self.seen = key
            if key and count > 0 and not first:
                self.key, self.step, self.count = key, 0, count
            else:
                self.key = ""
        if self.key and self.key == key:
            return self.step
        self.key = ""
        return None

    def advance(self) -> None:
        """On to the next step; after the last one, the current state."""
        if self.key:
            self.step += 1
            if self.step >= self.count:
                self.key = ""

    def skip(self, key: str) -> bool:
        """Stop playing out `key` (the player skipped ahead); False if it was not playing."""
        if self.key and key == self.key:
            self.key = ""
            return True
        return False
