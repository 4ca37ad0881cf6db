"""Replays: a game stepped through action by action, built from its action log with the
engine (never from stored renders), and drawn with the live table's own parts.

A game's `Timeline` is every state from the deal to its last action (one replay of the log
from the first snapshot), with where each hand begins and where each "chapter" ends: a
trick, or a turn of a game whose moves resolve together, found without game-specific code
as the points where the public side panel (`Table.side_key`) or the played-out resolution
(`Table.steps`) changes. Timelines are kept per process by (game, number of actions).

Who sees what: a finished (or abandoned) game may be replayed from any seat, every hand
open; a game in progress only from the viewer's own seat (players) or as a spectator (a
public game's watchers), and another seat's moves are not described (a pass in Hearts, a
card chosen in One Hundred and Four are secret until they are revealed on the felt).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from games import registry
from games.addresses import table_urls
from games.live.committed import CommittedCache, game_identity
from games.live.presence import Presence
from games.models import Game, GameAction, Snapshot
from games.presenters.analysis import analysis_context
from games.presenters.basis import names_of
from games.presenters.felt import draw
from games.presenters.undo import taken_back
from games.services.states import memberships, seated
from games.services.undo import TakeBack

if TYPE_CHECKING:
    from accounts.models import User

# What a replay's table links to (no moves from a replay).
LINKS = ("table", "replay", "export", "rules")


class ReplayError(Exception):
    """A replay request that cannot be served; `message` is shown, `status` answered."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Timeline:
    states: tuple[Any, ...]  # after 0, 1, ..., n actions
    # (seat, action), the n actions in order; an undo is a `TakeBack` (games/services/undo.py)
    actions: tuple[tuple[int, Any], ...]
    undone: frozenset[int]  # the steps that were taken back later
    hands: tuple[int, ...]  # the steps at which a hand begins (0 first)
    chapters: tuple[int, ...]  # the steps at which a trick or a turn has just ended

    @property
    def last(self) -> int:
        return len(self.actions)


_TIMELINES: CommittedCache[tuple[Any, ...], Timeline] = CommittedCache(size=64)


def timeline(game: Game) -> Timeline:
    """Every state of `game` from the deal to its `action_count` actions (two queries)."""
    key = (*game_identity(game), game.action_count)
    found = _TIMELINES.get(key)
    if found is not None:
        return found
    kind = registry.kind(game.kind)
    rules, table = kind.rules, kind.table
    first = Snapshot.objects.filter(game=game, seq=0).values_list("state", flat=True).first()
    if first is None:
        raise ReplayError(_("This game has not started yet."), 409)
    state = rules.state_from_json(first)
    log = GameAction.objects.filter(game=game, seq__lte=game.action_count).order_by("seq")
    actions = tuple(
        (seat, TakeBack(undoes) if undoes is not None else rules.action_from_json(move))
        for seat, move, undoes in log.values_list("seat", "move", "undoes")
    )
    states = [state]
    hands, chapters = [0], []

    def chapter(state: Any) -> tuple[str, str]:
        public = rules.view(state, None)
        return table.side_key(public), table.steps(public)[0]

    mark = chapter(state)
    for step, (seat, action) in enumerate(actions, start=1):
        before = state
        # Taken back: as before the action it undoes (always the step just before it).
        state = (
            states[action.undoes - 1]
            if isinstance(action, TakeBack)
            else rules.apply(state, seat, action)
        )
        states.append(state)
        if rules.hand_number(state) != rules.hand_number(before):
            hands.append(step)
        now = chapter(state)
        if now != mark:
            chapters.append(step)
            mark = now
    undone = frozenset(a.undoes for _seat, a in actions if isinstance(a, TakeBack))
    found = Timeline(tuple(states), actions, undone, tuple(hands), tuple(chapters))
    _TIMELINES.put(key, found)
    return found


def _step(raw: str, last: int) -> int:
    if raw == "":
        return last
    if not (raw.isascii() and raw.isdigit()):
        raise ReplayError(_("That step could not be read."))
    return min(int(raw), last)


def _perspectives(game: Game, mine: int | None, players: int) -> list[int | None]:
    """The seats the viewer may replay the game from (None: as a spectator)."""
    if game.status in (Game.Status.FINISHED, Game.Status.ABANDONED):
        return [*range(players), None]  # over: every hand may be shown
    return [mine]


def _seat(raw: str, allowed: list[int | None], default: int | None, players: int) -> int | None:
    """The seat asked for: 400 for one that cannot be read or that the game does not have
    (a bad address, as an unreadable step: the game itself exists and the viewer may see
    it, so not 404), 403 for a seat of a game in progress that is not the viewer's own."""
    if raw == "":
        return default
    seat: int | None = None
    if raw != "spectator":
        if not (raw.isascii() and raw.isdigit()):
            raise ReplayError(_("That seat could not be read."))
        seat = int(raw)
        if seat >= players:
            raise ReplayError(_("This game has no such seat."))
    if seat not in allowed:
        raise ReplayError(_("You may replay this game in progress only from your own seat."), 403)
    return seat


def _before(marks: tuple[int, ...], step: int) -> int:
    return max((m for m in marks if m < step), default=0)


def _after(marks: tuple[int, ...], step: int, last: int) -> int:
    return min((m for m in marks if m > step), default=last)


def replay_context(game: Game, user: User, at: str = "", seat: str = "") -> dict[str, Any]:
    """The replay page's context for `user` at step `at` (default: the latest) from `seat`
    ("spectator", a seat number; default: the viewer's own seat). Raises ReplayError."""
    if game.status == Game.Status.WAITING:
        raise ReplayError(_("This game has not started yet."), 409)
    kind = registry.kind(game.kind)
    members = memberships(game)
    by_seat = seated(game, members)
    names = names_of(by_seat, len(by_seat))
    viewer = next((m for m in members if m.user_id == getattr(user, "pk", None)), None)
    mine = viewer.seat if viewer is not None else None
    allowed = _perspectives(game, mine, len(names))
    from_seat = _seat(seat, allowed, mine if mine in allowed else allowed[0], len(names))
    line = timeline(game)
    step = _step(at, line.last)
    state = line.states[step]
    drawn = draw(
        kind,
        names,
        by_seat,
        state,
        from_seat,
        to_act=kind.rules.to_act(state),
        automated=True,  # nothing to act on: the hand is shown, its controls are not
        version=game.version,
        here=Presence(),
        me=mine,
        replay=True,
    )
    over = game.status in (Game.Status.FINISHED, Game.Status.ABANDONED)
    said = ""
    if step:
        mover, action = line.actions[step - 1]
        # Only what the viewer may know: every move once the game is over, else their own.
        if isinstance(action, TakeBack):  # public: the felt showed the move to everyone
            said = taken_back(mover, mine, names)
        elif over or mover == mine:
            move = kind.table.describe(action)
            said = (
                # Translators: what you did at this step of the replay ("You: Bid 20").
                _("You: %(move)s") % {"move": move}
                if mover == mine
                else _("%(name)s: %(move)s") % {"name": names[mover], "move": move}
            )
        else:
            said = _("%(name)s moved.") % {"name": names[mover]}
        if step in line.undone:
            # Translators: a move in a replay that its player took back afterwards.
            said = _("%(said)s (taken back)") % {"said": said}
    urls = table_urls(game.pk, kind.slug)
    url = urls["replay"]
    seat_param = "spectator" if from_seat is None else str(from_seat)

    def link(to: int) -> str:
        return f"{url}?at={to}&seat={seat_param}"

    hand = sum(1 for h in line.hands if h <= step)
    return {
        **drawn,
        **analysis_context(
            game, step, names, lambda to, s: f"{url}?at={to}&seat={'spectator' if s is None else s}"
        ),
        "game": game,
        "kind": kind,
        "step_number": step,
        "last": line.last,
        "hand_number": hand,
        "said": said,
        "finished": over,
        "from_seat": from_seat,
        # Translators: completes "Seen by …" on the replay page.
        "from_name": _("a spectator") if from_seat is None else names[from_seat],
        "perspectives": [
            {
                "label": _("Spectator") if s is None else names[s],
                "url": f"{url}?at={step}&seat={'spectator' if s is None else s}",
                "current": s == from_seat,
            }
            for s in allowed
        ]
        if len(allowed) > 1
        else [],
        "nav": {
            "first": link(0),
            "previous_hand": link(_before(line.hands, step)),
            "previous_chapter": link(_before(line.chapters, step)),
            "back": link(max(step - 1, 0)),
            "forward": link(min(step + 1, line.last)),
            "next_chapter": link(_after(line.chapters, step, line.last)),
            "next_hand": link(_after(line.hands, step, line.last)),
            "last": link(line.last),
        },
        "at_start": step == 0,
        "at_end": step == line.last,
        "urls": {"move": "", **{name: urls[name] for name in LINKS}},
        "spectator": from_seat is None,
        "is_player": from_seat is not None,
        "me": viewer,
        "side_template": kind.table.side_template,
        "side_g": kind.table.side(kind.rules.view(state, None), names),
    }
