"""Numbers in requests are ASCII digits. Python's int() reads the digits of every script
("１５" fullwidth, "١٥" Arabic-Indic are 15 to it); each place a request carries a number
refuses them with a 400 and a sentence, and changes nothing:

- the new-game form: seats (max_players) and each game's numeric options (target);
- the waiting room's "add a bot" form: the seat;
- a move: the table version, and Hundred and Ten's bid amount.

Sockets take no numbers (games/consumers/ reads only a skip key from a client) and URLs take
ids through Django's `int` converter, which matches [0-9] only.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, GameAction, Membership
from tests.conftest import HX, logged_in_client
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db

FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
SCRIPTS = pytest.mark.parametrize("script", [FULLWIDTH, ARABIC_INDIC], ids=["fullwidth", "arabic"])


@pytest.fixture
def two(alice, bob):
    """alice (seat 0, dealer) and bob (seat 1, first to bid)."""
    return start_table([alice, bob], seed="ascii")


def nothing_moved(game: Game) -> bool:
    game.refresh_from_db()
    return game.version == 0 and not GameAction.objects.filter(game=game).exists()


@SCRIPTS
@pytest.mark.parametrize(
    ("kind", "field", "value", "message"),
    [
        ("hundred-and-ten", "max_players", "3", "Hundred and Ten is played by 2 to 4 players."),
        ("hearts", "max_players", "4", "Hearts is played by 4 players."),
        ("hundred-and-ten", "option_target", "60", "Choose one of the choices for"),
        ("hearts", "option_target", "50", "Choose one of the choices for"),
    ],
)
def test_the_new_game_form_refuses_digits_of_other_scripts(
    alice, script, kind, field, value, message
) -> None:
    data = {"name": "Digits", "visibility": "private", "kind": kind, field: value}
    data.setdefault("max_players", "4")
    client = logged_in_client(alice)
    assert client.post(reverse("new-game"), data).status_code == 302  # ASCII: fine
    data[field] = value.translate(script)
    response = client.post(reverse("new-game"), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.filter(name="Digits").count() == 1


@SCRIPTS
def test_the_add_a_bot_form_refuses_digits_of_other_scripts(friday, alice, script) -> None:
    response = logged_in_client(alice).post(
        reverse("add-bot", args=[friday.pk]), {"seat": "3".translate(script)}, headers=HX
    )
    assert response.status_code == 400
    assert "That seat does not exist." in response.content.decode()
    assert not Membership.objects.filter(game=friday, seat=3).exists()


@SCRIPTS
@pytest.mark.parametrize(
    ("field", "message"),
    [("version", "the table version is missing"), ("amount", "Choose a bid amount or pass.")],
)
def test_a_move_refuses_digits_of_other_scripts(two, bob, script, field, message) -> None:
    data = {"kind": "bid", "amount": "15", "version": "0"}
    data[field] = data[field].translate(script)
    response = logged_in_client(bob).post(
        reverse("move", kwargs={"game_id": two.pk}), data, headers=HX
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert nothing_moved(two)
