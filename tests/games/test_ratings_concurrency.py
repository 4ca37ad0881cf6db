"""Rated games ending together (threads, each its own connection; on PostgreSQL when
DATABASE_URL is set, where rows are locked in one fixed order): every game is rated once,
no update is lost and nothing deadlocks."""

from __future__ import annotations

import pytest

from games.models import BotRating, Game, Rating, RatingChange
from games.services import seats
from games.services.errors import RefusedMove
from tests.games.conftest import seat_game
from tests.games.rating_helpers import SHORT, finished_from
from tests.games.test_concurrency import race

KIND = "one-hundred-and-four"

pytestmark = pytest.mark.django_db(transaction=True)


def almost_over(people, seed):
    """A rated game with a hard bot in which only people[-1] still plays their own seat."""
    game = seat_game(people, 1, kind=KIND, options=SHORT[KIND], seed=seed, rated="bots")
    game.memberships.filter(seat=len(people)).update(bot="hard")
    return finished_from(game, [], start=True)


def two_games_a_move_from_the_end(alice, bob, carol, seed):
    """The same people and bot level, seated in different orders, in two games that each
    end when one last person (carol in the first, alice in the second) hands over a seat."""
    first = almost_over([alice, bob, carol], f"{seed}-1")
    second = almost_over([carol, bob, alice], f"{seed}-2")
    seats.automate(game_id=first.pk, user=alice)
    seats.automate(game_id=first.pk, user=bob)
    seats.automate(game_id=second.pk, user=carol)
    seats.automate(game_id=second.pk, user=bob)
    return first, second


def assert_both_rated_once(games, people):
    """Both games finished and rated once, the second update on the first's result."""
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert RatingChange.objects.filter(game=game).count() == 3
    for user in people:
        numbers = RatingChange.objects.filter(user=user).values_list("number", flat=True)
        assert sorted(numbers) == [1, 2]  # the second update read the first's result
        assert Rating.objects.get(user=user, kind=KIND).games == 2
    assert BotRating.objects.get(kind=KIND, level="hard").games == 2


def test_games_ending_together_are_each_rated_once(alice, bob, carol):
    first, second = two_games_a_move_from_the_end(alice, bob, carol, "together")

    results = race(
        lambda: seats.automate(game_id=first.pk, user=carol),
        lambda: seats.automate(game_id=second.pk, user=alice),
    )

    assert not any(isinstance(r, Exception) for r in results), results
    assert_both_rated_once((first, second), (alice, bob, carol))


def test_two_tabs_ending_one_game_rate_it_once(alice, bob):
    game = almost_over([alice, bob], "one-game")
    seats.automate(game_id=game.pk, user=alice)

    results = race(
        lambda: seats.automate(game_id=game.pk, user=bob),
        lambda: seats.automate(game_id=game.pk, user=bob),
    )

    assert sorted(type(r).__name__ for r in results) == ["Game", "RefusedMove"], results
    assert isinstance(next(r for r in results if isinstance(r, Exception)), RefusedMove)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=bob, kind=KIND).games == 1
