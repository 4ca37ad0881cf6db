"""The game sockets open in this process, by game (table and waiting room; counted by
games/consumers/game.py as each opens and closes).

What is drawn after a commit only for the redraws of a game's sockets (the table basis,
games/presenters/basis.py `on_version_committed`) is drawn from the database only where some
socket of that game is open: a process that holds none (another process's players, the
deadline sweep of a game nobody here watches, a script) leaves it to whoever draws that
version first. Read from any thread; the counts change on the event loop.
"""

from __future__ import annotations

import threading
from collections import Counter

_open: Counter[int] = Counter()
_lock = threading.Lock()


def opened(game_id: int) -> None:
    with _lock:
        _open[game_id] += 1


def closed(game_id: int) -> None:
    with _lock:
        _open[game_id] -= 1
        if _open[game_id] <= 0:
            del _open[game_id]


def any_open(game_id: int) -> bool:
    """Whether a socket of `game_id` is open in this process."""
    return _open.get(game_id, 0) > 0
