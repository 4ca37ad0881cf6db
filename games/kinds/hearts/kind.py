"""Hearts as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext_lazy

from games.gamekind import GameKind
from games.kinds.places import lowest_first

KIND = GameKind.of(
    __package__,
    # Lazy, so that every page shows it in its own language (GameKind types it as a str).
    blurb=cast(
        str,
        gettext_lazy(
            "Four players pass three cards, then duck hearts and the queen of spades: "
            "lowest score wins."
        ),
    ),
    places=lowest_first,
    simulation_figure="points per hand",
    stylesheet="css/kinds/hearts.css",
)
