"""One Hundred and Four at the table, through the views: picking a card, secret commitments,
the too-low row choice asked of one seat only, refusals that change nothing, and whole games
with bots for two and ten seats."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Template
from django.test.signals import template_rendered
from django.urls import reverse

from games.kinds.one_hundred_and_four.engine import RULES
from games.models import Game, GameAction, Membership
from games.presenters.basis import AROUND_THE_BOX
from games.presenters.context import table_context
from tests.conftest import HX, logged_in_client, make_user
from tests.games.conftest import start_table
from tests.games.table_helpers import page, post, state_of

KIND = "one-hundred-and-four"
CARD_ATTR = re.compile(r'data-card="(\d+)"')


@pytest.fixture
def three(db):
    return [make_user(name) for name in ("alice", "bob", "carol")]


def view(game, seat):
    return RULES.view(state_of(game), seat)


def test_the_hand_is_offered_sorted_as_one_pick_and_a_confirm(three):
    game = start_table(three, kind=KIND, seed="pick")
    html = page(logged_in_client(three[0]), game)
    picks = [int(v) for v in re.findall(r'id="pick-(\d+)"', html)]
    assert picks == sorted(view(game, 0).hand) and len(picks) == 10
    assert 'type="radio"' in html and 'id="choose-submit"' in html
    assert len(re.findall(r'<li class="nrow[ "]', html)) == 4  # the four rows
    assert "Your turn: choose a card." in html


def test_a_commitment_is_secret_until_everyone_has_chosen(three):
    game = start_table(three, kind=KIND, seed="secret")
    alice, bob, carol = (logged_in_client(u) for u in three)
    card = view(game, 0).hand[0]
    response = post(alice, game, {"kind": "choose", "card": card})
    assert response.status_code == 200
    mine = response.content.decode()
    assert "You chose" in mine and f'data-card="{card}"' in mine
    for client in (bob, carol):
        html = page(client, game)
        assert f'data-card="{card}"' not in html  # not in their hand, not on the table
        assert "chosen" in html  # that alice has chosen is public
    # Commitments are final.
    again = post(alice, game, {"kind": "choose", "card": view(game, 0).hand[0]})
    assert again.status_code in (409, 422)
    assert view(game, 0).my_choice == card


def test_another_seats_commitment_does_not_make_yours_stale(three):
    game = start_table(three, kind=KIND, seed="stale")
    alice, bob = logged_in_client(three[0]), logged_in_client(three[1])
    html = page(bob, game)
    turn = re.findall(r'name="turn" value="([^"]+)"', html)[0]
    version = re.findall(r'name="version" value="(\d+)"', html)[0]
    assert post(alice, game, {"kind": "choose", "card": view(game, 0).hand[0]}).status_code == 200
    card = view(game, 1).hand[-1]
    response = bob.post(
        reverse("move", kwargs={"game_id": game.pk}),
        {"version": version, "turn": turn, "kind": "choose", "card": card},
        headers=HX,
    )
    assert response.status_code == 200, response.content.decode()[:300]
    assert view(game, 1).my_choice == card


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "choose", "card": "105"}, ""),
        ({"kind": "choose", "card": "abc"}, "is not a number"),
        ({"kind": "choose", "card": "１５"}, "is not a number"),
        ({"kind": "choose"}, "Choose one card."),
        ({"kind": "take_row", "row": "1"}, ""),
        ({"kind": "fly"}, "unknown kind of move"),
    ],
)
def test_a_bad_move_is_refused_with_a_message_and_changes_nothing(three, data, message):
    game = start_table(three, kind=KIND, seed="bad")
    before = state_of(game)
    response = post(logged_in_client(three[0]), game, data)
    assert 400 <= response.status_code < 500
    assert 'role="alert"' in response.content.decode()
    assert message in response.content.decode()
    assert state_of(game) == before


def test_a_card_not_held_is_refused(three):
    game = start_table(three, kind=KIND, seed="not-held")
    other = view(game, 1).hand[0]
    response = post(logged_in_client(three[0]), game, {"kind": "choose", "card": other})
    assert response.status_code == 422  # the rules refuse it
    assert (
        "not in your hand" in response.content.decode().lower()
        or "hold" in response.content.decode()
    )
    assert view(game, 0).my_choice is None


def low_card_game(people):
    """A started game of `people` in which seat 0 holds a card lower than every row end."""
    for n in range(300):
        game = start_table(people, kind=KIND, seed=f"low-{n}", name=f"Low {n}")
        state = state_of(game)
        if min(state.hands[0]) < min(row[-1] for row in state.rows):
            return game
        game.delete()
    raise AssertionError("no deal with a too-low card")


def test_a_too_low_card_asks_its_owner_alone_for_a_row(three):
    game = low_card_game(three)
    clients = [logged_in_client(u) for u in three]
    low = min(view(game, 0).hand)
    post(clients[0], game, {"kind": "choose", "card": low})
    for seat in (1, 2):  # the others play their highest cards: only alice's is too low
        post(clients[seat], game, {"kind": "choose", "card": max(view(game, seat).hand)})
    state = state_of(game)
    assert RULES.to_act(state) == frozenset({0})
    asked = page(clients[0], game)
    assert asked.count('name="row"') == 4 and "choose a row to take" in asked
    for client in clients[1:]:
        html = page(client, game)
        assert 'name="row"' not in html
        assert f"alice’s {low} is lower than every row" in html.lower()
    assert Membership.objects.get(game=game, seat=0).must_act
    assert not Membership.objects.filter(game=game, seat__in=(1, 2), must_act=True).exists()
    # Another seat cannot choose the row; the owner can.
    assert post(clients[1], game, {"kind": "take_row", "row": "0"}).status_code in (409, 422)
    row = 2
    taken = state_of(game).rows[row]
    assert post(clients[0], game, {"kind": "take_row", "row": str(row)}).status_code == 200
    after = view(game, 0)
    assert after.last_turn is not None and after.last_turn.placements[0].took == taken
    assert after.phase == "choose" and after.turn == 1


@pytest.mark.parametrize("bots", [1, 9])
def test_a_whole_game_with_bots_ends_with_winners(db, bots):
    alice = make_user("alice")
    game = start_table([alice], bots=bots, kind=KIND, seed=f"whole-{bots}")
    client = logged_in_client(alice)
    for _ in range(40):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        v = view(game, 0)
        if v.must_take_row:
            data = {"kind": "take_row", "row": "0"}
        else:
            data = {"kind": "choose", "card": str(v.hand[len(v.hand) // 2])}
        response = post(client, game, data)
        assert response.status_code == 200, response.content.decode()[:300]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    outcome = RULES.outcome(state_of(game))
    assert outcome is not None and sum(outcome.scores) > 0
    html = page(client, game)
    assert "Game over" in html and "Penalty piles" in html
    # Ten commitments a turn, plus the row choices.
    assert GameAction.objects.filter(game=game).count() >= 10 * (bots + 1)


def test_ten_viewers_share_one_drawing_of_each_seat_box(db):
    """A seat's box looks the same from every seat, its own included (where it sits on the
    felt and which is "you" are static/css/seats.css's business): ten players' tables draw
    each box once, not ten times."""
    people = [make_user(f"p{i}") for i in range(10)]
    game = start_table(people, kind=KIND, seed="boxes")
    drawn: list[str] = []

    def count(sender: Template, **kwargs: object) -> None:
        if sender.name == "games/_seat.html":
            drawn.append(sender.name)

    template_rendered.connect(count)
    try:
        tables = [table_context(game, person) for person in people]
    finally:
        template_rendered.disconnect(count)
    assert len(drawn) == 10
    # Yet each viewer's table names their own seat, for seats.css to place the felt around.
    assert [(t["view_seat"], t["own_seat"]) for t in tables] == [(i, i) for i in range(10)]
    # What the key leaves out is read by no box template.
    root = Path(__file__).resolve().parents[2]
    boxes = [
        root / "templates/games/_seat.html",
        *root.glob("games/kinds/*/templates/games/*/seat.html"),
    ]
    assert len(boxes) >= 5
    for path in boxes:
        text = path.read_text()
        for name in AROUND_THE_BOX:
            assert f"s.{name}" not in text, f"{path.name} draws s.{name}: put it in the box key"
