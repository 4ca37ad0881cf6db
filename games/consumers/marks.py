"""A table redraw that only moves the seats' marks, sent as a patch instead of a whole table.

When another player commits a card at a table of ten, what changes on your page is that
seat's box (chosen, no longer to act) and the banner saying whom the table waits for: not
your hand, the rows or your controls. A table socket then sends just those elements (each
with `data-table-version`, which static/js/table-feel.js moves onto `#table`, and an
`hx-swap-oob` selector: `#table .seat[data-seat='<n>']`, `#table .turn-banner`) instead of
the whole table: one tenth of the bytes, and no render of the rest of the table for each of
the other nine players. No ids: htmx carries an old element's attributes over to the new
one of the same id for a moment at every redraw, which moved a scrolled phone page.

Whether that is so is decided on the table's context, which the socket builds anyway: a
patch is sent only when everything the table draws apart from the seats and the banner
(`outline`) is equal to what the socket's last whole table drew. Anything else that
changes (a key a later change adds to the context included: it is compared unless named
below) makes the socket send the whole table, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# What a patch redraws (the seats, the banner, the version), or what the table does not
# draw at all (`now_ms`: the page's clock, `frame`: the inputs of the rest), or model rows
# compared by the fields the table shows (`game`, `me`: see `outline`). `g` is compared
# less its `seats`, which the seat boxes draw. `felt` is the drawing of the seats and of the
# middle, which `g` holds (the same for every viewer: tests/games/test_felt_alike.py).
PATCHED = frozenset({"version", "seats", "felt", "turn_text", "now_ms", "frame", "g", "game", "me"})


def outline(context: dict[str, Any]) -> tuple[Any, ...]:
    """Everything the `#table` of `context` draws apart from what a patch redraws."""
    me, game = context.get("me"), context["game"]
    return (
        {key: value for key, value in context.items() if key not in PATCHED},
        {key: value for key, value in context.get("g", {}).items() if key != "seats"},
        (game.pk, game.name, game.status),
        None if me is None else (me.pk, me.seat, me.automated),
    )


def seat_marks(context: dict[str, Any]) -> dict[int, tuple[Any, ...]]:
    """What each seat's element on the felt draws (games/_felt.html#seat): seat -> inputs."""
    return {
        s["seat"]: (s["box"], s["active"], s["team"], s["label"]) for s in context.get("seats", ())
    }


@dataclass(frozen=True)
class Drawn:
    """A socket's last whole table, as far as a patch needs it."""

    version: int
    outline: tuple[Any, ...]
    seats: dict[int, tuple[Any, ...]]
    banner: tuple[str, bool]

    @classmethod
    def of(cls, context: dict[str, Any]) -> Drawn:
        return cls(int(context["version"]), outline(context), seat_marks(context), banner(context))


def banner(context: dict[str, Any]) -> tuple[str, bool]:
    """What the turn banner of `context` says, and whether it is the viewer's turn."""
    return str(context.get("turn_text", "")), bool(context.get("my_turn"))


def patch(drawn: Drawn | None, context: dict[str, Any]) -> tuple[str, Drawn] | None:
    """The frame that takes a page showing `drawn` to the table of `context`, when only the
    seats' marks and the banner differ (and what the page then shows); None: send the whole
    table. Never for a step of a resolution played out (games/steps.py)."""
    version = int(context["version"])
    if (
        drawn is None
        or version <= drawn.version
        or context.get("step") is not None
        or "seats" not in context
        or outline(context) != drawn.outline
    ):
        return None
    seats = seat_marks(context)
    if seats.keys() != drawn.seats.keys():
        return None
    changed = [s for s in context["seats"] if seats[s["seat"]] != drawn.seats[s["seat"]]]
    # Each changed seat's element is the same bytes for every socket, and the viewer's banner
    # the same as every other viewer's with the same words: each drawn once (`Felt`). A
    # banner that says what the page shows already is not sent (at a table of ten, the nine
    # still to choose keep "your turn" while the others commit), unless the frame would
    # otherwise be empty: it carries the version onto the page (`data-table-version`).
    felt, words = context["felt"], banner(context)
    frame = "".join(felt.patch(s, version) for s in changed)
    if words != drawn.banner or not frame:
        frame += felt.banner(version, *words)
    return frame, Drawn(version, drawn.outline, seats, words)
