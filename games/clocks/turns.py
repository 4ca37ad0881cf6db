"""Turn clocks: when each awaited seat runs out of time, kept on its membership row.

A game's pace (`Game.move_seconds`) gives every seat that comes to act that many seconds
for its move (0: no clock). Each seat has its own deadline, set when its turn begins, so in
a simultaneous phase every seat still to choose runs its own clock, and a seat that acts
again (a trick's winner leads) starts afresh. A seat the server plays (a bot, or a human's
seat handed over) gets a deadline too: its move is due after the pause that lets people
follow the play (`settings.BOT_DELAY_SECONDS`), and the sweep makes it then.

The table service calls `set_turns` with every change of whose turn it is and
`refresh` when a seat changes hands; `games/clocks/deadlines.py` fires what is due.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import (
    BooleanField,
    Case,
    DateTimeField,
    ExpressionWrapper,
    Q,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import gettext_lazy, ngettext

from games.models import Game, Membership

# The paces offered when creating a game: (seconds per move, label).
PACES = (
    (0, gettext_lazy("No clock")),
    (30, gettext_lazy("Live: 30 s per move")),
    (60, gettext_lazy("Live: 1 min per move")),
    (120, gettext_lazy("Live: 2 min per move")),
    (24 * 3600, gettext_lazy("Correspondence: 1 day per move")),
    (3 * 24 * 3600, gettext_lazy("Correspondence: 3 days per move")),
)
PACE_SECONDS = frozenset(seconds for seconds, _label in PACES)

# A seat the server plays (its bot move) and a human's seat: told apart in one UPDATE.
PLAYS_ITSELF = ~Q(bot="") | Q(automated=True)
PLAYS_ITSELF_FLAG = ExpressionWrapper(PLAYS_ITSELF, output_field=BooleanField())


def pace_text(seconds: int) -> str:
    """ "30 s per move", "2 min per move", "1 day per move"; "" for no clock."""
    if seconds <= 0:
        return ""
    if seconds < 60:
        return ngettext("%(count)s s per move", "%(count)s s per move", seconds) % {
            "count": seconds
        }
    if seconds < 3600:
        minutes = seconds // 60
        return ngettext("%(count)s min per move", "%(count)s min per move", minutes) % {
            "count": minutes
        }
    if seconds < 24 * 3600:
        hours = seconds // 3600
        return ngettext("%(count)s h per move", "%(count)s h per move", hours) % {"count": hours}
    days = seconds // (24 * 3600)
    return ngettext("%(count)s day per move", "%(count)s days per move", days) % {"count": days}


def bot_due(now: datetime) -> datetime:
    """When a seat the server plays makes its move: after the pause between machine moves."""
    return now + timedelta(seconds=max(float(settings.BOT_DELAY_SECONDS), 0.0))


def human_deadline(game: Game, now: datetime) -> datetime | None:
    return now + timedelta(seconds=game.move_seconds) if game.move_seconds else None


def set_turns(
    game: Game,
    before: frozenset[int],
    after: frozenset[int],
    *,
    restarted: Iterable[int] = (),
    served: frozenset[int] | None = None,
) -> None:
    """Mirror the rules' `to_act` on the memberships with each seat's deadline (none when
    nothing changed). `restarted`: seats that stay awaited but face a new decision (the
    mover acting again), whose clock starts afresh. `served`: the seats the server plays,
    when the caller has read them under the game's lock; then each UPDATE sets plain values
    (one for the seats whose turn ended, one per kind of seat whose turn began), which cost
    less than the one UPDATE that tells the seats apart in SQL (bench/results/suite.md)."""
    fresh = (after - before) | (frozenset(restarted) & after)
    changed = (before ^ after) | fresh
    if not changed:
        return
    now = timezone.now()
    seats = Membership.objects.filter(game=game)
    if served is not None:
        if ended := changed - after:
            seats.filter(seat__in=ended).update(must_act=False, deadline=None)
        if bots := fresh & served:
            seats.filter(seat__in=bots).update(must_act=True, deadline=bot_due(now))
        if people := fresh - served:
            seats.filter(seat__in=people).update(must_act=True, deadline=human_deadline(game, now))
        return
    seats.filter(seat__in=changed).update(
        must_act=Case(When(seat__in=after, then=Value(True)), default=Value(False)),
        deadline=Case(
            When(Q(seat__in=fresh) & PLAYS_ITSELF, then=Value(bot_due(now))),
            When(seat__in=fresh, then=Value(human_deadline(game, now))),
            default=Value(None),
            output_field=DateTimeField(),
        ),
    )


def served_seats(members: Iterable[Membership]) -> frozenset[int]:
    """The seats among `members` that the server plays (`set_turns`'s `served`)."""
    return frozenset(m.seat for m in members if m.seat is not None and m.plays_itself)


def refresh(game: Game) -> None:
    """After a seat changed hands (handed to a bot, taken back, covered, replaced): give
    each awaited seat the deadline that fits who plays it now (the clock starts afresh
    for a human taking a seat back). At most two UPDATEs, of awaited seats only."""
    now = timezone.now()
    awaited = Membership.objects.filter(game=game, must_act=True)
    awaited.filter(PLAYS_ITSELF).update(deadline=bot_due(now))
    awaited.exclude(PLAYS_ITSELF).update(deadline=human_deadline(game, now))


def clear(game: Game) -> None:
    """The game stopped (over, abandoned): nobody is awaited, nothing is due."""
    Membership.objects.filter(game=game).exclude(must_act=False, deadline=None).update(
        must_act=False, deadline=None
    )
