"""What the hidden-information tests share: the pages each viewer loads after a move, and
moves taken back by consent in the middle of them.

Each game's test plays seeded random moves through the move view and, after every accepted
post, loads these pages for every member and the outsider dave, then checks the cards in
each against what that viewer may see (the check is the game's own). The table page every
time; the pages that draw nothing the page does not (the `#table` partial: the same block
of the same template, with the same context) or that hold no cards at all (the lobby) in a
fixed share of the rounds: each is still checked all through every game, and the suite's
longest tests take a quarter to a third less time (bench/results/suite.md). Now and then
the mover asks to take a move back and the others answer (`Undos`), and the pages are
checked after each of those posts too: after an accepted undo the state is the one before
the move, so the card taken back is in its player's hand again, and hidden from everybody
else.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse

from games.models import Game, GameAction, Membership
from games.services import states
from games.services.undo import Undo, may_ask
from tests.conftest import HX
from tests.games.conftest import state_answered

# A hint is the hard bot's search (tens of milliseconds), decided from the seat's view alone
# (tests/kinds/test_search.py); every fifth version's hint is loaded and checked here.
HINT_EVERY = 5
# The `#table` partial every second round of loads, the lobby every fifth (by the count of
# rounds, not the version: bots' moves would skip versions in a fixed pattern).
PARTIAL_EVERY = 2
LOBBY_EVERY = 5


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
        self.rounds = 0  # how many times every viewer's pages were loaded
        self.loaded: set[str] = set()  # the kinds of page loaded so far

    def loaded_every_kind(self) -> None:
        """Fail unless the page, the partial and the lobby were each loaded (the hint is
        loaded only when due, which a short game may never be)."""
        assert {"page", "partial", "lobby"} <= self.loaded, self.loaded

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

        The page every time; the partial every PARTIAL_EVERY-th round and the lobby every
        LOBBY_EVERY-th; the hint only for a seat in `to_act`, and only every HINT_EVERY-th
        version. dave's pages of a table that is not public are refused (404), and yielded
        only if `refused_too`; every other page is a 200.
        """
        now = {
            "page": True,
            "partial": self.rounds % PARTIAL_EVERY == 1,
            "lobby": self.rounds % LOBBY_EVERY == 0,
            "hint": self.game.version % HINT_EVERY == 0,
        }
        self.rounds += 1
        for viewer in self.viewers:
            seat = self.seat_of.get(viewer)
            for kind, (url, headers) in self.pages.items():
                if not now[kind] or (kind == "hint" and (seat is None or seat not in to_act)):
                    continue
                self.loaded.add(kind)
                response = self.clients[viewer].get(url, headers=headers)
                if viewer == "dave" and not self.public and kind != "lobby":
                    assert response.status_code == 404
                    if not refused_too:
                        continue
                else:
                    assert response.status_code == 200, (kind, viewer)
                yield viewer, seat, kind, response.content.decode()


# One move in UNDO_ODDS that the table offers to take back (games/services/undo.py) is asked
# about (by default; a test of websocket frames, which waits for each post's frames to
# settle, asks less often); half the questions are declined.
UNDO_ODDS = 6
FRAMES_UNDO_ODDS = 20


class Undos:
    """Undo by consent in a random game played through the views: after a move its rules
    let be taken back (offered: the mover's own last action, nobody has acted since, in an
    unrated game), one time in `odds` the mover asks to take it back, and the other
    people answer: all yes, or yes until one says no (seeded, by a random generator of its
    own). A move taken back is made again at once, so that the game goes on as it would
    have without the question (the seeded games' own checks of what happens in them hold).

    `clients`: a logged-in client by the seat of each person at the table (bots are not
    asked). `take_back(mover, move)` makes those posts one at a time and yields after each
    one; an asynchronous test drives `plan` and `post` itself. Counts what happened
    (`asked`, `taken_back`, `declined`), and `finish` checks the log's undo rows.

    Every page is worth loading again after the question and after the last answer (the
    table as asked, and as it ended); not after a "yes" that leaves others to answer (the
    same table, with one name fewer to wait for), nor after the move made again (the same
    table its first making led to): after those, the answer is checked alone."""

    def __init__(
        self, game: Game, clients: Mapping[int, Any], seed: str, odds: int = UNDO_ODDS
    ) -> None:
        self.game = game
        self.clients = dict(clients)
        self.rng = random.Random(f"undo {seed}")
        self.odds = odds
        self.urls = {
            "undo": reverse("undo", kwargs={"game_id": game.pk}),
            "move": reverse("move", kwargs={"game_id": game.pk}),
        }
        self.asked = self.taken_back = self.declined = 0
        self.question = 0  # the number of the action last asked about

    def plan(self, mover: int, move: Mapping[str, Any]) -> list[tuple[int, str, dict[str, Any]]]:
        """The posts (seat, "undo" or "move", data) that take back or try to take back
        `mover`'s `move` (its form data) just made, in order; none most times."""
        game = self.game
        game.refresh_from_db()
        members = Membership.objects.filter(game=game, seat__isnull=False)
        if not may_ask(game, mover, members) or self.rng.randrange(self.odds):
            return []
        others = sorted(seat for seat in self.clients if seat != mover)
        self.rng.shuffle(others)
        refuser = self.rng.randrange(len(others)) if others and self.rng.random() < 0.5 else None
        answers = others if refuser is None else others[: refuser + 1]
        return [
            (mover, "undo", {"version": game.version}),
            *(
                (seat, "undo", {"answer": "no" if i == refuser else "yes"})
                for i, seat in enumerate(answers)
            ),
            *([(mover, "move", dict(move))] if refuser is None else []),
        ]

    def post(self, seat: int, view: str, data: Mapping[str, Any]) -> tuple[str, Any]:
        """`seat` posts `data` to `view` (a move: from the table as it is now), which must
        accept it; the answer's HTML and the state it shows (the game row refreshed)."""
        game = self.game
        game.refresh_from_db()
        before = game.action_count
        if view == "move":
            data = {**data, "version": game.version}
        response = self.clients[seat].post(self.urls[view], data, headers=HX)
        html: str = response.content.decode()
        assert response.status_code == 200, html[:300]
        game.refresh_from_db()
        undo = Undo.of(game)
        if view == "move":  # drawn before any bot moved
            return html, state_answered(game, before)
        if "version" in data:
            self.asked += 1
            # Every other person is asked, and no bot.
            people = tuple(sorted(s for s in self.clients if s != seat))
            assert undo is not None and undo.asked == people, undo
            self.question = undo.seq
        elif data["answer"] == "no":
            self.declined += 1
            assert undo is not None and undo.refused == "declined", undo
        state = states.load_state(game)
        if game.action_count > before:
            self.taken_back += 1
            # The table says whose move was taken back; nothing more may be asked of it.
            assert undo is not None and undo.taken and undo.seq == game.action_count, undo
            # The game is as it was before the move taken back (the log replayed to it).
            earlier = copy.copy(game)
            earlier.action_count = self.question - 1
            assert state == states.load_state(earlier)
        return html, state

    def take_back(
        self, mover: int, move: Mapping[str, Any]
    ) -> Iterator[tuple[int, str, Any, bool]]:
        """Perhaps take back `mover`'s `move` just made: yields (seat, answer's HTML, the
        state it shows, whether to check every page now) after each post, for the caller
        to check the answer, and every page when told to."""
        posts = self.plan(mover, move)
        last_answer = max(
            (i for i, (_s, view, _d) in enumerate(posts) if view == "undo"), default=0
        )
        for i, (seat, view, data) in enumerate(posts):
            yield seat, *self.post(seat, view, data), i in (0, last_answer)

    def finish(self, tally: list[int]) -> None:
        """At the end of the game: every question ended as counted, and each move taken
        back is one undo row of the log; their number is added to `tally` (the module's)."""
        rows = GameAction.objects.filter(game=self.game, undoes__isnull=False).count()
        assert self.asked == self.taken_back + self.declined, vars(self)
        assert rows == self.taken_back, (rows, self.taken_back)
        tally.append(rows)


def moves_were_taken_back(tally: list[int], games: int) -> None:
    """A module's last test: over its `games` (each `finish`ed into `tally`), moves were
    taken back. Skipped when only some of them ran (a test run by name)."""
    if len(tally) < games:
        pytest.skip(f"{len(tally)} of the {games} games ran")
    assert sum(tally) > 0, tally
