"""Analysis of a finished game by the search, off the request path (docs/analysis.md).

`request` queues a game's analysis (one row per game: asked twice, computed once); the
deadline sweep of whichever server process comes first claims it (`run_next`, called from
games/clocks/deadlines.py) and runs it in the analysis worker (games/bots/thinking.py: a
pool of its own, niced below the bots' workers), a few moves at a time, writing its
progress after each piece so the replay page's progress bar moves. The result is stored
with `ANALYSIS_VERSION` and computed again when that changes.

Never for a game in progress: the search's opinion of a position would help a player
during play. The log analysed is the game's effective actions: an undo row and the action
it took back are left out, as the export leaves them (games/services/history.py). A move a
bot made for a human's covered seat (`GameAction.auto` on a human seat) is not graded
against its player.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext as _

from games import registry
from games.access import visible_game_or_404
from games.bots import thinking
from games.kinds import analysis as core
from games.models import Game, GameAction, GameAnalysis, Membership, Snapshot
from games.services.errors import TableError

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

# Moves of the log walked per piece of work: the progress bar moves after each.
PIECE = 8


class AnalysisRefused(TableError):
    """An analysis that cannot be asked for now; `str(error)` says why."""

    status = 409


class TooManyAnalyses(AnalysisRefused):
    status = 429


def version() -> str:
    return core.ANALYSIS_VERSION


def current(game: Game) -> GameAnalysis | None:
    """The game's analysis row, if any (whatever its version)."""
    return GameAnalysis.objects.filter(game=game).first()


def request(*, game_id: int, user: User, now: datetime | None = None) -> GameAnalysis:
    """Queue the analysis of the finished game `game_id` for `user` (who may see its replay,
    else Http404), or return the one queued, running or done already. AnalysisRefused for a
    game not finished, a full queue or a user over the hourly quota."""
    now = now or timezone.now()
    with transaction.atomic():
        game = visible_game_or_404(user, game_id, for_update=True)
        if game.status == Game.Status.ABANDONED:  # not played on: the reason is not play
            raise AnalysisRefused(_("An abandoned game is not analysed."))
        if game.status == Game.Status.WAITING:
            raise AnalysisRefused(_("This game has not started yet."))
        if game.status != Game.Status.FINISHED:
            raise AnalysisRefused(
                _("Only a finished game can be analysed: the search never helps during play.")
            )
        if registry.kind(game.kind).grading is None:
            raise AnalysisRefused(_("This game cannot be analysed yet."))
        row = current(game)
        fresh = row is not None and row.status != GameAnalysis.Status.FAILED
        if (
            row is not None
            and fresh
            and (row.status != GameAnalysis.Status.DONE or row.version == version())
        ):
            return row  # asked twice: computed once
        hour_ago = now - timedelta(hours=1)
        if GameAnalysis.objects.filter(requested_by=user, requested_at__gt=hour_ago).count() >= int(
            settings.ANALYSIS_PER_HOUR
        ):
            raise TooManyAnalyses(
                _("You have asked for %(count)s analyses in the last hour: please wait a while.")
                % {"count": settings.ANALYSIS_PER_HOUR}
            )
        waiting = GameAnalysis.objects.filter(status=GameAnalysis.Status.QUEUED).count()
        if waiting >= int(settings.ANALYSIS_QUEUE):
            raise TooManyAnalyses(
                _("Too many games are waiting to be analysed: please try again later.")
            )
        fields: dict[str, Any] = {
            "status": GameAnalysis.Status.QUEUED,
            "done": 0,
            "total": 0,
            "result": None,
            "version": "",
            "requested_by": user,
            "requested_at": now,
            "claimed_until": None,
            "finished_at": None,
        }
        row, _created = GameAnalysis.objects.update_or_create(game=game, defaults=fields)
        return row


def _claim(now: datetime) -> tuple[int, int] | None:
    """Claim the oldest queued analysis, or a running one whose claim lapsed (a process that
    stopped): (row id, attempt), or None. Locked with SKIP LOCKED where the database has it,
    so two sweeps pass each other; SQLite has one writer (its transactions are IMMEDIATE)."""
    with transaction.atomic():
        waiting = GameAnalysis.objects.filter(
            Q(status=GameAnalysis.Status.QUEUED)
            | Q(status=GameAnalysis.Status.RUNNING, claimed_until__lt=now)
        ).order_by("requested_at", "pk")
        if connection.features.has_select_for_update_skip_locked:
            waiting = waiting.select_for_update(skip_locked=True)
        else:
            waiting = waiting.select_for_update()
        row = waiting.first()
        if row is None:
            return None
        # Conditional on the attempt read, so two claims of one row can never both hold.
        claimed = GameAnalysis.objects.filter(pk=row.pk, attempt=row.attempt).update(
            status=GameAnalysis.Status.RUNNING,
            attempt=row.attempt + 1,
            done=0,
            claimed_until=now + timedelta(seconds=int(settings.ANALYSIS_CLAIM_SECONDS)),
        )
        return (row.pk, row.attempt + 1) if claimed else None


def _write(row_id: int, attempt: int, **fields: Any) -> bool:
    """Write to the row if this claim still holds it (a lapsed claim taken again writes
    nothing); renews the claim."""
    claim = timezone.now() + timedelta(seconds=int(settings.ANALYSIS_CLAIM_SECONDS))
    fields.setdefault("claimed_until", claim)
    return bool(GameAnalysis.objects.filter(pk=row_id, attempt=attempt).update(**fields))


@dataclass(frozen=True)
class Recorded:
    """What the analysis reads of a finished game: its first state, its effective log, the
    seq of each of its actions (their replay step) and the steps not to grade."""

    initial: Any
    log: tuple[tuple[int, Any], ...]
    seqs: tuple[int, ...]
    skip: frozenset[int]


def recorded(game: Game) -> Recorded:
    kind = registry.kind(game.kind)
    rules = kind.rules
    first = Snapshot.objects.filter(game=game, seq=0).values_list("state", flat=True).first()
    seats = game.memberships.filter(seat__isnull=False)
    if first is not None:
        initial = rules.state_from_json(first)
    else:  # as table.begin dealt it
        initial = rules.initial_state(game.seed, seats.count(), game.options)
    humans = set(seats.filter(bot="").values_list("seat", flat=True))
    kept = GameAction.objects.filter(game=game, undone=False, undoes__isnull=True).order_by("seq")
    rows = list(kept.values_list("seq", "seat", "move", "auto"))
    return Recorded(
        initial,
        tuple((seat, rules.action_from_json(move)) for _seq, seat, move, _auto in rows),
        tuple(seq for seq, *_rest in rows),
        # A bot's move for a covered human seat is not the player's decision.
        frozenset(i for i, (_seq, seat, _move, auto) in enumerate(rows) if auto and seat in humans),
    )


def run_next(now: datetime | None = None) -> bool:
    """Claim one analysis and run it to its end here (the sweep's analysis thread; tests
    call it, or `deadlines.tick`). Returns whether one was claimed."""
    claimed = _claim(now or timezone.now())
    if claimed is None:
        return False
    row_id, attempt = claimed
    try:
        run(row_id, attempt)
    except Exception:  # a broken game must not stop the queue: marked failed, may be asked again
        log.exception("analysis %s failed", row_id)
        _write(row_id, attempt, status=GameAnalysis.Status.FAILED, finished_at=timezone.now())
    return True


def run(row_id: int, attempt: int) -> None:
    """Analyse the claimed row's game, a piece at a time in the analysis worker."""
    row = GameAnalysis.objects.select_related("game").get(pk=row_id)
    game = row.game
    kind = registry.kind(game.kind)
    grading = kind.grading
    assert grading is not None  # refused on request
    game_log = recorded(game)
    total = len(game_log.log)
    budget = int(settings.ANALYSIS_BUDGET) or grading.budget
    if not _write(row_id, attempt, total=total, done=0):
        return
    decisions: list[core.Decision[Any]] = []
    part: core.GameAnalysis[Any] | None = None
    start = 0
    while True:
        stop = min(start + PIECE, total)
        # The whole log is walked each time (cheap), and only this piece's steps graded.
        skip = game_log.skip | frozenset(range(start)) | frozenset(range(stop, total))
        part = thinking.run_analysis(
            core.analyse_game,
            kind.rules,
            grading,
            game_log.initial,
            game_log.log,
            seed=f"{game.seed}:analysis",
            budget=budget,
            skip=skip,
        )
        decisions.extend(part.decisions)
        if stop >= total:
            break
        if not _write(row_id, attempt, done=stop):
            return  # the claim lapsed and another process took it over
        start = stop
    summaries = [
        core.summarise(s.seat, [d for d in decisions if d.seat == s.seat], part.hands, grading)
        for s in part.seats
    ]
    result = as_json(kind.rules, part, decisions, summaries, game_log.seqs)
    _write(
        row_id,
        attempt,
        status=GameAnalysis.Status.DONE,
        done=total,
        result=result,
        version=version(),
        finished_at=timezone.now(),
        claimed_until=None,
    )


def as_json(
    rules: Any,
    analysis: core.GameAnalysis[Any],
    decisions: list[core.Decision[Any]],
    summaries: list[core.SeatSummary],
    seqs: tuple[int, ...],
) -> dict[str, Any]:
    """The stored result. Actions are stored as the game's JSON and described when shown
    (in the reader's language); `step` is the action's replay step (its seq)."""
    return {
        "unit": analysis.unit,
        "budget": analysis.budget,
        "hands": analysis.hands,
        "decisions": [
            {
                "step": seqs[d.step],
                "seat": d.seat,
                "hand": d.hand,
                "played": rules.action_to_json(d.played),
                "best": rules.action_to_json(d.best),
                "value_played": round(d.value_played, 3),
                "value_best": round(d.value_best, 3),
                "loss": round(d.loss, 3),
                "mark": d.mark,
            }
            for d in decisions
        ],
        "seats": [
            {
                "seat": s.seat,
                "decisions": s.decisions,
                "accuracy": round(s.accuracy, 1),
                "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes,
                "blunders": s.blunders,
                "hands": s.hands,
                "mistakes_per_hand": round(s.mistakes_per_hand, 2),
            }
            for s in summaries
        ],
    }


# --- a player's accuracy over time (the player page) -------------------------------------------

ACCURACY_GAMES = 200  # per game kind: the latest analysed games only, as the rating chart


@dataclass(frozen=True)
class AccuracySeries:
    """A player's accuracy in their analysed games of one kind, oldest first."""

    kind: str
    values: tuple[float, ...]
    more: bool  # older analysed games were left out (more than ACCURACY_GAMES)


def accuracy_of(player: User, viewer: User) -> list[AccuracySeries]:
    """`player`'s accuracy in each of their latest analysed finished games, per kind (one
    query, whatever the number of games). Only analyses done with the present version (the
    replay shows no other), only games `viewer` may see the replay of (a member, or a public
    game), and only seats with a graded move: as the replay's summary, the seat is its
    holder's at the end (a replaced player has left the game; a stand-in's seat counts) and a
    seat a bot covered throughout has no figure."""
    rows = Membership.objects.filter(
        user=player,
        seat__isnull=False,
        game__status=Game.Status.FINISHED,
        game__analysis__status=GameAnalysis.Status.DONE,
        game__analysis__version=version(),
    )
    if viewer.pk != player.pk:
        theirs = Membership.objects.filter(user=viewer).values("game_id")
        rows = rows.filter(Q(game__public=True) | Q(game_id__in=theirs))
    latest = Window(
        RowNumber(),
        partition_by=F("game__kind"),
        order_by=(F("game__finished_at").desc(), F("game_id").desc()),
    )
    found = (
        rows.annotate(latest=latest)
        .filter(latest__lte=ACCURACY_GAMES + 1)  # one more: whether older ones were left out
        .values_list("game__kind", "latest", "seat", "game__analysis__result__seats")
    )
    by_kind: dict[str, list[tuple[int, float]]] = {}
    more: set[str] = set()
    for kind, number, seat, summaries in found:
        if number > ACCURACY_GAMES:
            more.add(kind)
            continue
        mine = next((s for s in summaries or () if s.get("seat") == seat), None)
        if mine is not None and mine.get("decisions"):
            by_kind.setdefault(kind, []).append((number, float(mine["accuracy"])))
    return [
        AccuracySeries(
            slug,
            tuple(value for _n, value in sorted(by_kind[slug], reverse=True)),
            slug in more,
        )
        for slug in registry.REGISTRY
        if slug in by_kind
    ]
