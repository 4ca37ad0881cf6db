"""Fifty-Six as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext_lazy

from games.gamekind import GameKind
from games.kinds.protocol import alternating_teams

KIND = GameKind.of(
    __package__,
    # Lazy, so that every page shows it in its own language (GameKind types it as a str).
    blurb=cast(
        str,
        gettext_lazy(
            "Two teams of two or three, a double deck, an auction for the contract and a trump "
            "card only the bidder has seen: win the tables of the other team."
        ),
    ),
    teams=alternating_teams,
    default_seats=4,
    stylesheet="css/kinds/fifty-six.css",
)
