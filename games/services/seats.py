"""Who plays a seat: its player, or a bot for them; and what happens when a clock runs out.

A player may hand their seat to a bot and take it back later, with one click each. When a
seat's clock runs out (`expire`, fired by games/clocks/deadlines.py), the bot plays that move and
keeps the seat, marked away, until its player takes it back. It runs in one transaction
with the game row locked, and checks again what it was called for, so a deadline seen by
two processes is applied once. (The due moves of seats the server plays are the sweep's
too, in `services.bot_moves.play_due`.)
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from games.clocks import turns
from games.models import COVER_TIMED_OUT, Game, Membership
from games.services import undo
from games.services.announce import after_change
from games.services.bot_choice import bot_action
from games.services.errors import NotAPlayer, RefusedMove
from games.services.recording import record
from games.services.states import kind_of, load_state

if TYPE_CHECKING:
    from accounts.models import User

# What the table says on a seat whose clock ran out (stored in English: `cover_text`).
TIMED_OUT = COVER_TIMED_OUT


def _seat_of(game: Game, user: User, refusal: str) -> Membership:
    """`user`'s seat, or `refusal` (a sentence) when they have none."""
    member = game.memberships.filter(user=user, seat__isnull=False).first()
    if member is None:
        raise NotAPlayer(refusal)
    if game.status != Game.Status.ACTIVE:
        raise RefusedMove(_("The game is not in progress."))
    return member


def changed_hands(game: Game) -> None:
    """A seat changed hands (a bot took it, its player or a stand-in took it back; game
    locked): a new version, each awaited seat's clock fitting who plays it now, the bots
    and every table and lobby told."""
    game.version += 1
    game.save(update_fields=["version"])
    undo.dropped(game)  # a question of undo ends unanswered: the clocks start afresh here
    turns.refresh(game)
    state = load_state(game)
    after_change(game, state, state, mover_seat=None)


@transaction.atomic
def automate(*, game_id: int, user: User) -> Game:
    """Hand the user's seat to the bot until they take it back (`reclaim`)."""
    game = Game.objects.select_for_update().get(pk=game_id)
    member = _seat_of(game, user, _("Only the players at this table can hand their seat to a bot."))
    if member.automated:
        raise RefusedMove(_("A bot already plays your seat."))
    member.automated, member.cover_note = True, ""
    member.save(update_fields=["automated", "cover_note"])
    changed_hands(game)
    return game


@transaction.atomic
def reclaim(*, game_id: int, user: User) -> Game:
    """The player takes their seat back from the bot (handed over, covered or timed out);
    on their turn, their clock starts afresh."""
    game = Game.objects.select_for_update().get(pk=game_id)
    member = _seat_of(game, user, _("Only the players at this table can take a seat back."))
    if not member.automated:
        raise RefusedMove(_("You are playing your seat already."))
    member.automated, member.cover_note = False, ""
    member.save(update_fields=["automated", "cover_note"])
    changed_hands(game)
    return game


@transaction.atomic
def expire(*, membership_id: int, now: datetime) -> bool:
    """Apply a seat's due deadline, if it is still due: the bot plays the move (a human's
    seat is then marked away and kept by the bot). True if a move was made.

    Skips a game whose row another process holds (it is moving now; the next sweep sees
    what is left), so sweeps never queue behind each other.
    """
    game_id = Membership.objects.filter(pk=membership_id).values_list("game_id", flat=True)
    game = Game.objects.select_for_update(skip_locked=True).filter(pk__in=game_id).first()
    if game is None:
        return False
    member = Membership.objects.filter(pk=membership_id).first()
    if member is None or member.deadline is None or member.deadline > now:
        return False  # moved, or taken back, meanwhile
    state = load_state(game) if game.status == Game.Status.ACTIVE else None
    seat = member.seat
    if state is None or seat is None or seat not in kind_of(game).rules.to_act(state):
        member.deadline = None  # nothing to wait for: a stray deadline (no move made)
        member.save(update_fields=["deadline"])
        return False
    fields = ["deadline"]
    member.deadline = None
    if not member.plays_itself:
        member.automated, member.cover_note = True, TIMED_OUT
        fields += ["automated", "cover_note"]
    member.save(update_fields=fields)
    action = bot_action(game, state, seat, member)
    after = record(game, state, seat, action, auto=True)
    # The mover's seat now plays itself: `record` gave it a bot's deadline if it acts again.
    after_change(game, state, after, mover_seat=seat, moves=[(seat, action)])
    return True
