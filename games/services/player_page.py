"""A player's page (/players/<username>/): their record per game kind, recent games and
opponents, ratings and accuracy in analysed games (games/services/past_games.py draws the
rows of games).

Reads only, a fixed number of queries however long the history. Private stays private:
another player's games and the people they played with come only from games the viewer may
see (public ones, or the viewer's own); the per-kind record counts every game (numbers only:
it names no game and nobody).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import NotSupportedError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import BooleanField, Count, Func, Max, Q
from django.db.models.functions import Coalesce
from django.db.models.sql.compiler import SQLCompiler
from django.utils.formats import number_format
from django.utils.translation import ngettext

from accounts.models import User
from games import registry
from games.charts import line_chart
from games.models import Game, Membership
from games.ratings import board as ratings_board
from games.services import analysis
from games.services.past_games import OVER, PastGame, past_games, past_of, person_of_user

RECENT_GAMES = 10  # a player page's recent games
RECENT_PEOPLE = 10  # a player page's recent opponents
RECENT_WINDOW = 200  # ... found among their latest games


class SeatWon(Func):
    """Whether a seat (an integer expression) is among `outcome["winners"]` (a JSON field).

    Written per database: Django has no portable "JSON array holds this value" lookup (its
    `contains` does not run on SQLite). A team game lists the winning team's seats, so the
    same test says whether a seat's team won.
    """

    arity = 2
    output_field = BooleanField()

    # One as_sql that picks the vendor's SQL itself: an aggregate's FILTER (WHERE ...) calls
    # `as_sql` directly, bypassing Django's as_<vendor> dispatch.
    def as_sql(
        self,
        compiler: SQLCompiler,
        connection: BaseDatabaseWrapper,
        function: str | None = None,
        template: str | None = None,
        arg_joiner: str | None = None,
        **extra_context: Any,
    ) -> tuple[str, tuple[str | int, ...]]:
        outcome, seat = self.get_source_expressions()
        outcome_sql, outcome_params = compiler.compile(outcome)
        seat_sql, seat_params = compiler.compile(seat)
        if connection.vendor == "sqlite":
            sql = (
                f"EXISTS (SELECT 1 FROM json_each({outcome_sql}, '$.winners') w"
                f" WHERE w.value = {seat_sql})"
            )
        elif connection.vendor == "postgresql":
            # jsonb: an array "contains" a scalar it holds.
            sql = f"COALESCE(({outcome_sql} -> 'winners') @> to_jsonb({seat_sql}), false)"
        else:
            raise NotSupportedError(f"SeatWon has no SQL for {connection.vendor}.")
        return sql, (*outcome_params, *seat_params)


def _seen_by(viewer: User) -> Q:
    """Games `viewer` may see: public ones and their own (as games.access decides)."""
    return Q(public=True) | Q(pk__in=Membership.objects.filter(user=viewer).values("game_id"))


@dataclass(frozen=True)
class KindRecord:
    """A player's record at one game kind: finished games they held a seat in, and won."""

    slug: str
    name: str
    played: int
    won: int

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0


def records(player: User) -> list[KindRecord]:
    """Per game kind (in the registry's order): finished games played and won (one query).
    Kinds never played are left out."""
    rows = (
        Membership.objects.filter(
            user=player, seat__isnull=False, game__status=Game.Status.FINISHED
        )
        .values("game__kind")
        .annotate(played=Count("pk"), won=Count("pk", filter=SeatWon("game__outcome", "seat")))
        .order_by()
    )
    found = {row["game__kind"]: (row["played"], row["won"]) for row in rows}
    return [
        KindRecord(slug, kind.name, *found[slug])
        for slug, kind in registry.REGISTRY.items()
        if slug in found
    ]


def recent_games(player: User, viewer: User, count: int = RECENT_GAMES) -> list[PastGame]:
    """`player`'s latest past games that `viewer` may see (two queries)."""
    games = past_of(player)
    if viewer.pk != player.pk:
        games = games.filter(_seen_by(viewer))
    return past_games(games[:count], player, you=viewer.pk == player.pk)


def recent_people(player: User, viewer: User, count: int = RECENT_PEOPLE) -> list[User]:
    """The people (never bots) who held a seat in one of `player`'s latest `RECENT_WINDOW`
    games (finished, abandoned or in progress), the latest shared game first (one query).
    Only games `viewer` may see.

    The window keeps the query's cost flat however long the history: only the latest games'
    seats are grouped (bench/results/history.md). People met only before it are not recent.
    """
    ended = Coalesce("game__finished_at", "game__started_at")  # in progress: its start
    latest = Membership.objects.filter(
        user=player, seat__isnull=False, game__status__in=(*OVER, Game.Status.ACTIVE)
    )
    if viewer.pk != player.pk:
        theirs = Membership.objects.filter(user=viewer).values("game_id")
        latest = latest.filter(Q(game__public=True) | Q(game_id__in=theirs))
    window = latest.order_by(ended.desc(), "-game_id").values("game_id")[:RECENT_WINDOW]
    # One filter(): the seat and the game belong to the same membership row, which the
    # annotation then reads.
    return list(
        User.objects.filter(
            is_active=True, memberships__seat__isnull=False, memberships__game_id__in=window
        )
        .exclude(pk=player.pk)
        .annotate(
            last=Max(Coalesce("memberships__game__finished_at", "memberships__game__started_at"))
        )
        .order_by("-last", "username")[:count]
    )


def player_page(player: User, viewer: User) -> dict[str, Any]:
    """What /players/<username>/ shows `viewer` about `player`."""
    kinds = records(player)
    return {
        "player": player,
        "is_me": viewer.pk == player.pk,
        "records": kinds,
        "played": sum(k.played for k in kinds),
        "won": sum(k.won for k in kinds),
        "recent": recent_games(player, viewer),
        "people": [person_of_user(user) for user in recent_people(player, viewer)],
        "ratings": rating_rows(player),
        "accuracy": accuracy_rows(player, viewer),
    }


def rating_rows(player: User) -> list[dict[str, Any]]:
    """`player`'s rating per game, with its history chart (two queries): figures only, no
    opponents and no dates, so private games tell outsiders nothing."""
    return [
        {
            "kind": row.kind,
            "shown": row.shown,
            "stats": row.stats,
            "chart": line_chart(
                row.history,
                ngettext(
                    "%(game)s rating after each of %(count)s game",
                    "%(game)s rating after each of %(count)s games",
                    len(row.history),
                )
                % {"game": row.kind.name, "count": len(row.history)},
            ),
        }
        for row in ratings_board.of_player(player, registry.REGISTRY.values())
    ]


def _percent(value: float, places: int = 1) -> str:
    return f"{number_format(round(value, places), decimal_pos=places)}%"


def accuracy_rows(player: User, viewer: User) -> list[dict[str, Any]]:
    """`player`'s accuracy per game kind in the analysed games `viewer` may see
    (games/services/analysis.py `accuracy_of`, one query): one point per game, oldest first,
    the mean and the number of games."""
    rows = []
    for series in analysis.accuracy_of(player, viewer):
        kind = registry.kind(series.kind)
        count = len(series.values)
        rows.append(
            {
                "kind": kind,
                "average": _percent(sum(series.values) / count),
                "count": count,
                "more": series.more,
                "chart": line_chart(
                    series.values,
                    ngettext(
                        "%(game)s accuracy in each of %(count)s analysed game, oldest first",
                        "%(game)s accuracy in each of %(count)s analysed games, oldest first",
                        count,
                    )
                    % {"game": kind.name, "count": count},
                    tick=lambda value: _percent(value, 0),
                ),
            }
        )
    return rows
