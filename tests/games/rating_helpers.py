"""Helpers for the ratings tests: finished rated games, and the library called directly."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from games import registry
from games.models import Game, Membership
from games.services import seats, table
from tests.games.conftest import seat_game

# The shortest game of each kind (tests play them to the end with bots).
SHORT = {
    "hundred-and-ten": {"target": 60},
    "hearts": {"target": 50},
    "one-hundred-and-four": {"match_to": None},
    "fifty-six": {"tables_per_team": 1},
}


def finished(
    kind: str, people: list[Any], levels: tuple[str, ...] = (), *, seed: str = "r", **kw: Any
) -> Game:
    """A game of `kind` played to its end, with bots of `levels` after the people: every
    person hands their seat to a bot at once."""
    game = seat_game(people, len(levels), kind=kind, options=SHORT[kind], seed=seed, **kw)
    for seat, level in enumerate(levels, start=len(people)):
        game.memberships.filter(seat=seat).update(bot=level)
    return finished_from(game, people, start=True)


def finished_from(game: Game, people: list[Any], *, start: bool = False) -> Game:
    """`game` (started first if `start`) after `people` hand their seats to a bot: over
    once every seat plays itself."""
    if start:
        with transaction.atomic():
            table.begin(game)
    for user in people:
        seats.automate(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert people == [] or game.status == Game.Status.FINISHED, game.status
    return game


def expected_places(game: Game) -> list[int]:
    """Each seat's place written out from the stored outcome, independently of the code:
    Hearts and One Hundred and Four by the lowest score, the others winners first, then by
    the highest score (a Fifty-Six seat carries its team's tables)."""
    outcome = game.outcome or {}
    scores, winners = outcome["scores"], set(outcome["winners"])
    keys: list[tuple[int, ...]]
    if game.kind in ("hearts", "one-hundred-and-four"):
        keys = [(s,) for s in scores]
    else:
        keys = [(0 if seat in winners else 1, -s) for seat, s in enumerate(scores)]
    return [sorted(keys).index(key) for key in keys]


def replay_with_library(games: list[Game]) -> dict[tuple[str, int], tuple[float, float]]:
    """Every person's (μ, σ) per kind after `games` in order, from openskill called directly
    (every seat a person; Fifty-Six in two teams of alternate seats)."""
    model = PlackettLuce()
    ratings: dict[tuple[str, int], Any] = {}
    for game in games:
        members = Membership.objects.filter(game=game, seat__isnull=False).order_by("seat")
        people = [(m.seat or 0, m.user_id or 0) for m in members]
        places = expected_places(game)
        for _, user in people:
            ratings.setdefault((game.kind, user), model.rating())
        if registry.kind(game.kind).teams is not None:
            teams = [[p for p in people if p[0] % 2 == t] for t in (0, 1)]
        else:
            teams = [[p] for p in people]
        result = model.rate(
            [[ratings[(game.kind, user)] for _, user in team] for team in teams],
            ranks=[places[team[0][0]] for team in teams],
        )
        for team, rated in zip(teams, result, strict=True):
            for (_, user), rating in zip(team, rated, strict=True):
                ratings[(game.kind, user)] = rating
    return {key: (r.mu, r.sigma) for key, r in ratings.items()}
