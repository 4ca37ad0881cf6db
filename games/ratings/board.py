"""What pages show of the ratings: the figure by each name (table, waiting room, lobby),
the bot levels' figures, the player page's ratings and the leaderboard.

Every function reads a fixed number of queries, whatever the number of names or games.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.paginator import Page, Paginator
from django.db.models import Q

from accounts.addresses import has_verified_address
from games.gamekind import GameKind

from .models import BotRating, Rating, RatingChange
from .scale import ANCHOR_LEVEL, MODEL, PROVISIONAL_SIGMA, Shown

if TYPE_CHECKING:
    from accounts.models import User

MIN_GAMES = 10  # on the leaderboard
PAGE_SIZE = 25
CHART_GAMES = 200  # the history chart shows the latest games only: flat cost, a readable line


def of_people(pairs: Iterable[tuple[str, int]]) -> dict[tuple[str, int], Shown]:
    """The shown rating of each (kind, user id) that has one (one query)."""
    pairs = set(pairs)
    if not pairs:
        return {}
    rows = Rating.objects.filter(
        kind__in={kind for kind, _ in pairs}, user_id__in={user for _, user in pairs}
    ).only("kind", "user_id", "mu", "sigma", "games")
    return {(r.kind, r.user_id): r.shown for r in rows if (r.kind, r.user_id) in pairs}


def of_bots(kind: GameKind) -> dict[str, Shown]:
    """Each bot level's shown rating in `kind` (one query): the anchor is fixed, a level
    not rated yet shows the starting figure."""
    rows = {r.level: r.shown for r in BotRating.objects.filter(kind=kind.slug)}
    shown = {level: rows.get(level, Shown.start()) for level, _ in kind.bot_levels}
    shown[ANCHOR_LEVEL] = Shown.of(MODEL.mu, 0.0, 0)
    return shown


def of_members(kind: GameKind, members: Iterable[Any]) -> dict[int, Shown]:
    """The shown rating by membership id of seated people and bots (two queries at most):
    a person without a rating yet shows the starting figure."""
    members = [m for m in members if m.seat is not None]
    people = of_people((kind.slug, m.user_id) for m in members if m.user_id is not None)
    bots = of_bots(kind) if any(m.bot for m in members) else {}
    shown: dict[int, Shown] = {}
    for m in members:
        if m.user_id is not None:
            shown[m.pk] = people.get((kind.slug, m.user_id), Shown.start())
        elif m.bot in bots:
            shown[m.pk] = bots[m.bot]
    return shown


@dataclass(frozen=True)
class PlayerRating:
    kind: GameKind
    shown: Shown
    history: list[int]  # the shown figure after each rated game, oldest first
    stats: list[tuple[str, str]]  # the game's own statistics, (label, value)


def of_player(user: User, kinds: Iterable[GameKind]) -> list[PlayerRating]:
    """`user`'s rating in each game they have one in, with its latest `CHART_GAMES` steps
    (two queries). The history holds figures only: no opponents, no dates (private games
    stay private)."""
    by_slug = {kind.slug: kind for kind in kinds}
    rows = list(Rating.objects.filter(user=user, kind__in=by_slug).order_by("kind"))
    if not rows:
        return []
    latest = Q()
    for row in rows:
        latest |= Q(kind=row.kind, number__gt=row.games - CHART_GAMES)
    changes = (
        RatingChange.objects.filter(latest, user=user)
        .order_by("kind", "number")
        .values_list("kind", "mu", "sigma", "number")
    )
    history: dict[str, list[int]] = {}
    for kind, mu, sigma, number in changes:
        history.setdefault(kind, []).append(Shown.of(mu, sigma, number).value)
    return [
        PlayerRating(
            kind=by_slug[row.kind],
            shown=row.shown,
            history=history.get(row.kind, []),
            stats=statistics.describe(row.stats)
            if (statistics := by_slug[row.kind].statistics) is not None
            else [],
        )
        for row in rows
    ]


def leaderboard(kind: GameKind, page: Any) -> Page[Rating]:
    """The best settled ratings of verified accounts with at least `MIN_GAMES` games,
    by μ − 3σ, one page (two queries: the count and the page)."""
    rows = (
        Rating.objects.filter(
            kind=kind.slug, games__gte=MIN_GAMES, sigma__lt=PROVISIONAL_SIGMA, user__is_active=True
        )
        .filter(has_verified_address())
        .select_related("user")
        .order_by("-conservative", "user_id")
    )
    return Paginator(rows, PAGE_SIZE).get_page(page)
