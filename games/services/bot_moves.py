"""Machine moves, made by the deadline sweep (games/clocks/deadlines.py) when a seat the server
plays is due (`play_due`).

Built on the table service (`games.services.table`): the same recording, the same
announcements after commit. A bot decides with no lock held; its move is stored only if the
game is still at the version the sweep saw.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from games.clocks import turns
from games.models import Game, Membership
from games.services.announce import after_change
from games.services.bot_choice import bot_action, bot_seats
from games.services.recording import record
from games.services.states import kind_of, load_state, memberships, seated

# How long a sweep holds a due bot move it has claimed: a process that dies while its bot
# thinks leaves the move to another sweep after this. Far longer than the longest decision
# (settings.BOT_SEARCH_SECONDS, after which the medium bot decides) and its store.
CLAIM_SECONDS = 30


def play_due(membership_id: int, deadline: datetime, now: datetime) -> int:
    """Make the due move of a seat the server plays; returns how many moves were made (0, 1).

    The sweep claims the move first (the deadline moves to the end of a claim, in one
    conditional UPDATE), so a second process that found it due passes it by and no row is
    locked while the bot decides. Overtaken meanwhile (a seat changed hands, another seat of
    a simultaneous phase moved), the move is due again at once for the next look.
    """
    claim = now + timedelta(seconds=CLAIM_SECONDS)
    mine = Membership.objects.filter(pk=membership_id, deadline=deadline)
    if not mine.update(deadline=claim):
        return 0  # claimed by another sweep, or the game moved
    claimed = Membership.objects.filter(pk=membership_id, deadline=claim)
    member = Membership.objects.select_related("game").get(pk=membership_id)
    game = member.game
    if game.status != Game.Status.ACTIVE or not member.must_act or not member.plays_itself:
        claimed.update(deadline=None)  # a stray deadline: nothing to play
        return 0
    if play_bot_move(game.pk, game.version, read=game):
        return 1
    claimed.update(deadline=now)
    return 0


def play_bot_move(game_id: int, expected_version: int, *, read: Game | None = None) -> bool:
    """The next bot move(s), if the game is still where the scheduler saw it; True if any.

    In a simultaneous phase every bot that must choose chooses now (one action each); in a
    sequential one, one bot moves. The bots decide first, with no lock held (a search takes
    tens of milliseconds, and on SQLite a write lock would stop every other move meanwhile);
    then, in one transaction with the game row locked, the moves are stored if the game is
    still at `expected_version`. `read`: the game's row, if the caller has just read it.
    """
    game = read if read is not None else Game.objects.filter(pk=game_id).first()
    if game is None or game.version != expected_version or game.status != Game.Status.ACTIVE:
        return False
    state = load_state(game)
    # Who plays each seat; deciding needs no user rows (the store reads every member again,
    # under the lock).
    by_seat = seated(game, Membership.objects.filter(game=game, seat__isnull=False))
    seats = bot_seats(game, state, by_seat)
    if len(kind_of(game).rules.to_act(state)) == 1:
        seats = seats[:1]
    moves = []
    for ahead, seat in enumerate(seats):
        action = bot_action(game, state, seat, by_seat[seat], ahead=ahead)
        moves.append((seat, action))
        state = kind_of(game).rules.apply(state, seat, action)
    return bool(moves) and _store_bot_moves(game_id, expected_version, moves)


@transaction.atomic
def _store_bot_moves(game_id: int, expected_version: int, moves: list[tuple[int, Any]]) -> bool:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.version != expected_version or game.status != Game.Status.ACTIVE:
        return False  # moved meanwhile (a person, another process, a seat changed hands)
    members = memberships(game)
    before = state = load_state(game)  # the state the bots decided on: same version
    served = turns.served_seats(members)
    for seat, action in moves:
        state = record(game, state, seat, action, auto=True, served=served)
    after_change(game, before, state, mover_seat=moves[0][0], members=members, moves=moves)
    return True
