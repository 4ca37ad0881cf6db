"""Hundred and Ten as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext_lazy

from games.gamekind import GameKind

KIND = GameKind.of(
    __package__,
    # Lazy, so that every page shows it in its own language (GameKind types it as a str).
    blurb=cast(
        str,
        gettext_lazy(
            "The Irish trick-taking game: bid, name trump, discard and draw, take tricks."
        ),
    ),
    stylesheet="css/kinds/hundred-and-ten.css",
)
