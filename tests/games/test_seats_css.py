"""static/css/seats.css: the felt and the trick are the same bytes for every viewer, yet each
viewer sits at the felt's foot with the next seat on their left, sees the others in playing
order past four seats, finds "(you)" on their own seat alone, and sees a card just played
come from its player's side (games/presenters/seats.py). The file is read here as CSS, and
checked against the seating each viewer expects, not against the generator's own tables."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from games.presenters import seats
from games.presenters.seats import positions
from games.registry import REGISTRY

RULE = re.compile(
    r'\.table\[data-seats="(\d+)"\]\[data-view-seat="(\d+)"\] '
    r'\.trick-play\[data-seat="(\d+)"\] \{ ([^}]*) \}'
)
SIZES = sorted({n for kind in REGISTRY.values() for n in kind.seat_counts})


def written() -> str:
    return (Path(settings.BASE_DIR) / seats.PATH).read_text()


def rules() -> list[tuple[str, dict[str, str]]]:
    """(selector, declarations) for every selector of every rule of the file (none of them
    inside an @media block)."""
    text = re.sub(r"/\*.*?\*/", "", written(), flags=re.DOTALL)
    assert "@" not in text
    found = [
        (selector, body)
        for group, body in re.findall(r"([^{}]+)\{([^}]*)\}", text)
        for selector in group.split(",")
    ]
    return [
        (" ".join(s.split()), {k.strip(): v.strip() for k, v in declarations(body)})
        for s, body in found
    ]


def declarations(body: str) -> list[tuple[str, str]]:
    return [(d.split(":", 1)[0], d.split(":", 1)[1]) for d in body.split(";") if d.strip()]


def declared(selector: str, prop: str) -> str | None:
    values = [d[prop] for s, d in rules() if s == selector and prop in d]
    assert len(values) <= 1, (selector, prop, values)
    return values[0] if values else None


def test_the_file_is_what_the_generator_writes():
    # If this fails after a change of a game's seat counts: `python manage.py seats_css`.
    assert written() == seats.stylesheet()


def test_every_viewer_sits_at_the_foot_with_the_next_seat_on_their_left():
    # static/css/table.css's areas: two seats face each other, three sit in the top corners.
    expected = {
        2: {0: "bottom", 1: "top"},
        3: {0: "bottom", 1: "tl", 2: "tr"},
        4: {0: "bottom", 1: "left", 2: "top", 3: "right"},
    }
    for n in [n for n in SIZES if n <= 4]:
        for chair in range(n):
            for seat in range(n):
                selector = (
                    f'.table[data-seats="{n}"][data-view-seat="{chair}"] '
                    f'.felt > .seat[data-seat="{seat}"]'
                )
                assert declared(selector, "grid-area") == expected[n][(seat - chair) % n]


def test_past_four_seats_the_others_sit_in_playing_order_from_the_viewers_left():
    many = [n for n in SIZES if n > 4]
    assert many, "a game with a row of seats"
    middle = int(declared(".felt-many > .center-area > *", "order") or -1)
    for n in many:
        for chair in range(n):
            order = {}
            for seat in range(n):
                base = declared(f'.felt-many > .seat[data-seat="{seat}"]', "order")
                mine = declared(
                    f'.table[data-view-seat="{chair}"] .felt-many > .seat[data-seat="{seat}"]',
                    "order",
                )
                order[seat] = int(mine if mine is not None else base or -1)  # the more specific
            row = sorted((s for s in range(n) if s != chair), key=order.__getitem__)
            assert row == [(chair + k) % n for k in range(1, n)], (n, chair, row)
            assert max(order[s] for s in row) < middle < order[chair], (n, chair)
            own = f'.table[data-view-seat="{chair}"] .felt-many > .seat[data-seat="{chair}"]'
            assert declared(own, "grid-area") == "auto / 1 / auto / -1"


def test_the_viewers_own_seat_alone_says_you_and_hides_its_backs():
    shown = [(s, d) for s, d in rules() if "data-own-seat" in s]
    assert shown
    for selector, _ in shown:
        you, seat = re.findall(r'data-(?:own-seat|seat)="(\d+)"', selector)
        assert you == seat, selector
    for chair in range(max(SIZES)):
        own = f'.table[data-own-seat="{chair}"] .seat[data-seat="{chair}"]'
        assert declared(f"{own} .seat-you", "display") == "inline"
        assert declared(f"{own} .chip-turn-you", "display") == "inline"
        assert declared(f"{own} .chip-turn-them", "display") == "none"
        assert declared(f"{own} .seat-backs", "display") == "none"
    # Everywhere else: hidden.
    assert declared(".seat-you", "display") == "none"
    # The viewer's own seat is at the foot, centred; on a phone as narrow as it needs (the
    # property is static/css/table.css's, 0 on a phone).
    for chair in range(max(SIZES)):
        own = f'.table[data-view-seat="{chair}"] .felt > .seat[data-seat="{chair}"]'
        assert declared(own, "justify-self") == "center"
        assert declared(own, "min-width") == "var(--own-seat-min-width, 12rem)"
    table_css = (Path(settings.BASE_DIR) / "static/css/table.css").read_text()
    phone = table_css[table_css.index("@media (max-width: 520px)") :]
    assert "--own-seat-min-width: 0;" in phone[: phone.index("\n}")]


def test_every_viewer_sees_each_card_come_from_its_players_side():
    offsets = {
        (int(n), int(chair), int(seat)): offset
        for n, chair, seat, offset in RULE.findall(written())
    }
    assert {n for n, _, _ in offsets} == set(SIZES)
    for n in SIZES:
        for chair in range(n):
            # The viewer's own card comes from below, wherever they sit.
            assert offsets[n, chair, chair] == "--from-y: 4rem;"
            if n == 4:
                assert offsets[n, chair, (chair + 2) % 4] == "--from-y: -4rem;"  # across
                assert offsets[n, chair, (chair + 1) % 4].startswith("--from-x: -5rem")  # left
                assert offsets[n, chair, (chair + 3) % 4].startswith("--from-x: 5rem")  # right
            for seat in range(n):  # a seat in the row above keeps the keyframes' default
                side = positions(n, chair)[seat]
                assert ((n, chair, seat) in offsets) == (side in seats.FROM), (n, chair, seat)
