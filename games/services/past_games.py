"""Past games and the games one may watch: the rows of games the lobby, the profile, the
past-games page and a player's page (games/services/player_page.py) list.

Reads only. Each list costs a fixed number of queries however long a player's history is: a
page of games and its memberships (one prefetch). Who won is read from the stored outcome
(`Game.outcome`, the rules' Outcome as JSON), never by replaying a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.models import Game, GameAnalysis, Membership
from games.ratings.scale import Shown
from games.services import analysis
from games.words import and_list

PAGE_SIZE = 20  # past games per page (the past-games page, the profile)
LOBBY_PAST = 5  # the latest past games the lobby shows
WATCH_LIMIT = 10  # games in progress the lobby offers to watch

OVER = (Game.Status.FINISHED, Game.Status.ABANDONED)


def optional_url(name: str, game_id: int) -> str:
    """The URL of a per-game page that may not exist (yet): "" when `name` does not resolve."""
    try:
        return reverse(name, args=[game_id])
    except NoReverseMatch:
        return ""


# --- people ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    """Somebody in a list: a name, and for an active user their player page."""

    name: str
    username: str = ""  # "" for a bot, or a user whose page is gone (inactive)
    is_bot: bool = False
    rating: Shown | None = None  # in the game listed, where a list shows it (the lobby)

    @property
    def url(self) -> str:
        return reverse("player", args=[self.username]) if self.username else ""


def person_of(member: Membership, rating: Shown | None = None) -> Person:
    """A membership's person (its user loaded: `Game.objects.with_people`)."""
    user = member.user
    if user is None:
        return Person(member.name, is_bot=True)
    return Person(member.name, user.username if user.is_active else "", rating=rating)


def person_of_user(user: User) -> Person:
    return Person(user.shown_name, user.username if user.is_active else "")


# --- one past game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PastGame:
    """A finished or abandoned game as a list shows it, from one player's side (`whose`)."""

    game: Game
    players: tuple[Person, ...]  # by seat
    result: str  # "Alice won", "Alice and Bob shared the win", "Team A won (…)", "Abandoned"
    # The player's own result: "won", "lost", "shared" ("" if abandoned, or no seat).
    outcome: str
    you: bool  # the list belongs to the viewer ("You won"), or to another player ("Won")

    @property
    def kind_name(self) -> str:
        return registry.kind(self.game.kind).name

    @property
    def abandoned(self) -> bool:
        return self.game.status == Game.Status.ABANDONED

    @property
    def ended_at(self) -> datetime | None:
        return self.game.finished_at

    @property
    def outcome_text(self) -> str:
        texts = {
            "won": (_("You won"), _("Won")),
            "lost": (_("You lost"), _("Lost")),
            "shared": (_("You shared the win"), _("Shared the win")),
        }
        pair = texts.get(self.outcome)
        return "" if pair is None else pair[0 if self.you else 1]

    @property
    def table_url(self) -> str:
        return reverse("table", args=[self.game.pk])

    @property
    def replay_url(self) -> str:
        return optional_url("replay", self.game.pk)

    @property
    def analysis_url(self) -> str:
        """The replay's analysis part (its result, or the button that asks for it): a
        finished game of a kind the search grades; "" otherwise."""
        if self.game.status != Game.Status.FINISHED:
            return ""
        if registry.kind(self.game.kind).grading is None:
            return ""
        replay = self.replay_url
        return f"{replay}#analysis" if replay else ""

    @property
    def analysis_state(self) -> str:
        """The analysis's state: "queued", "running" or "done" (with the present version),
        else "" (never asked, failed or outdated: the replay offers the button). Read from the
        row loaded with the game (`select_related("analysis")`), never a query per game."""
        row = _analysis_row(self.game)
        if row is None or not self.analysis_url:
            return ""
        if row.status == GameAnalysis.Status.DONE:
            return "done" if row.version == analysis.version() else ""
        if row.status in (GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING):
            return str(row.status)
        return ""

    @property
    def analysis_text(self) -> str:
        texts = {
            # Translators: a past game's state of analysis by the search, in the list of past games.
            "queued": _("Analysis waiting"),
            "running": _("Being analysed"),
            "done": _("Analysed"),
        }
        return texts.get(self.analysis_state, "")

    @property
    def export_url(self) -> str:
        # Only a finished game exports (games/services/history.py refuses the others).
        if self.game.status != Game.Status.FINISHED:
            return ""
        return optional_url("export", self.game.pk)


def _analysis_row(game: Game) -> GameAnalysis | None:
    """The game's analysis row if it was loaded with the list (None if it has none); a list
    that did not load it shows no state rather than query per game."""
    cache = game._state.fields_cache
    row = cache.get("analysis")
    return row if isinstance(row, GameAnalysis) else None


def past_game(game: Game, whose: User, *, you: bool) -> PastGame:
    """`game` (its memberships prefetched with their users) from `whose` side."""
    seated = sorted((m for m in game.memberships.all() if m.seat is not None), key=_seat)
    names = {m.seat: m.name for m in seated}
    mine = next((m.seat for m in seated if m.user_id == whose.pk), None)
    players = tuple(person_of(m) for m in seated)
    if game.status == Game.Status.ABANDONED:
        return PastGame(game, players, _("Abandoned"), "", you)
    outcome = game.outcome or {}
    winners = [int(seat) for seat in outcome.get("winners", ())]
    team = outcome.get("winning_team")
    winner_names = and_list(
        [names.get(seat, _("Seat %(number)s") % {"number": seat + 1}) for seat in winners]
    )
    if team is not None:
        # Translators: "team" is a letter, A or B; "names" are the team's players.
        result = _("Team %(team)s won (%(names)s)") % {
            "team": "AB"[int(team)],
            "names": winner_names,
        }
    elif len(winners) > 1:
        result = _("%(names)s shared the win") % {"names": winner_names}
    elif winners:
        result = _("%(names)s won") % {"names": winner_names}
    else:
        result = _("Finished")
    mine_text = ""
    if mine is not None and winners:
        if mine not in winners:
            mine_text = "lost"
        elif team is None and len(winners) > 1:
            mine_text = "shared"
        else:
            mine_text = "won"
    return PastGame(game, players, result, mine_text, you)


def _seat(member: Membership) -> int:
    return member.seat or 0


def past_games(games: Iterable[Game], whose: User, *, you: bool) -> list[PastGame]:
    return [past_game(game, whose, you=you) for game in games]


# --- lists -----------------------------------------------------------------------------------


def past_of(user: User) -> QuerySet[Game]:
    """`user`'s past games with their players and their analysis row (a join: the rows'
    analysis state costs no query)."""
    return Game.objects.with_people().past_for(user).select_related("analysis")


def latest_past(user: User, count: int = LOBBY_PAST) -> list[PastGame]:
    """`user`'s latest past games, for the lobby (two queries)."""
    return past_games(past_of(user)[:count], user, you=True)


def past_page(user: User, number: Any) -> tuple[Page[Game], list[PastGame]]:
    """One page of `user`'s past games (`number` as given in ?page=; a bad one gives the
    first or last page): the page for its links, and its games (three queries)."""
    paginator = Paginator(past_of(user), PAGE_SIZE)
    page = paginator.get_page(number)
    return page, past_games(page.object_list, user, you=True)


def watchable(user: User, count: int = WATCH_LIMIT) -> QuerySet[Game]:
    """Public games in progress `user` has no seat in, the latest started first."""
    return Game.objects.with_people().watchable_by(user).order_by("-started_at", "-pk")[:count]
