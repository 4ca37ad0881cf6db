"""Undo by consent: a player asks to take back their own last action, and the table answers.

Which actions may be taken back is each game's rule (`rules.undoable`, in its folder: a bid,
a card played to an unfinished trick; never one that completes a trick, a hand or a reveal,
nor a choice made together). The platform adds the rest: it must be the log's last action
(nobody has acted since), made by the asker themselves (not a bot for them), in a game that
counts for no rating, asked once.

`Game.undo` says where that stands, written with the version in the same row write, so every
process and page follows it as it follows a move:

- `{"seq": n, "seat": s}`: action n, seat s's, may be asked about (`recording.record` writes
  it, or None, with every action);
- `... "asked": [seats], "yes": [seats]`: asked; the people at the other seats answer (a seat
  a bot plays accepts: it is not asked), until `Game.undo_until`;
- `... "refused": "declined" | "lapsed", "by": seat`: somebody declined, or time ran out.
  It is not asked again.
- `{"seq": n, "seat": s, "taken": true}`: everyone accepted, and action n is the undo row
  that took s's move back (the table says so until the next action).

While a question is open nobody moves: moves are refused, and every awaited seat's deadline
(a clock, a bot's move) is put off by the question's time, then brought back by what was
left of it when the answer came, so the clocks and bots wait exactly as long as the
question did. Accepted by everyone, the undo is a row of the log of its own (`GameAction.undoes`,
the undone action marked `undone`): the log keeps what happened, the state after it is the
state before the undone action, and the asker is to act again. A card once seen stays
known: that is accepted (docs/undo.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clocks import turns
from games.models import Game, GameAction, Membership
from games.ratings.service import rated
from games.services.announce import after_change
from games.services.errors import NotAPlayer, RefusedMove, StaleTable
from games.services.states import STATES, kind_of, load_state, memberships, seated, state_key

if TYPE_CHECKING:
    from accounts.models import User


def question_seconds() -> int:
    """How long the table has to answer (`settings.UNDO_SECONDS`)."""
    return max(int(settings.UNDO_SECONDS), 1)


@dataclass(frozen=True)
class Undo:
    """`Game.undo` read: which action may be taken back, and where asking about it stands."""

    seq: int
    seat: int
    asked: tuple[int, ...] = ()  # the seats whose people answer
    yes: tuple[int, ...] = ()  # those who accepted
    refused: str = ""  # "declined" or "lapsed"
    by: int | None = None  # who declined
    taken: bool = False  # everyone accepted: action `seq` is the undo row that took it back

    @classmethod
    def of(cls, game: Game) -> Undo | None:
        """The game's undo, if its last action may be (or was) asked about; None for a
        malformed value (it is the server's own, so only a hand-edited row)."""
        data = game.undo
        if not isinstance(data, Mapping):
            return None
        try:
            return cls(
                seq=int(data["seq"]),
                seat=int(data["seat"]),
                asked=tuple(int(s) for s in data.get("asked", ())),
                yes=tuple(int(s) for s in data.get("yes", ())),
                refused=str(data.get("refused", "")),
                by=None if data.get("by") is None else int(data["by"]),
                taken=bool(data.get("taken", False)),
            )
        except (KeyError, TypeError, ValueError):
            return None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seq": self.seq, "seat": self.seat}
        if self.asked:
            data["asked"], data["yes"] = list(self.asked), list(self.yes)
        if self.refused:
            data["refused"], data["by"] = self.refused, self.by
        if self.taken:
            data["taken"] = True
        return data

    @property
    def open(self) -> bool:
        """Asked, and not answered yet."""
        return bool(self.asked) and not self.refused

    def waiting_for(self) -> tuple[int, ...]:
        """The seats that have not answered yet."""
        return tuple(s for s in self.asked if s not in self.yes)


@dataclass(frozen=True)
class TakeBack:
    """An undo row of the log as the replay steps through it: seat took back action `undoes`."""

    undoes: int


def marker(rules: Any, before: Any, seat: int, action: Any, after: Any, *, seq: int) -> Any:
    """What `Game.undo` becomes when `seat`'s `action` is recorded as number `seq`
    (`recording.record`; a bot's actions are never offered: `auto`)."""
    return (
        Undo(seq=seq, seat=seat).to_json() if rules.undoable(before, seat, action, after) else None
    )


def question(game: Game) -> Undo | None:
    """The open question of undo at `game`, if any."""
    undo = Undo.of(game)
    return undo if undo is not None and undo.open else None


def may_ask(game: Game, seat: int | None, members: Iterable[Membership]) -> bool:
    """Whether the person at `seat` may ask to take back the last action now (the button)."""
    undo = Undo.of(game)
    return (
        seat is not None
        and undo is not None
        and not undo.asked
        and not undo.taken
        and undo.seat == seat
        and undo.seq == game.action_count
        and game.status == Game.Status.ACTIVE
        and not rated(game, [m for m in members if m.seat is not None])
    )


# --- asking and answering --------------------------------------------------------------------


def _locked(game_id: int, user: User) -> tuple[Game, tuple[Membership, ...], Membership]:
    game = Game.objects.select_for_update().get(pk=game_id)
    members = memberships(game)
    mine = next((m for m in members if m.user_id == user.pk and m.seat is not None), None)
    if mine is None or mine.seat is None:
        raise NotAPlayer(_("Only the players at this table can take back a move."))
    if game.status != Game.Status.ACTIVE:
        raise RefusedMove(_("The game is not in progress."))
    return game, members, mine


def _put_off(game: Game, seconds: float) -> None:
    """Every awaited seat's deadline (clock or bot's move) moves by `seconds`."""
    Membership.objects.filter(game=game, must_act=True, deadline__isnull=False).update(
        deadline=F("deadline") + timedelta(seconds=seconds)
    )


def _changed(game: Game, undo: Undo | None, members: tuple[Membership, ...], seat: int) -> None:
    """A new version with `undo` as it now stands, announced (nothing else changed)."""
    game.undo = None if undo is None else undo.to_json()
    game.undo_until = game.undo_until if undo is not None and undo.open else None
    game.version += 1
    game.save(update_fields=["undo", "undo_until", "version"])
    state = load_state(game)
    after_change(game, state, state, mover_seat=seat, members=members)


@transaction.atomic
def ask(*, game_id: int, user: User, seen_version: int) -> Game:
    """`user` asks to take back their last action. With nobody to ask (everyone else is a
    bot), it is taken back at once."""
    game, members, mine = _locked(game_id, user)
    if seen_version != game.version:
        raise StaleTable()
    undo = Undo.of(game)
    if mine.automated:
        raise RefusedMove(_("A bot plays your seat now."))
    if undo is not None and undo.refused and undo.seq == game.action_count:
        raise RefusedMove(_("The table did not take that move back; it stands."))
    if undo is not None and undo.open:
        raise RefusedMove(_("You have asked already; the table is answering."))
    if undo is not None and undo.taken and undo.seq == game.action_count:
        raise RefusedMove(_("Your move has been taken back already."))
    if not may_ask(game, mine.seat, members):
        if rated(game, [m for m in members if m.seat is not None]):
            raise RefusedMove(_("Moves cannot be taken back in a rated game."))
        raise RefusedMove(
            _("Only your own last move can be taken back, before anybody else has acted.")
        )
    assert undo is not None and mine.seat is not None
    people = tuple(
        seat
        for seat, m in sorted(seated(game, members).items())
        if seat != mine.seat and m.user_id is not None and not m.plays_itself
    )
    if not people:
        _take_back(game, members, undo)
        return game
    game.undo_until = timezone.now() + timedelta(seconds=question_seconds())
    _put_off(game, question_seconds())
    _changed(game, Undo(seq=undo.seq, seat=undo.seat, asked=people), members, mine.seat)
    return game


@transaction.atomic
def answer(*, game_id: int, user: User, accept: bool) -> Game:
    """A person asked answers: all must accept; one "no" ends the question."""
    game, members, mine = _locked(game_id, user)
    undo = question(game)
    if undo is None:
        raise RefusedMove(_("Nobody is asking to take back a move now."))
    if mine.seat not in undo.asked:
        raise RefusedMove(_("Only the other players answer when a move is to be taken back."))
    if mine.seat in undo.yes:
        raise RefusedMove(_("You have accepted already."))
    assert mine.seat is not None
    if not accept:
        _ended(game, members, undo, "declined", mine.seat)
        return game
    undo = Undo(seq=undo.seq, seat=undo.seat, asked=undo.asked, yes=(*undo.yes, mine.seat))
    if undo.waiting_for():
        _changed(game, undo, members, mine.seat)
    else:
        _bring_back(game)
        _take_back(game, members, undo)
    return game


def _bring_back(game: Game, now: datetime | None = None) -> None:
    """The question is over: the awaited seats get back the time it had left."""
    if game.undo_until is not None:
        left = (game.undo_until - (now or timezone.now())).total_seconds()
        if left > 0:
            _put_off(game, -left)


def _ended(
    game: Game,
    members: tuple[Membership, ...],
    undo: Undo,
    how: str,
    by: int | None,
    now: datetime | None = None,
) -> None:
    _bring_back(game, now)
    game.undo_until = None
    refused = Undo(seq=undo.seq, seat=undo.seat, asked=undo.asked, yes=undo.yes, refused=how, by=by)
    _changed(game, refused, members, undo.seat if by is None else by)


def _take_back(game: Game, members: tuple[Membership, ...], undo: Undo) -> None:
    """Everyone agreed: the log gets an undo row, and the game is as before the action."""
    rules = kind_of(game).rules
    before = load_state(game)
    log = GameAction.objects.filter(game=game)
    log.filter(seq=undo.seq).update(undone=True)
    seq = game.action_count + 1
    GameAction.objects.create(game=game, seq=seq, seat=undo.seat, move={}, undoes=undo.seq)
    game.action_count = seq
    game.version += 1
    # What the table says until the next action: whose move was taken back.
    game.undo = Undo(seq=seq, seat=undo.seat, taken=True).to_json()
    game.undo_until = None
    game.save(update_fields=["action_count", "version", "undo", "undo_until"])
    after = load_state(game)  # replays the log up to the undo row: the state before the action
    STATES.put(state_key(game, seq), after)
    turns.set_turns(
        game,
        rules.to_act(before),
        rules.to_act(after),
        restarted=(undo.seat,),
        served=turns.served_seats(members),
    )
    after_change(game, before, after, mover_seat=undo.seat, members=members)


def lapse_due(now: datetime | None = None) -> int:
    """Questions nobody finished answering in time end as refused (the deadline sweep)."""
    now = now or timezone.now()
    due = Game.objects.filter(undo_until__lte=now).values_list("pk", flat=True)[:100]
    return sum(_lapse(game_id, now) for game_id in due)


@transaction.atomic
def _lapse(game_id: int, now: datetime) -> int:
    game = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
    if game is None or game.undo_until is None or game.undo_until > now:
        return 0  # answered, or another sweep has it
    undo = question(game)
    if undo is None or game.status != Game.Status.ACTIVE:
        game.undo_until = None
        game.save(update_fields=["undo_until"])
        return 0
    _ended(game, memberships(game), undo, "lapsed", None, now)
    return 1


def dropped(game: Game) -> None:
    """A seat changed hands while a question was open (game locked, version bumped by the
    caller): the question ends unanswered, and the clocks are set afresh by the caller."""
    undo = question(game)
    if undo is None:
        return
    refused = Undo(seq=undo.seq, seat=undo.seat, asked=undo.asked, yes=undo.yes, refused="lapsed")
    game.undo = refused.to_json()
    game.undo_until = None
    game.save(update_fields=["undo", "undo_until"])
