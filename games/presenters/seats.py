"""Where each seat's card flies in from, by CSS: the same bytes of a trick for every viewer.

A card just played slides into the trick from its player's side of the felt, and that side
depends on who is looking (games/presenters/context.py `positions`). The trick names the
seat alone (`data-seat`); the table names its size and the viewer's chair (`data-seats`,
`data-view-seat` on `.table`); and `static/css/seats.css`, written from `positions` by
`manage.py seats_css`, gives each (size, chair, seat) its starting offset. A test keeps the
file in step with this module (tests/games/test_seats_css.py). See docs/render-once.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.presenters.context import positions
from games.registry import REGISTRY

PATH = "static/css/seats.css"

# The offset a card starts from, by the side of the felt it comes from. Seats in a row above
# the felt (five or more) keep the default of static/css/table.css's keyframes.
FROM = {
    "bottom": "--from-y: 4rem;",
    "top": "--from-y: -4rem;",
    "left": "--from-x: -5rem; --from-y: 0;",
    "right": "--from-x: 5rem; --from-y: 0;",
}


def seat_counts() -> list[int]:
    """Every table size a game of the registry is played at."""
    return sorted({n for kind in REGISTRY.values() for n in kind.seat_counts})


def fly_in_rules(counts: Iterable[int]) -> list[str]:
    rules = []
    for players in counts:
        for chair in range(players):
            for seat, side in enumerate(positions(players, chair)):
                if side in FROM:
                    rules.append(
                        f'.table[data-seats="{players}"][data-view-seat="{chair}"] '
                        f'.trick-play[data-seat="{seat}"] {{ {FROM[side]} }}'
                    )
    return rules


def stylesheet() -> str:
    head = (
        "/* Written by `manage.py seats_css` from games/presenters/seats.py: do not edit.\n"
        "   Where a card just played flies in from (a trick is the same bytes for every\n"
        "   viewer; the side depends on the viewer's chair). */\n"
    )
    return head + "\n".join(fly_in_rules(seat_counts())) + "\n"
