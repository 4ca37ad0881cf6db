"""A bounded, thread-safe, per-process cache of values read from committed data.

Used for what never changes once committed (the engine state after the first n actions of a
game; a game version's shared table parts). `put` waits for the current transaction to
commit, so a value from a move that rolls back never gets in; outside a transaction it
stores at once. Least recently used entries go first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Generic, TypeVar

from django.db import transaction

if TYPE_CHECKING:
    from games.models import Game

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def game_identity(game: Game) -> tuple[int, str, float]:
    """What names one game in a key of these caches: its id, seed and creation time (an id
    alone could be reused by a database that was emptied, as tests do)."""
    return (game.pk, game.seed, game.created_at.timestamp())


class CommittedCache(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        transaction.on_commit(lambda: self.put_now(key, value))

    def put_now(self, key: K, value: V) -> None:
        """Store at once: for a value keyed by its own content, which no rollback can make
        wrong (callable on the event loop, where `on_commit` would need the database)."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, key: K) -> None:
        with self._lock:
            self._items.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
