"""Seats that changed hands and abandoned games, for the ratings (docs/ratings.md): a player
who let a bot play their seat is rated on the result; a stand-in's seat is unrated for both;
an abandoned rated game rates those who let it lapse last."""

from __future__ import annotations

import pytest

from games.models import Rating, RatingChange
from games.services import absence, seats, stand_ins
from tests.games.conftest import T0, gone, member, seat_game
from tests.games.rating_helpers import SHORT, finished_from

KIND = "one-hundred-and-four"

pytestmark = pytest.mark.django_db


def places(game) -> dict[int, int]:
    return dict(RatingChange.objects.filter(game=game).values_list("user_id", "place"))


def test_a_seat_a_bot_covered_is_rated_on_the_result(alice, bob, carol, clock):
    game = seat_game([alice, bob, carol], kind=KIND, options=SHORT[KIND], seed="cover")
    game = finished_from(game, [], start=True)
    gone(game, bob, clock, T0)
    clock.at = T0 + 121
    absence.cover(game_id=game.pk, by=alice, seat=1)
    game = finished_from(game, [alice, carol])
    assert set(places(game)) == {alice.pk, bob.pk, carol.pk}
    assert Rating.objects.get(user=bob, kind=KIND).games == 1


def test_a_stand_in_seat_is_unrated_for_both(alice, bob, carol, dave, clock):
    game = seat_game([alice, bob, carol], kind=KIND, options=SHORT[KIND], seed="stand-in")
    game = finished_from(game, [], start=True)
    stand_ins.invite_stand_in(game_id=game.pk, by=alice, username="dave")
    gone(game, bob, clock, T0)
    clock.at = T0 + 121
    absence.replace(game_id=game.pk, by=alice, seat=1, invitee_membership_id=member(game, dave).pk)
    game = finished_from(game, [alice, carol, dave])
    assert set(places(game)) == {alice.pk, carol.pk}
    assert not Rating.objects.filter(user__in=[bob, dave]).exists()


def test_an_abandoned_rated_game_rates_those_who_let_it_lapse_last(alice, bob, carol, clock):
    game = seat_game([alice, bob, carol], kind=KIND, options=SHORT[KIND], seed="lapse")
    game = finished_from(game, [], start=True)
    gone(game, bob, clock, T0)
    gone(game, carol, clock, T0)
    clock.at = T0 + 15 * 60
    absence.abandon(game_id=game.pk, by=alice)
    assert places(game) == {alice.pk: 0, bob.pk: 1, carol.pk: 1}
    mu = dict(Rating.objects.values_list("user_id", "mu"))
    assert mu[alice.pk] > 25 > mu[bob.pk] == mu[carol.pk]


def test_an_abandoned_unrated_game_changes_nothing(alice, bob, clock):
    game = seat_game([alice, bob], kind=KIND, options=SHORT[KIND], seed="x", rated="no")
    game = finished_from(game, [], start=True)
    gone(game, bob, clock, T0)
    clock.at = T0 + 15 * 60
    absence.abandon(game_id=game.pk, by=alice)
    assert not RatingChange.objects.exists()


def test_a_player_who_hands_their_seat_to_a_bot_is_rated(alice, bob):
    game = seat_game([alice, bob], kind=KIND, options=SHORT[KIND], seed="hand")
    game = finished_from(game, [], start=True)
    seats.automate(game_id=game.pk, user=bob)
    game = finished_from(game, [alice])
    assert set(places(game)) == {alice.pk, bob.pk}
