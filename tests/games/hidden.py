"""What the hidden-information tests share: the pages each viewer loads after a move.

Each game's test plays seeded random moves through the move view and, after every accepted
post, loads these pages for every member and the outsider dave, then checks the cards in
each against what that viewer may see (the check is the game's own).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from games.models import Game
from games.services import states
from tests.conftest import HX

# A hint is the hard bot's search (tens of milliseconds), decided from the seat's view alone
# (tests/kinds/test_search.py); every fifth version's hint is loaded and checked here.
HINT_EVERY = 5


def table_pages(game) -> dict[str, tuple[str, dict[str, str]]]:
    """The table page, its `#table` partial, the hint and the lobby: (url, headers) by kind."""
    return {
        "page": (reverse("table", kwargs={"game_id": game.pk}), {}),
        "partial": (reverse("table", kwargs={"game_id": game.pk}), HX),
        "hint": (reverse("hint", kwargs={"game_id": game.pk}), HX),
        "lobby": (reverse("lobby"), {}),
    }


@dataclass
class Watched:
    """A table the `humans` play through the move view, watched by `viewers` (by default
    the humans and the outsider dave), each with a logged-in client in `clients`."""

    game: Game
    clients: dict[str, Any]
    humans: list[str]
    public: bool
    viewers: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seat_of = {n: s for s, n in enumerate(self.humans)}
        self.viewers = self.viewers or [*self.humans, "dave"]
        self.pages = table_pages(self.game)
        self.move_url = reverse("move", kwargs={"game_id": self.game.pk})

    def state(self):
        """The state now (the game row refreshed first)."""
        self.game.refresh_from_db()
        return states.load_state(self.game)

    def post(self, mover: str, data: dict[str, Any]) -> str:
        """`mover` posts a move that must be accepted; the answer's HTML."""
        response = self.clients[mover].post(self.move_url, data, headers=HX)
        assert response.status_code == 200, response.content.decode()[:300]
        html: str = response.content.decode()
        return html

    def load(
        self, to_act: Collection[int], *, refused_too: bool = False
    ) -> Iterator[tuple[str, int | None, str, str]]:
        """Load every page for every viewer; yield (viewer, seat, kind, html).

        The hint only for a seat in `to_act`, and only every HINT_EVERY-th version. dave's
        pages of a table that is not public are refused (404), and yielded only if
        `refused_too`; every other page is a 200.
        """
        for viewer in self.viewers:
            seat = self.seat_of.get(viewer)
            for kind, (url, headers) in self.pages.items():
                if kind == "hint" and (
                    seat is None or seat not in to_act or self.game.version % HINT_EVERY
                ):
                    continue
                response = self.clients[viewer].get(url, headers=headers)
                if viewer == "dave" and not self.public and kind != "lobby":
                    assert response.status_code == 404
                    if not refused_too:
                        continue
                else:
                    assert response.status_code == 200, (kind, viewer)
                yield viewer, seat, kind, response.content.decode()
