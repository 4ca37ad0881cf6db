"""One Hundred and Four as a game kind of the platform (listed in games/registry.py)."""

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
            "Two to ten players each pick a card at once; every sixth card in a row, or one "
            "lower than them all, takes a row of bullheads: fewest wins."
        ),
    ),
    places=lowest_first,
    default_seats=4,
    simulation_figure="penalty per game",
    stylesheet="css/kinds/one-hundred-and-four.css",
)
