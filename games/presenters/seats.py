"""Where each seat sits on the felt, by CSS: the same bytes of a felt for every viewer.

Each viewer sits at the bottom of the felt, the next seat on their left; past four seats the
others sit in a row across the top, in playing order from the viewer's left. That depends
on who is looking, so the felt does not say it: it draws every seat in seat order, naming
each by `data-seat` alone (and a card in the trick likewise), and the table names its size
and the viewer's chair (`data-seats`, `data-view-seat` on `.table`; a spectator sits in
seat 0's chair) and the viewer's own seat, if any (`data-own-seat`). `static/css/seats.css`,
written from this module by `manage.py seats_css`, then places each (size, chair, seat),
gives a card its fly-in offset, and shows the marks of the viewer's own seat ("(you)",
"your turn") while hiding its card backs. A test keeps the file in step with this module
(tests/games/test_seats_css.py). See docs/render-once.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.registry import REGISTRY

PATH = "static/css/seats.css"

# Seat positions around the felt, by offset from the viewer's seat (the viewer at the
# bottom; the next seat sits on the viewer's left). Past four seats the others sit in a
# row across the top, in playing order.
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}
# static/css/table.css's grid areas, by table size and side: three seats sit in the top
# corners, across the trick from the viewer.
AREAS = {(3, "left"): "tl", (3, "right"): "tr"}

# The offset a card starts from, by the side of the felt it comes from. Seats in a row above
# the felt (five or more) keep the default of static/css/table.css's keyframes.
FROM = {
    "bottom": "--from-y: 4rem;",
    "top": "--from-y: -4rem;",
    "left": "--from-x: -5rem; --from-y: 0;",
    "right": "--from-x: 5rem; --from-y: 0;",
}


def positions(players: int, bottom: int) -> tuple[str, ...]:
    """Where each seat sits for a viewer in seat `bottom` (spectators: seat 0's place)."""
    around = POSITIONS.get(players) or ("bottom", *(f"row-{i}" for i in range(1, players)))
    return tuple(around[(seat - bottom) % players] for seat in range(players))


def many(players: int) -> bool:
    """Whether the others sit in a row across the top (`felt-many`)."""
    return players > len(POSITIONS) + 1


def seat_counts() -> list[int]:
    """Every table size a game of the registry is played at."""
    return sorted({n for kind in REGISTRY.values() for n in kind.seat_counts})


def most() -> int:
    """The most seats a game of the registry is played at: the rules below cover them all."""
    return max(seat_counts())


def _at(players: int, chair: int) -> str:
    return f'.table[data-seats="{players}"][data-view-seat="{chair}"]'


def area_rules(counts: Iterable[int]) -> list[str]:
    """Up to four seats: each seat's grid area, as the viewer sits."""
    return [
        f'{_at(players, chair)} .felt > .seat[data-seat="{seat}"] '
        f"{{ grid-area: {AREAS.get((players, side), side)}; }}"
        for players in counts
        if not many(players)
        for chair in range(players)
        for seat, side in enumerate(positions(players, chair))
    ]


def row_rules() -> list[str]:
    """Five seats or more: the others in playing order from the viewer's left (the seats
    after the viewer's, then those before it), the viewer's own seat alone below the middle."""
    n = most()
    rules = [f'.felt-many > .seat[data-seat="{seat}"] {{ order: {seat}; }}' for seat in range(n)]
    rules += [
        f'.table[data-view-seat="{chair}"] .felt-many > .seat[data-seat="{seat}"] '
        f"{{ order: {seat + n}; }}"
        for chair in range(n)
        for seat in range(chair)
    ]
    # Then the middle (the game's center, in .center-area: display contents), each of its
    # parts across the felt, then the viewer's own seat.
    middle = f".felt-many > .center-area > * {{ order: {2 * n}; grid-area: auto / 1 / auto / -1; }}"
    own = _each_own(".felt-many > .seat")
    return [*rules, middle, f"{own} {{ order: {3 * n}; grid-area: auto / 1 / auto / -1; }}"]


def _each_own(seat: str, attribute: str = "data-view-seat", inner: str = "") -> str:
    """A selector list: `seat` (with `inner` inside it) where it is the chair's own seat."""
    return ",\n".join(
        f'.table[{attribute}="{chair}"] {seat}[data-seat="{chair}"]{inner}'
        for chair in range(most())
    )


def fly_in_rules(counts: Iterable[int]) -> list[str]:
    return [
        f'{_at(players, chair)} .trick-play[data-seat="{seat}"] {{ {FROM[side]} }}'
        for players in counts
        for chair in range(players)
        for seat, side in enumerate(positions(players, chair))
        if side in FROM
    ]


def stylesheet() -> str:
    counts = seat_counts()
    bottom = _each_own(".felt > .seat")
    parts = [
        "/* Written by `manage.py seats_css` from games/presenters/seats.py: do not edit.\n"
        "   The felt is the same bytes for every viewer; where each seat sits, where a card\n"
        "   just played flies in from, and which seat is the viewer's depend on the\n"
        "   viewer's chair (.table's data-view-seat) and own seat (data-own-seat). */",
        "/* Up to four seats: each seat's place around the trick. */",
        *area_rules(counts),
        "/* The chair's own seat: at the foot of the felt, centred. */",
        # static/css/table.css narrows it on a phone (--own-seat-min-width).
        f"{bottom} {{ grid-area: bottom; justify-self: center; align-self: center; "
        "min-width: var(--own-seat-min-width, 12rem); }",
        "/* Five seats or more: a row in playing order from the viewer's left. */",
        *row_rules(),
        "/* The viewer's own seat says so; its cards are in the hand, not drawn as backs. */",
        ".seat-you, .chip-turn-you { display: none; }",
        f"{_each_own('.seat', 'data-own-seat', ' .seat-you')},\n"
        f"{_each_own('.seat', 'data-own-seat', ' .chip-turn-you')} {{ display: inline; }}",
        f"{_each_own('.seat', 'data-own-seat', ' .chip-turn-them')},\n"
        f"{_each_own('.seat', 'data-own-seat', ' .seat-backs')} {{ display: none; }}",
        "/* A card just played slides in from its player's side. */",
        *fly_in_rules(counts),
    ]
    return "\n".join(parts) + "\n"
