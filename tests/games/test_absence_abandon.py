"""games.services.absence: getting past an absent player, by abandon.

The organizer ends a game once every other human has been away 15 min (at once with nobody
else human); only the organizer, only a game in progress; an abandoned game takes no moves
and says who abandoned it.
"""

from __future__ import annotations

import pytest

from games.live import presence
from games.models import Game, GameAction, Membership
from games.services import absence, table
from games.services.absence import NotOrganizer
from games.services.errors import NotAPlayer, RefusedMove
from tests.conftest import HX, logged_in_client
from tests.games.conftest import T0, bid_choice, here, start_table, url

# --- abandon ------------------------------------------------------------------------------


def test_abandon_waits_until_everybody_else_has_been_away_long_enough(
    three, alice, bob, carol, clock, pushes, django_capture_on_commit_callbacks
):
    here(three, bob)
    with pytest.raises(RefusedMove, match="Bob is at the table"):
        absence.abandon(game_id=three.pk, by=alice)
    presence.leave(three.pk, bob.pk)  # left at T0
    clock.at = T0 + 10 * 60
    with pytest.raises(RefusedMove) as refused:
        absence.abandon(game_id=three.pk, by=alice)
    assert refused.value.message == (
        "Bob has been away only 10 min; you can abandon the game after 15 min."
    )
    clock.at = T0 + 15 * 60
    with django_capture_on_commit_callbacks(execute=True):
        absence.abandon(game_id=three.pk, by=alice)  # carol never came: away long enough
    three.refresh_from_db()
    assert three.status == Game.Status.ABANDONED and three.finished_at is not None
    assert not Membership.objects.filter(game=three, must_act=True).exists()
    assert not Membership.objects.filter(game=three, deadline__isnull=False).exists()
    assert ("game_changed", (three.pk, three.version)) in pushes
    assert any(name == "lobby_changed" for name, _ in pushes)


def test_abandon_at_once_with_only_bots_left(alice):
    game = start_table([alice], bots=2, seed="alone")
    here(game, alice)
    absence.abandon(game_id=game.pk, by=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


def test_only_the_organizer_abandons_a_game_in_progress(three, alice, bob, dave):
    with pytest.raises(NotOrganizer):
        absence.abandon(game_id=three.pk, by=bob)
    with pytest.raises(NotAPlayer):
        absence.abandon(game_id=three.pk, by=dave)
    absence.abandon(game_id=three.pk, by=alice)
    with pytest.raises(RefusedMove):
        absence.abandon(game_id=three.pk, by=alice)


def test_moves_on_an_abandoned_game_are_refused(three, alice, bob):
    absence.abandon(game_id=three.pk, by=alice)
    three.refresh_from_db()
    with pytest.raises(RefusedMove) as refused:
        table.submit_move(
            game_id=three.pk, user=bob, choice=bid_choice(0), seen_version=three.version
        )
    assert refused.value.status == 422
    assert not GameAction.objects.filter(game=three).exists()


def test_an_abandoned_table_says_who_abandoned_it_and_offers_no_play(three, alice, bob):
    absence.abandon(game_id=three.pk, by=alice)
    html = logged_in_client(bob).get(url("table", three), headers=HX).content.decode()
    assert "Abandoned by Alice." in html
    assert 'id="automate-button"' not in html and "your turn" not in html
    assert 'name="amount"' not in html  # no bidding controls
    assert "Abandon this game" not in html and "Ask a bot to cover" not in html
