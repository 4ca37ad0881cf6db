"""Hundred and Ten as a game kind of the platform (listed in games/registry.py)."""

from __future__ import annotations

from games.gamekind import GameKind

KIND = GameKind.of(
    __package__,
    blurb="The Irish trick-taking game: bid, name trump, discard and draw, take tricks.",
    stylesheet="css/kinds/hundred-and-ten.css",
)
