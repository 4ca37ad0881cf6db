"""Rating a game as it ends, in the transaction that ends it (docs/ratings.md).

Exactly once: the game row is locked and leaves ACTIVE in this transaction, and a
`RatingChange` per game and person is unique. Rows are locked in one fixed order, bot
levels (by level) before people (by id), so games ending together never deadlock.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from games import registry
from games.kinds.protocol import Outcome
from games.kinds.statistics import Counts, summed
from games.models import Game, Membership

from . import match
from .models import BotRating, Rating, RatingChange
from .scale import ANCHOR_LEVEL, MODEL

ANCHOR: match.Rating = (MODEL.mu, MODEL.sigma)
Key = tuple[str, str]  # ("person", "12") or ("bot", "hard")
Seat = match.RatedSeat[Key]


def person(user_id: int) -> Key:
    return ("person", str(user_id))


def bot(level: str) -> Key:
    return ("bot", level)


def rated(game: Game, seated: Iterable[Membership]) -> bool:
    """Whether `game` counts: not when chosen so, nor by default with a bot seated."""
    if game.rated == Game.Rated.NO:
        return False
    return game.rated == Game.Rated.WITH_BOTS or not any(m.is_bot for m in seated)


def _seated(game: Game) -> list[Membership]:
    return list(Membership.objects.filter(game=game, seat__isnull=False).order_by("seat"))


def game_over(game: Game, state: Any, outcome: Outcome) -> None:
    """Rate `game`, which `outcome` has just finished in `state` (its row locked): every
    seated person on their place (stand-ins aside), each bot level too when bots are rated;
    each rated person's statistics of the game are added to their row."""
    members = _seated(game)
    if not rated(game, members):
        return
    kind = registry.kind(game.kind)
    places = kind.places(outcome)
    seats: list[Seat] = []
    for m in members:
        if m.stand_in or m.seat is None:
            continue
        key = bot(m.bot) if m.is_bot else person(m.user_id or 0)
        seats.append(Seat(key=key, team=kind.side_of(m.seat, len(members)), place=places[m.seat]))
    counts: dict[int, Counts] = {}
    if kind.statistics is not None:
        for m in members:
            if m.user_id is not None and m.seat is not None and not m.stand_in:
                counts[m.user_id] = kind.statistics.count(state, m.seat)
    _rate(game, seats, counts)


def game_abandoned(game: Game, members: Iterable[Membership], present: Collection[int]) -> None:
    """Rate `game`, abandoned by its organizer (its row locked): the people in `present`
    share the first place, every other seated person shares the last (they let the game
    lapse: nobody escapes a loss by leaving). Bots and stand-ins are not rated; each person
    is rated alone, teams or not."""
    seated = [m for m in members if m.seat is not None]
    if not rated(game, seated):
        return
    seats = [
        Seat(key=person(m.user_id), team=m.seat, place=0 if m.user_id in present else 1)
        for m in seated
        if m.user_id is not None and m.seat is not None and not m.stand_in
    ]
    _rate(game, seats)


def _rate(game: Game, seats: Sequence[Seat], counts: Mapping[int, Counts] | None = None) -> None:
    if len({seat.team for seat in seats}) < 2:
        return
    levels = sorted({seat.key[1] for seat in seats if seat.key[0] == "bot"} - {ANCHOR_LEVEL})
    users = sorted({int(seat.key[1]) for seat in seats if seat.key[0] == "person"})
    bots = _locked_bots(game.kind, levels)
    people = _locked_people(game.kind, users)
    ratings: dict[Key, match.Rating] = {bot(ANCHOR_LEVEL): ANCHOR}
    ratings |= {bot(level): (row.mu, row.sigma) for level, row in bots.items()}
    ratings |= {person(user): (row.mu, row.sigma) for user, row in people.items()}
    after = match.update(seats, ratings, anchored=frozenset({bot(ANCHOR_LEVEL)}))
    for level, bot_row in bots.items():
        bot_row.set(*after[bot(level)])
    for user, row in people.items():
        row.set(*after[person(user)])
        row.stats = summed(row.stats, (counts or {}).get(user, {}))
    BotRating.objects.bulk_update(bots.values(), ["mu", "sigma", "games"])
    Rating.objects.bulk_update(people.values(), ["mu", "sigma", "games", "conservative", "stats"])
    places = {seat.key: seat.place for seat in seats}
    RatingChange.objects.bulk_create(
        RatingChange(
            game=game,
            user_id=user,
            kind=game.kind,
            number=row.games,
            place=places[person(user)],
            mu=row.mu,
            sigma=row.sigma,
        )
        for user, row in people.items()
    )


def _locked_bots(kind: str, levels: list[str]) -> dict[str, BotRating]:
    BotRating.objects.bulk_create(
        [BotRating(kind=kind, level=level) for level in levels], ignore_conflicts=True
    )
    rows = BotRating.objects.select_for_update().filter(kind=kind, level__in=levels)
    return {row.level: row for row in rows.order_by("level")}


def _locked_people(kind: str, users: list[int]) -> dict[int, Rating]:
    Rating.objects.bulk_create(
        [Rating(kind=kind, user_id=user) for user in users], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(kind=kind, user_id__in=users)
    return {row.user_id: row for row in rows.order_by("user_id")}
