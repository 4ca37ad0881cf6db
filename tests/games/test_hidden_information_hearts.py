"""Hearts: no page, partial, hint or websocket frame shows a card or a pass its viewer may
not see.

Random Hearts games (one to four humans, bots in the other seats, some public so that the
outsider dave watches) are played through the HTTP move view with seeded random legal
actions. After every accepted post, every member and dave load the table page, the `#table`
partial and the lobby (the last two in a share of the rounds: tests/games/hidden.py; the
players whose turn it is also the hint), and we check each card-identifying mark
(`data-card="QS"`) and each card name ("Queen of Spades") against what the viewer may see:
their own hand, the three cards they passed and the three they received, and the cards
played to tricks (public once played). Never another seat's hand, never another seat's pass
(before the exchange those cards are still in the passer's hand, so a leaked pass shows up
as a leaked card).

Now and then a card played to a trick it does not complete is taken back by consent
(tests/games/hidden.py `Undos`): the mover asks, the other people answer, and the pages are
checked after the question and after its answer; a card taken back is in its player's hand
again, hidden from everybody else.

One test a game, and a last one that sees moves were taken back in them. A second test
opens a websocket per player and one for the spectator and checks every frame pushed while a
hand is passed and played, a card taken back among them (an unrated game of four people).
"""

from __future__ import annotations

import asyncio
import random
import re
from itertools import chain

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.kinds.hearts import engine
from games.models import Game, Membership
from games.services import states
from tests.conftest import HX, logged_in_client, make_user
from tests.games.conftest import start_table, state_answered
from tests.games.hidden import FRAMES_UNDO_ODDS, Undos, Watched, moves_were_taken_back
from tests.realtime.conftest import frames_until_quiet, open_socket, session_cookie
from tests.timeouts import HEAVY_TIMEOUT

# The longest pieces (one long match or game each) still exceeded 60 s on a loaded machine.
pytestmark = pytest.mark.timeout(HEAVY_TIMEOUT)

GAMES = 4
# The moves taken back in each game (tests/games/hidden.py `Undos`), for the last test.
TAKEN_BACK: list[int] = []
MAX_HANDS = 2
CARD_ATTR = re.compile(r'data-card="([^"]+)"')
ALL_CARDS = frozenset(engine.Card(c) for c in range(52))


def unplayed(state) -> set[engine.Card]:
    """Cards still in somebody's hand (passes not yet exchanged included)."""
    cards: set[engine.Card] = set()
    for seat in range(4):
        cards.update(engine.view_of(state, seat).hand)
    return cards


def visible(state, seat: int | None) -> set[engine.Card]:
    """The cards `seat` (None: a spectator) may see at `state`."""
    allowed = set(ALL_CARDS - unplayed(state))  # played to a trick: public
    if seat is not None:
        view = engine.view_of(state, seat)
        allowed.update(view.hand)
        allowed.update(view.my_pass or ())
        allowed.update(view.received or ())
    return allowed


def check(html: str, state, seat: int | None, where: str) -> int:
    allowed = visible(state, seat)
    shown = {engine.parse_card(code) for code in CARD_ATTR.findall(html)}
    leaked = shown - allowed
    assert not leaked, f"{where}: leaked {sorted(engine.card_code(c) for c in leaked)}"
    for card in ALL_CARDS - allowed:
        assert engine.card_name(card) not in html, f"{where}: named {engine.card_name(card)}"
    return len(shown)


def random_action(state, seat: int, rng: random.Random):
    view = engine.view_of(state, seat)
    if view.can_pass:
        return {"kind": "pass", "cards": [engine.card_code(c) for c in rng.sample(view.hand, 3)]}
    return {"kind": "play", "card": engine.card_code(rng.choice(view.legal_plays))}


@pytest.fixture
def people(db):
    return {name: make_user(name) for name in ("alice", "bob", "carol", "erin", "dave")}


# Once, on the embedded default (any_topology: tests/conftest.py says why).
@pytest.mark.any_topology
@pytest.mark.parametrize("number", range(GAMES))
def test_no_page_shows_another_seats_cards_or_pass(people, number):
    clients = {name: logged_in_client(user) for name, user in people.items()}
    checked = shown_cards = passes_seen = 0
    rng = random.Random(f"hearts-hidden-{number}")
    humans = ["alice", "bob", "carol", "erin"][: 1 + number % 4]
    public = number % 2 == 0
    game = start_table(
        [people[n] for n in humans],
        bots=4 - len(humans),
        kind="hearts",
        seed=f"hearts-hidden-{number}",
        public=public,
        options={"target": 50},
        name=f"Hidden hearts {number}",
    )
    table = Watched(game, clients, humans, public)
    seat_of = table.seat_of
    undos = Undos(game, {seat_of[n]: clients[n] for n in humans}, seed=f"hearts-hidden-{number}")
    while True:
        state = table.state()
        if game.status == Game.Status.FINISHED or state.hand_index >= MAX_HANDS:
            undos.finish(TAKEN_BACK)
            table.loaded_every_kind()
            break
        waiting = [n for n in humans if seat_of[n] in engine.to_act(state)]
        mover = rng.choice(waiting)
        passing = engine.view_of(state, seat_of[mover]).can_pass
        data = {"version": game.version, **random_action(state, seat_of[mover], rng)}
        answer = table.post(mover, data)
        answered = state_answered(game, game.action_count)
        check(answer, answered, seat_of[mover], f"{number} post by {mover}")
        passes_seen += passing
        # Every page after the move, and after the question and its last answer when it is
        # taken back (sometimes: the chain asks the generator for its next post once these
        # pages are checked).
        taking_back = undos.take_back(seat_of[mover], data)
        for poster, said, shown, everyone in chain([(0, None, None, True)], taking_back):
            if said is not None:
                check(said, shown, poster, f"{number} undo post by seat {poster}")
            if not everyone:
                continue
            state = table.state()
            for viewer, seat, kind, html in table.load(engine.to_act(state)):
                where = f"game {number} hand {state.hand_index + 1}, {kind} for {viewer}"
                shown_cards += check(html, state, seat, where)
                checked += 1
    # Thresholds well below the smallest game's (one human, two hands): every human's
    # simultaneous pass was checked mid-way, and the checks saw real tables.
    assert passes_seen >= len(humans), passes_seen
    assert checked > 68 and shown_cards > 420, (checked, shown_cards)


@pytest.mark.django_db(transaction=True)
async def test_no_websocket_frame_carries_another_seats_cards_or_pass(people):
    four = [people[n] for n in ("alice", "bob", "carol", "erin")]
    game = await database_sync_to_async(start_table)(
        four, kind="hearts", seed="hearts-frames", public=True, name="Frames", rated="no"
    )
    cookies = [
        await database_sync_to_async(session_cookie)(user) for user in [*four, people["dave"]]
    ]
    sockets = []
    for cookie in cookies:
        ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
        sockets.append(ws)
    rng = random.Random("frames")
    clients = [await database_sync_to_async(logged_in_client)(user) for user in four]
    frames_checked = cards_shown = 0

    def move(seat: int) -> dict[str, object]:
        current = Game.objects.get(pk=game.pk)
        state = states.load_state(current)
        data = {"version": current.version, **random_action(state, seat, rng)}
        url = reverse("move", kwargs={"game_id": game.pk})
        response = clients[seat].post(url, data, headers=HX)
        assert response.status_code == 200, response.content.decode()[:300]
        return data

    def waiting() -> list[int]:
        return sorted(engine.to_act(states.load_state(Game.objects.get(pk=game.pk))))

    def now() -> tuple[object, bool]:
        current = Game.objects.get(pk=game.pk)
        return states.load_state(current), current.status == Game.Status.FINISHED

    async def check_frames(state) -> None:
        nonlocal frames_checked, cards_shown
        received = await asyncio.gather(*(frames_until_quiet(ws) for ws in sockets))
        for viewer, frames in enumerate(received):
            seat = viewer if viewer < 4 else None
            for frame in frames:
                cards_shown += check(frame, state, seat, f"frame for seat {seat}")
                frames_checked += 1

    # Sometimes a card is taken back (asked, answered, played again): the frames after
    # each of those posts too.
    undos = Undos(game, dict(enumerate(clients)), seed="frames", odds=FRAMES_UNDO_ODDS)
    for _ in range(4 + 52):  # one pass each, then a whole hand of tricks
        seat = rng.choice(await database_sync_to_async(waiting)())
        data = await database_sync_to_async(move)(seat)
        state, over = await database_sync_to_async(now)()
        await check_frames(state)
        for poster, view, posted in await database_sync_to_async(undos.plan)(seat, data):
            answer, shown = await database_sync_to_async(undos.post)(poster, view, posted)
            check(answer, shown, poster, f"undo post by seat {poster}")
            state, over = await database_sync_to_async(now)()
            await check_frames(state)
        if over:
            break
    assert frames_checked > 100 and cards_shown > 1000
    taken_back: list[int] = []
    await database_sync_to_async(undos.finish)(taken_back)
    assert taken_back[0] > 0, vars(undos)
    for ws in sockets:
        await ws.disconnect()
    assert await database_sync_to_async(Membership.objects.filter(game=game).count)() == 4


@pytest.mark.any_topology
def test_moves_were_taken_back_in_the_games_above():
    moves_were_taken_back(TAKEN_BACK, GAMES)
