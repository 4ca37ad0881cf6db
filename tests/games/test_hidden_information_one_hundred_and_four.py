"""One Hundred and Four: no page, partial, hint or websocket frame shows a card its viewer
may not see: another seat's hand, another seat's choice before the reveal, or the cards
nobody was dealt.

Random games (one to four humans, bots in the other seats, two to ten seats, some public so
that the outsider dave watches) are played through the HTTP move view with random legal
actions. After every accepted post, every member and dave load the table page, the `#table`
partial and the lobby (the last two in a share of the rounds: tests/games/hidden.py; the
players who must act also the hint), and every card a page marks (`data-card="17"`, a card's
spoken name "17, 1 bullhead", a card offered as a form value) is checked against the state:
it must not be in another seat's hand, be another seat's committed choice while the turn is
still being chosen, or be one of the deal's unused cards. (One-deal games: in a match a
later deal deals the same numbers again.)

One test a game. A second test opens a websocket per player and one for the spectator and
checks every frame pushed while a game is played, the step-by-step placements included.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.kinds.one_hundred_and_four.engine import RULES, HundredAndFourState
from games.models import Game
from games.services import states
from tests.conftest import HX, logged_in_client, make_user
from tests.games.conftest import start_table
from tests.games.hidden import Watched
from tests.realtime.conftest import frames_until_quiet, open_socket, session_cookie
from tests.timeouts import HEAVY_TIMEOUT

# The longest pieces (one long match or game each) still exceeded 60 s on a loaded machine.
pytestmark = pytest.mark.timeout(HEAVY_TIMEOUT)

KIND = "one-hundred-and-four"
MARKS = (
    re.compile(r'data-card="(\d+)"'),
    re.compile(r"(\d+), \d bullheads?"),
    re.compile(r'name="card" value="(\d+)"'),
    re.compile(r"Hint: Play (\d+) "),
)
HUMANS = ("alice", "bob", "carol", "erin")


def secret(state: HundredAndFourState, seat: int | None) -> set[int]:
    """The cards `seat` (None: a spectator) may not see at `state`."""
    hidden = set(state.source.deal(state.deal, state.seats).rest)
    for other in range(state.seats):
        if other == seat:
            continue
        view = RULES.view(state, other)
        hidden.update(view.hand)
        if view.phase == "choose" and view.my_choice is not None:
            hidden.add(view.my_choice)  # committed, not yet revealed
    return hidden


def check(html: str, state: HundredAndFourState, seat: int | None, where: str) -> int:
    shown = {int(card) for pattern in MARKS for card in pattern.findall(html)}
    leaked = shown & secret(state, seat)
    assert not leaked, f"{where}: leaked {sorted(leaked)}"
    return len(shown)


def random_action(state: HundredAndFourState, seat: int, rng: random.Random):
    view = RULES.view(state, seat)
    if view.must_take_row:
        return {"kind": "take_row", "row": str(rng.randrange(4))}
    # Low cards often: too-low pauses happen.
    card = min(view.hand) if rng.random() < 0.3 else rng.choice(view.hand)
    return {"kind": "choose", "card": str(card)}


@pytest.fixture
def people(db):
    return {name: make_user(name) for name in (*HUMANS, "dave")}


# Once, on the embedded default (any_topology: tests/conftest.py says why).
@pytest.mark.any_topology
@pytest.mark.parametrize(("number", "seats"), list(enumerate((2, 4, 10, 5))))
def test_no_page_shows_another_seats_cards_or_choice(people, number, seats):
    clients = {name: logged_in_client(user) for name, user in people.items()}
    checked = shown = choices_hidden = pauses = 0
    rng = random.Random(f"104-hidden-{number}")
    humans = list(HUMANS[: 1 + number % 4])[:seats]
    public = number % 2 == 0
    game = start_table(
        [people[n] for n in humans],
        bots=seats - len(humans),
        kind=KIND,
        seed=f"104-hidden-{number}",
        public=public,
        name=f"Hidden 104 {number}",
    )
    table = Watched(game, clients, humans, public)
    seat_of = table.seat_of
    while True:
        state = table.state()
        if game.status == Game.Status.FINISHED:
            break
        waiting = [n for n in humans if seat_of[n] in RULES.to_act(state)]
        mover = rng.choice(waiting)
        data = {"version": game.version, **random_action(state, seat_of[mover], rng)}
        answer = table.post(mover, data)
        state = table.state()
        check(answer, state, seat_of[mover], f"{number} post by {mover}")
        pauses += state.phase == "pause"
        choices_hidden += state.phase == "choose" and any(state.choices)
        for viewer, seat, kind, html in table.load(RULES.to_act(state)):
            where = f"game {number} turn {state.turn + 1}, {kind} for {viewer}"
            shown += check(html, state, seat, where)
            checked += 1
    # Thresholds well below the smallest game's (two seats): a too-low pause and half-chosen
    # turns were seen, and the checks saw real tables.
    assert pauses >= 1 and choices_hidden >= 5, (pauses, choices_hidden)
    assert checked > 25 and shown > 350, (checked, shown)
    table.loaded_every_kind()


@pytest.mark.django_db(transaction=True)
async def test_no_websocket_frame_carries_another_seats_cards_or_choice(people, settings):
    settings.TABLE_STEP_SECONDS = 0.02  # the placements are played out, quickly
    four = [people[n] for n in HUMANS]
    game = await database_sync_to_async(start_table)(
        four, bots=2, kind=KIND, seed="104-frames", public=True, name="Frames"
    )
    viewers = [*four, people["dave"]]
    cookies = [await database_sync_to_async(session_cookie)(user) for user in viewers]
    sockets = [(await open_socket(f"/ws/games/{game.pk}/", c))[0] for c in cookies]
    rng = random.Random("104-frames")
    clients = [await database_sync_to_async(logged_in_client)(user) for user in four]
    url = reverse("move", kwargs={"game_id": game.pk})

    def move() -> tuple[HundredAndFourState, bool]:
        current = Game.objects.get(pk=game.pk)
        state = states.load_state(current)
        seat = rng.choice(sorted(s for s in RULES.to_act(state) if s < 4))
        data = {"version": current.version, **random_action(state, seat, rng)}
        response = clients[seat].post(url, data, headers=HX)
        assert response.status_code == 200, response.content.decode()[:300]
        current.refresh_from_db()
        return states.load_state(current), current.status == Game.Status.FINISHED

    frames_checked = cards_shown = steps_seen = 0
    over = False
    while not over:
        state, over = await database_sync_to_async(move)()
        received = await asyncio.gather(*(frames_until_quiet(ws) for ws in sockets))
        for viewer, frames in enumerate(received):
            seat = viewer if viewer < 4 else None
            for frame in frames:
                cards_shown += check(frame, state, seat, f"frame for seat {seat}")
                steps_seen += "data-step=" in frame
                frames_checked += 1
    assert frames_checked > 150 and cards_shown > 2000 and steps_seen > 50
    for ws in sockets:
        await ws.disconnect()
