"""Fifty-Six: no page, partial, hint, lobby or websocket frame shows a card, or the trump,
that its viewer may not see.

Random matches (4 and 6 seats, one to four humans, bots in the other seats, some public so
that the outsider dave watches) are played through the HTTP move view, the humans mixing
the naive bot's choice, random legal actions and asking for the trump. After every accepted
post, every member and dave load the table page, the `#table` partial and the lobby (the
last two in a share of the rounds: tests/games/hidden.py; the player to act also the
hint); now and then a player who is not to act asks for the trump (refused). Each answer
is checked by tests/kinds/fifty_six/hidden.py:
never another seat's hand (the partner's included), never the face-down trump card, nor its
suit ("Trump revealed", the trump chip, "only you see this"), to anybody but the bidder
before somebody asks (the spectator included), and never the trump of a finished hand
nobody asked for (a void hand; a tani lost before anybody asked). Counters make sure the
checks saw real tables: the concealed trump from both sides and by the spectator, reveals,
hands that ended with the trump still down.

Now and then a bid, a pass or a card that the rules let be taken back is, by consent
(tests/games/hidden.py `Undos`): the mover asks, the other people answer, and the pages are
checked after the question and after its answer; a card taken back is in its player's hand
again, hidden from everybody else.

`test_the_check_catches_a_leak` shows once that the check fails on a real leak (the
bidder's page shown to the others). A test opens a websocket per player and one for the
spectator and checks every frame pushed during a hand in which a player asks for the trump
and moves are taken back (an unrated game of four people). The last test sees that moves
were taken back in the matches.
"""

from __future__ import annotations

import asyncio
import random
from itertools import chain

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.kinds.fifty_six.bots import suggest
from games.kinds.fifty_six.engine import (
    RULES,
    AskTrump,
    Bid,
    FiftySixState,
    card_code,
    make_bid,
)
from games.models import Game
from games.services import states
from tests.conftest import HX, logged_in_client, make_user
from tests.games.conftest import start_table, state_answered
from tests.games.hidden import FRAMES_UNDO_ODDS, Undos, Watched, moves_were_taken_back
from tests.games.table_helpers import fifty_six_form as form
from tests.kinds.fifty_six.hidden import check, table_version, trump_secret
from tests.realtime.conftest import frames_until_quiet, open_socket, session_cookie
from tests.timeouts import HEAVY_TIMEOUT

# The longest pieces (one long match or game each) still exceeded 60 s on a loaded machine.
pytestmark = pytest.mark.timeout(HEAVY_TIMEOUT)

KIND = "fifty-six"
HUMANS = ("alice", "bob", "carol", "erin")
# The moves taken back in each match (tests/games/hidden.py `Undos`), for the last test.
TAKEN_BACK: list[int] = []
# (seed, seats, humans, public, policy, hands, shows): humans sit at seats 0 … n-1 (teams
# alternate: 0 and 2 are partners); at most `hands` hands are played. "56-void-201": with
# naive play alice's first contract is void (the defenders hold no trump), so its trump
# is never seen. "tani": the first human to call bids 56 and plays alone. One test a match;
# `shows` is what that match's seeded play is there to check, asserted to have happened:
# "concealed" pages with the trump face down, "bidder" the bidder's own secret trump,
# "watched" dave's pages with it face down, "reveal" a person asking, "refusal" an idle
# player's ask refused, "hidden" a finished hand whose trump nobody saw.
MATCHES = (
    ("56-hidden-0", 4, 1, True, "mixed", 2, {"concealed", "watched", "reveal"}),
    ("56-hidden-1", 4, 3, False, "mixed", 2, {"concealed", "bidder", "refusal"}),
    ("56-hidden-2", 6, 2, True, "mixed", 2, {"concealed", "watched", "refusal"}),
    (
        "56-hidden-3",
        6,
        4,
        True,
        "mixed",
        2,
        {"concealed", "bidder", "watched", "reveal", "refusal"},
    ),
    ("56-void-201", 4, 4, True, "naive", 1, {"hidden", "refusal"}),
    ("56-hidden-5", 6, 2, True, "tani", 1, {"concealed", "bidder", "watched", "hidden"}),
)


def random_action(
    state: FiftySixState, seat: int, rng: random.Random, policy: str
) -> dict[str, str]:
    """A person's move. Policy "naive": the naive bot's choice. Else ask often (reveals
    mid-trick), else the naive bot's choice or a random legal action (a random bid is the
    lowest one: random high bids would make every hand tani); "tani": open at 56."""
    view = RULES.view(state, seat)
    if policy == "naive":
        return form(suggest(view))
    if policy == "tani" and view.high_bid is None:
        return form(make_bid(56))
    if view.can_ask_trump and rng.random() < 0.5:
        return form(AskTrump())
    action = suggest(view) if rng.random() < 0.7 else rng.choice(view.legal_actions)
    if isinstance(action, Bid):
        action = make_bid(min(view.legal_bids))
    return form(action)


@pytest.fixture
def people(db):
    return {name: make_user(name) for name in (*HUMANS, "dave")}


# Once, on the embedded default (any_topology: tests/conftest.py says why).
@pytest.mark.any_topology
@pytest.mark.parametrize("number", range(len(MATCHES)))
def test_no_page_shows_another_seats_cards_or_the_concealed_trump(people, number):
    clients = {name: logged_in_client(user) for name, user in people.items()}
    checked = shown = concealed = bidder_saw = reveals = refusals = 0
    hidden_trumps = watched = 0
    seed, seats, count, public, policy, hands, shows = MATCHES[number]
    rng = random.Random(seed)
    humans = list(HUMANS[:count])
    game = start_table(
        [people[n] for n in humans],
        bots=seats - count,
        kind=KIND,
        seed=seed,
        public=public,
        options={"tables_per_team": 1},
        name=f"Hidden 56 {number}",
    )
    table = Watched(game, clients, humans, public)
    seat_of = table.seat_of
    undos = Undos(game, {seat_of[n]: clients[n] for n in humans}, seed=seed)
    while True:
        state = table.state()
        if game.status == Game.Status.FINISHED or state.hand_index >= hands:
            history = RULES.view(state, None).history
            hidden_trumps += sum(r.trump is None for r in history)
            if any(r.outcome == "void" for r in history):
                # Everybody is told the hand was void, and nobody its trump card.
                html = clients["dave"].get(table.pages["page"][0]).content.decode()
                assert "held no card of the trump suit; dealt again" in html
            undos.finish(TAKEN_BACK)
            table.loaded_every_kind()
            break
        (seat,) = RULES.to_act(state)
        mover = humans[seat]
        data = {"version": game.version, **random_action(state, seat, rng, policy)}
        answer = table.post(mover, data)
        answered = state_answered(game, game.action_count)
        check(answer, [answered], seat, f"{number} post by {mover}")
        state = table.state()
        reveals += data["kind"] == "ask"
        # Now and then a player who is not to act tries to ask: refused, nothing told.
        idle = [n for n in humans if seat_of[n] not in RULES.to_act(state)]
        if idle and rng.random() < 0.1:
            who = rng.choice(idle)
            refused = clients[who].post(
                table.move_url, {"version": game.version, "kind": "ask"}, headers=HX
            )
            assert refused.status_code in (409, 422), refused.status_code
            check(refused.content.decode(), [state], seat_of[who], f"{number} refusal")
            refusals += 1
        # Every page after the move, and after the question and its last answer when it is
        # taken back (sometimes: the chain asks the generator for its next post once these
        # pages are checked).
        taking_back = undos.take_back(seat, data)
        for poster, undo_answer, drawn, everyone in chain([(0, None, None, True)], taking_back):
            if undo_answer is not None:
                check(undo_answer, [drawn], poster, f"{number} undo post by seat {poster}")
            if not everyone:
                continue
            state = table.state()
            for viewer, at, kind, html in table.load(RULES.to_act(state)):
                where = f"match {number} hand {state.hand_index + 1}, {kind} for {viewer}"
                shown += check(html, [state], at, where)
                checked += 1
                if kind in ("page", "partial"):
                    assert table_version(html) == game.version, where
                    if trump_secret(state, at):
                        assert "Trump card, face down" in html, where
                        concealed += 1
                        watched += at is None
                    elif state.trump >= 0 and not state.revealed:
                        trump_card = RULES.view(state, at).trump_card
                        assert trump_card is not None, where
                        trump = card_code(trump_card)
                        assert "only you see this" in html, where
                        assert f'data-card="{trump}"' in html, where
                        bidder_saw += 1
    # The checks saw real tables (thresholds well below the smallest match's), and what this
    # match is there to show happened.
    assert checked > 14 and shown > 56, (checked, shown)
    counts = {
        "concealed": concealed,
        "bidder": bidder_saw,
        "watched": watched,
        "reveal": reveals,
        "refusal": refusals,
        "hidden": hidden_trumps,
    }
    assert all(counts[what] >= 1 for what in shows), counts


def test_the_check_catches_a_leak(people):
    """The bidder's table, shown to anybody else, fails the check: the face-down card and
    the bidder's hand are caught, and so is a trump chip added to a page."""
    four = [people[n] for n in HUMANS]
    game = start_table(four, kind=KIND, seed="56-leak", options={"tables_per_team": 1})
    clients = [logged_in_client(u) for u in four]
    url = reverse("move", kwargs={"game_id": game.pk})
    state = states.load_state(game)
    while state.trump < 0:
        (seat,) = RULES.to_act(state)
        data = {"version": game.version, **form(suggest(RULES.view(state, seat)))}
        assert clients[seat].post(url, data, headers=HX).status_code == 200
        game.refresh_from_db()
        state = states.load_state(game)
    bidder = state.bidder
    page = reverse("table", kwargs={"game_id": game.pk})
    mine = clients[bidder].get(page, headers=HX).content.decode()
    check(mine, [state], bidder, "the bidder's own table")
    for viewer in [*(s for s in range(4) if s != bidder), None]:
        with pytest.raises(AssertionError, match=r"was shown|reads|learns the trump"):
            check(mine, [state], viewer, "the bidder's table for another")
    other = (bidder + 1) % 4
    theirs = clients[other].get(page, headers=HX).content.decode()
    check(theirs, [state], other, "their own table")
    chip = theirs.replace("</ul>", '<li class="trump-chip">Trump ♠ Spades</li></ul>', 1)
    with pytest.raises(AssertionError, match="learns the trump"):
        check(chip, [state], other, "a trump chip")


@pytest.mark.django_db(transaction=True)
async def test_no_websocket_frame_carries_another_seats_cards_or_the_trump(people):
    four = [people[n] for n in HUMANS]
    game = await database_sync_to_async(start_table)(
        four,
        kind=KIND,
        seed="56-frames",
        public=True,
        options={"tables_per_team": 1},
        rated="no",
    )
    viewers = [*four, people["dave"]]
    cookies = [await database_sync_to_async(session_cookie)(user) for user in viewers]
    seen: dict[int, FiftySixState] = {0: await database_sync_to_async(states.load_state)(game)}
    sockets, received = [], []
    for cookie in cookies:
        ws, first = await open_socket(f"/ws/games/{game.pk}/", cookie)
        sockets.append(ws)
        received.append([first])
    clients = [await database_sync_to_async(logged_in_client)(user) for user in four]
    url = reverse("move", kwargs={"game_id": game.pk})
    undos = Undos(game, dict(enumerate(clients)), seed="56-frames", odds=FRAMES_UNDO_ODDS)

    def move() -> FiftySixState:
        """The naive player's move, but from the third trick on the player to act asks
        when it may (a reveal mid-trick, after frames with the trump face down). Sometimes
        the move is taken back (asked, answered, made again: each post a version of its
        own)."""
        current = Game.objects.get(pk=game.pk)
        state = states.load_state(current)
        (seat,) = RULES.to_act(state)
        view = RULES.view(state, seat)
        action = AskTrump() if view.can_ask_trump and len(view.tricks) >= 2 else suggest(view)
        data = {"version": current.version, **form(action)}
        response = clients[seat].post(url, data, headers=HX)
        assert response.status_code == 200, response.content.decode()[:300]
        current.refresh_from_db()
        seen[current.version] = states.load_state(current)
        for poster, target, posted in undos.plan(seat, data):
            answer, shown = undos.post(poster, target, posted)
            check(answer, [shown], poster, f"undo post by seat {poster}")
            seen[undos.game.version] = states.load_state(undos.game)
        return seen[max(seen)]

    frames_checked = cards_shown = concealed = 0
    state = seen[0]
    while state.hand_index == 0 and state.phase != "match_over":
        state = await database_sync_to_async(move)()
        frames = await asyncio.gather(*(frames_until_quiet(ws) for ws in sockets))
        for viewer, got in enumerate(frames):
            received[viewer].extend(got)
    for viewer, got in enumerate(received):
        seat = viewer if viewer < 4 else None
        at = None
        for frame in got:
            # A frame without a table (presence dots) belongs to the table sent before it.
            version = table_version(frame)
            at = at if version is None else version
            assert at is not None and at in seen, f"a frame of an unknown version {at}"
            near = [seen[v] for v in (at, at + 1) if v in seen]
            cards_shown += check(frame, near, seat, f"frame {at} for seat {seat}")
            concealed += all(trump_secret(s, seat) for s in near)
            frames_checked += 1
    record = seen[max(seen)].history[0]
    assert record.trump_revealed and record.revealed_by is not None  # somebody asked
    assert frames_checked > 150 and cards_shown > 1000, (frames_checked, cards_shown)
    assert concealed > 25, concealed  # frames with the trump face down, to non-bidders
    taken_back: list[int] = []
    await database_sync_to_async(undos.finish)(taken_back)
    assert taken_back[0] > 0, vars(undos)
    for ws in sockets:
        await ws.disconnect()


@pytest.mark.any_topology
def test_moves_were_taken_back_in_the_matches_above():
    moves_were_taken_back(TAKEN_BACK, len(MATCHES))
