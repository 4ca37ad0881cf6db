"""Replays: built from the action log with the engine, stepped forward and back by move,
trick and hand, from any seat once the game is over, and in a running game only from the
viewer's own seat (or as a spectator of a public game), never showing a card or a secret
move the viewer may not see."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games import registry
from games.kinds.hundred_and_ten import engine
from games.models import Game
from games.presenters.replay import timeline
from games.services import seats, states, table
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import choice_of, start_table

pytestmark = pytest.mark.django_db
CARD = re.compile(r'data-card="([^"]+)"')


def url(game, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("replay", args=[game.pk]) + (f"?{query}" if query else "")


def finished_game(alice, bob):
    """alice and bob hand their seats to bots: the game plays itself to the end."""
    game = start_table([alice, bob], target=30)
    seats.automate(game_id=game.pk, user=alice)
    seats.automate(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_the_timeline_is_the_log_replayed(alice, bob):
    game = finished_game(alice, bob)
    line = timeline(game)
    assert line.last == game.action_count
    assert line.states[-1] == states.load_state(game)
    assert line.hands[0] == 0 and len(line.hands) >= 2  # several hands to a game
    assert line.chapters == tuple(sorted(set(line.chapters)))
    assert len(line.chapters) > len(line.hands)  # tricks inside hands


def test_a_finished_game_steps_forward_and_back(alice, bob):
    game = finished_game(alice, bob)
    client = logged_in_client(alice)
    end = client.get(url(game)).content.decode()
    assert f"Move {game.action_count} of {game.action_count}" in end
    start = client.get(url(game, at=0)).content.decode()
    assert "The deal." in start and f"Move 0 of {game.action_count}" in start
    third = client.get(url(game, at=3)).content.decode()
    assert "Move 3:" in third
    assert f'href="{reverse("replay", args=[game.pk])}?at=2&amp;seat=0"' in third  # back
    assert f'href="{reverse("replay", args=[game.pk])}?at=4&amp;seat=0"' in third  # forward


def test_htmx_steps_get_the_replay_part_alone(alice, bob):
    game = finished_game(alice, bob)
    page = logged_in_client(alice).get(url(game, at=5), HTTP_HX_REQUEST="true")
    html = page.content.decode()
    assert html.lstrip().startswith('<div id="replay"') and "<html" not in html


STEP_LINK = re.compile(r'<a [^>]*aria-label="([^"]+)">(.*?)</a>', re.DOTALL)


def test_the_step_buttons_are_drawn_icons_not_glyphs(alice, bob):
    """⏮ and ⏭ are missing from Debian's default fonts (empty boxes): each arrow button is an
    SVG in the text's colour, named by its aria-label, with no character of its own."""
    game = finished_game(alice, bob)
    html = logged_in_client(alice).get(url(game, at=3)).content.decode()
    start = html.index('class="replay-nav')
    nav = html[start : html.index("</nav>", start)]
    links = dict(STEP_LINK.findall(nav))
    assert sorted(links) == sorted(
        ["Start of the game", "One move back", "One move forward", "End of the game"]
    )
    for label, inside in links.items():
        assert '<svg class="icon"' in inside and 'fill="currentColor"' in inside, label
        assert re.sub(r"<[^>]*>|\s", "", inside) == "", (label, inside)


def test_after_the_end_every_hand_may_be_shown(alice, bob):
    game = finished_game(alice, bob)
    client = logged_in_client(alice)
    line = timeline(game)
    state = line.states[0]
    for seat in (0, 1):
        html = client.get(url(game, at=0, seat=seat)).content.decode()
        shown = set(CARD.findall(html))
        hand = set(map(engine.format_card, state.hands[seat]))
        assert hand and hand <= shown
    spectator = client.get(url(game, at=0, seat="spectator")).content.decode()
    assert not (set(map(engine.format_card, state.hands[0])) & set(CARD.findall(spectator)))


def test_a_running_game_is_replayed_only_from_your_own_seat(alice, bob):
    game = start_table([alice, bob], target=110)
    rng = random.Random(4)
    for _ in range(6):  # a few moves in
        state = states.load_state(game)
        seat = state.active_seat
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        table.submit_move(
            game_id=game.pk,
            user=alice if seat == 0 else bob,
            choice=choice_of(move),
            seen_version=game.version,
        )
        game.refresh_from_db()
    client = logged_in_client(alice)
    assert client.get(url(game, seat=1)).status_code == 403
    assert client.get(url(game, seat="spectator")).status_code == 403
    first = timeline(game).states[0]
    bobs = set(map(engine.format_card, first.hands[1]))
    for at in range(game.action_count + 1):
        html = client.get(url(game, at=at)).content.decode()
        assert not (bobs & set(CARD.findall(html))), f"bob's card at step {at}"
        assert "Show the game as" not in html


def test_spectators_of_a_running_public_game_see_no_hand(alice, bob):
    game = start_table([alice, bob], public=True)
    carol = make_user("carol")
    html = logged_in_client(carol).get(url(game, at=0)).content.decode()
    first = timeline(game).states[0]
    assert not (set(map(engine.format_card, first.hands[0] + first.hands[1]))
                & set(CARD.findall(html)))  # fmt: skip
    assert logged_in_client(carol).get(url(game, seat=0)).status_code == 403


def test_secret_moves_of_others_are_not_described_while_running(alice, bob, carol, dave):
    game = start_table([alice, bob, carol, dave], kind="hearts")
    # Bob passes three cards; alice's replay names who moved, not what was passed.
    rules = registry.kind("hearts").rules
    passed = rules.legal_actions(states.load_state(game), 1)[0]
    table.submit_move(
        game_id=game.pk, user=bob, choice=choice_of(passed), seen_version=game.version
    )
    game.refresh_from_db()
    html = logged_in_client(alice).get(url(game, at=1)).content.decode()
    assert "Bob moved." in html or "bob moved." in html
    assert "Pass the" not in html
    mine = logged_in_client(bob).get(url(game, at=1)).content.decode()
    assert "You: Pass the" in mine


def test_bad_requests_are_refused_cleanly(alice, bob, dave):
    game = finished_game(alice, bob)
    client = logged_in_client(alice)
    assert client.get(url(game, at="x")).status_code == 400
    assert client.get(url(game, at="１")).status_code == 400
    assert client.get(url(game, at=10**9)).status_code == 200  # clamped to the end
    assert logged_in_client(dave).get(url(game)).status_code == 404  # private
    assert client.get(reverse("replay", args=[10**6])).status_code == 404


@pytest.mark.parametrize("seat", ["2", "9", "9" * 30])
def test_a_seat_the_game_does_not_have_is_a_bad_request_not_a_refusal(alice, bob, seat):
    """A two-seat game has no seat 2 or 9: 400 "no such seat" (a bad address, as an
    unreadable step), not the 403 that says the game is in progress."""
    game = finished_game(alice, bob)
    response = logged_in_client(alice).get(url(game, seat=seat))
    assert response.status_code == 400
    html = response.content.decode()
    assert "This game has no such seat." in html
    assert "in progress" not in html


@pytest.mark.parametrize("seat", ["abc", "-1", "1.0", "１", "0x1"])
def test_a_seat_that_cannot_be_read_is_a_bad_request(alice, bob, seat):
    game = finished_game(alice, bob)
    response = logged_in_client(alice).get(url(game, seat=seat))
    assert response.status_code == 400
    assert "That seat could not be read." in response.content.decode()


def test_a_running_game_has_no_such_seat_either(alice, bob):
    game = start_table([alice, bob], target=110)
    client = logged_in_client(alice)
    assert client.get(url(game, seat=7)).status_code == 400
    assert client.get(url(game, seat=1)).status_code == 403  # there, but not alice's


@pytest.mark.parametrize(
    ("kind", "players", "options"),
    [
        ("hundred-and-ten", 3, {"target": 60}),
        ("hearts", 4, {"target": 50}),
        ("one-hundred-and-four", 5, {}),
        ("fifty-six", 4, {"tables_per_team": 1}),
    ],
)
def test_every_kind_replays_from_every_seat(kind, players, options):
    people = [make_user(f"p{n}") for n in range(players)]
    game = start_table(people, kind=kind, options=options)
    for person in people:
        seats.automate(game_id=game.pk, user=person)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client = logged_in_client(people[0])
    line = timeline(game)
    steps = sorted({0, 1, line.last // 2, line.last, *line.chapters[:3], *line.hands[:2]})
    for seat in [*range(players), "spectator"]:
        for at in steps:
            response = client.get(url(game, at=at, seat=seat))
            assert response.status_code == 200, (seat, at)
            assert f"Move {at} of {line.last}" in response.content.decode()
