"""Hearts as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from games.gamekind import GameKind
from games.kinds.places import lowest_first

KIND = GameKind.of(
    __package__,
    blurb="Four players pass three cards, then duck hearts and the queen of spades: "
    "lowest score wins.",
    places=lowest_first,
    simulation_figure="points per hand",
    stylesheet="css/kinds/hearts.css",
)
