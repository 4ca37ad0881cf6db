"""A finished rated game updates every seated person's rating once, as the library says."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from games.kinds.protocol import Outcome
from games.models import BotRating, Game, Rating, RatingChange
from games.ratings import service
from games.services import states
from tests.conftest import make_user
from tests.games.conftest import start_table
from tests.games.rating_helpers import finished, replay_with_library

pytestmark = pytest.mark.django_db


def people(n: int) -> list[Any]:
    return [make_user(f"p{i}") for i in range(n)]


def stored() -> dict[tuple[str, int], tuple[float, float]]:
    return {(r.kind, r.user_id): (r.mu, r.sigma) for r in Rating.objects.all()}


def assert_same(got: dict[Any, Any], want: dict[Any, Any]) -> None:
    assert got.keys() == want.keys()
    for key, (mu, sigma) in want.items():
        assert got[key] == pytest.approx((mu, sigma), abs=1e-9), key


# Two games of each kind among six people (by index), in order: ratings are kept per kind,
# so each kind's sequence is a test of its own.
SEQUENCES: dict[str, list[tuple[tuple[int, ...], str]]] = {
    "hearts": [((0, 1, 2, 3), "h1"), ((2, 0, 4, 5), "h2")],
    "hundred-and-ten": [((0, 1, 2), "t1"), ((1, 0, 5, 3), "t2")],
    "one-hundred-and-four": [((0, 1, 2, 3, 4), "o1"), ((1, 2), "o2")],
    "fifty-six": [((0, 1, 2, 3), "f1"), ((0, 1, 2, 3, 4, 5), "f2")],
}


@pytest.mark.parametrize("kind", SEQUENCES)
def test_a_sequence_of_games_of_each_kind_matches_the_library_called_directly(kind):
    p = people(6)
    games = [finished(kind, [p[i] for i in seats], seed=seed) for seats, seed in SEQUENCES[kind]]
    assert_same(stored(), replay_with_library(games))
    for game in games:
        assert RatingChange.objects.filter(game=game).count() == game.memberships.count()
    for i, person in enumerate(p):
        played = sum(i in seats for seats, _ in SEQUENCES[kind])
        rating = Rating.objects.filter(user=person, kind=kind).first()
        assert (rating.games if rating else 0) == played, person


def rate(game: Game, scores: tuple[int, ...], winners: tuple[int, ...], team: int | None = None):
    outcome = Outcome(scores=scores, winners=winners, winning_team=team)
    game.outcome = {"scores": list(scores), "winners": list(winners), "winning_team": team}
    game.status = Game.Status.FINISHED
    game.save()
    service.game_over(game, states.load_state(game), outcome)


def test_ties_share_a_place_and_teams_are_rated_as_teams():
    p = people(4)
    hearts = start_table(p, kind="hearts", seed="tie")
    rate(hearts, (40, 40, 70, 101), (0, 1))  # seats 0 and 1 tie for the win
    fifty_six = start_table(p, kind="fifty-six", seed="team")
    rate(fifty_six, (0, 1, 0, 1), (1, 3), team=1)
    assert_same(stored(), replay_with_library([hearts, fifty_six]))
    after = {r.user_id: r for r in Rating.objects.filter(kind="hearts")}
    assert after[p[0].pk].mu == after[p[1].pk].mu > after[p[3].pk].mu
    teams = {r.user_id: r.mu for r in Rating.objects.filter(kind="fifty-six")}
    assert teams[p[1].pk] == teams[p[3].pk] > teams[p[0].pk] == teams[p[2].pk]
    places = dict(RatingChange.objects.filter(game=hearts).values_list("user_id", "place"))
    assert places == {p[0].pk: 0, p[1].pk: 0, p[2].pk: 2, p[3].pk: 3}


def test_a_game_is_never_rated_twice():
    game = finished("one-hundred-and-four", people(3), seed="twice")
    before = stored()
    with pytest.raises(IntegrityError), transaction.atomic():
        outcome = Outcome(tuple((game.outcome or {})["scores"]), ())
        service.game_over(game, states.load_state(game), outcome)
    assert stored() == before
    assert RatingChange.objects.count() == 3


def test_unrated_games_change_nothing():
    p = people(4)
    finished("hearts", p, rated=Game.Rated.NO, seed="no")
    finished("one-hundred-and-four", p[:2], ("hard", "easy"), seed="bots")  # people only
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not BotRating.objects.exists()


def test_bots_levels_are_rated_when_chosen_and_the_medium_bot_stays_the_anchor():
    p = people(2)
    kind, levels = "one-hundred-and-four", ("hard", "medium", "hard")
    for seed in ("b1", "b2"):
        finished(kind, p, levels, seed=seed, rated=Game.Rated.WITH_BOTS)
    assert RatingChange.objects.count() == 4
    assert Rating.objects.get(user=p[0], kind=kind).games == 2
    hard = BotRating.objects.get(kind=kind, level="hard")
    assert hard.games == 2 and hard.mu != 25.0
    assert not BotRating.objects.filter(level="medium").exists()  # fixed at 1500
