"""The registry of game kinds: the one place where the platform learns which games exist.

The lobby, the table frame, real time, persistence and the bot runner know a game only
through its `GameKind`: a stable slug stored on the game row, and behind it the rules (pure,
`games/kinds/<game>/engine/`), the bots, the options chosen at creation, and how its table is
drawn (`games/kinds/<game>/table.py` with its templates). A new game is a folder under
`games/kinds/` and one line in `KIND_MODULES`.
"""

from __future__ import annotations

import importlib

from games.gamekind import GameKind
from games.kinds.conformance import TraceChecker

# One line per game: the module that declares `KIND`.
KIND_MODULES = (
    "games.kinds.hundred_and_ten.kind",
    "games.kinds.hearts.kind",
    "games.kinds.one_hundred_and_four.kind",
    "games.kinds.fifty_six.kind",
)


def _load() -> dict[str, GameKind]:
    kinds: dict[str, GameKind] = {}
    for module in KIND_MODULES:
        kind = importlib.import_module(module).KIND
        if kind.slug in kinds:
            raise ValueError(f"Two game kinds are called {kind.slug!r}.")
        kinds[kind.slug] = kind
    return kinds


REGISTRY: dict[str, GameKind] = _load()


def kind(slug: str) -> GameKind:
    """The kind called `slug` (KeyError for an unknown one: stored slugs are always known)."""
    return REGISTRY[slug]


def choices() -> list[tuple[str, str]]:
    """(slug, name) of every game, as offered when creating a game."""
    return [(k.slug, k.name) for k in REGISTRY.values()]


def conformance_checkers() -> dict[str, TraceChecker]:
    return {slug: k.conformance for slug, k in REGISTRY.items()}
