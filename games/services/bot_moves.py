"""The bot runner's moves (games/bots.py): a bot's turn when its timer fires, and every
pending bot move at once.

Built on the table service (`games.services.table`): the same recording, the same
announcements after commit. A bot decides with no lock held; its move is stored only if the
game is still at the version the runner saw.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Game
from games.services.table import (
    after_change,
    bot_action,
    bot_seats,
    kind_of,
    load_state,
    memberships,
    play_bots_now,
    record,
    seated,
)


def play_bot_move(game_id: int, expected_version: int) -> bool:
    """The next bot move(s), if the game is still where the scheduler saw it; True if any.

    In a simultaneous phase every bot that must choose chooses now (one action each); in a
    sequential one, one bot moves. The bots decide first, with no lock held (a search takes
    tens of milliseconds, and on SQLite a write lock would stop every other move meanwhile);
    then, in one transaction with the game row locked, the moves are stored if the game is
    still at `expected_version`. Checking the version makes duplicate schedules (two
    processes, a healed timer) harmless.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != expected_version or game.status != Game.Status.ACTIVE:
        return False
    state = load_state(game)
    by_seat = seated(game)
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
    for seat, action in moves:
        state = record(game, state, seat, action, auto=True)
    after_change(game, before, state, mover_seat=moves[0][0], members=members, moves=moves)
    return True


@transaction.atomic
def advance_bots(game_id: int) -> int:
    """Every pending bot move of the game at once (no pauses); returns how many were made."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return 0
    before = load_state(game)
    start = game.version
    members = memberships(game)
    by_seat = seated(game, members)
    seats = bot_seats(game, before, by_seat)
    after, moves = play_bots_now(game, before, by_seat)
    if game.version != start:
        after_change(game, before, after, mover_seat=seats[0], members=members, moves=moves)
    return game.version - start
