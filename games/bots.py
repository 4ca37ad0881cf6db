"""Server-side play for bot seats and automated human seats.

After a commit that leaves a self-playing seat to act, `schedule(game_id)` starts a timer of
`settings.BOT_DELAY_SECONDS` (a visible pause between bot moves) on a background thread, so
no request and no other game waits for it. The timer makes one move in its own transaction
(`services.bot_moves.play_bot_move`, which checks the version so duplicate timers are harmless)
and that commit schedules the next one while bots keep the turn.

Timers live in memory and die with the process: loading the table or connecting to its
websocket calls `ensure_running(game)`, which restarts play after a server restart.
With `BOT_DELAY_SECONDS = 0` (tests) there are no timers: bots play inside the mover's
transaction, deterministically (`services.table.play_bots_now`, or `run_until_human`).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import Q

from games.models import Game, Membership
from games.services import bot_moves

log = logging.getLogger(__name__)

_lock = threading.Lock()
_timers: dict[int, threading.Timer] = {}


def is_scheduled(game_id: int) -> bool:
    with _lock:
        timer = _timers.get(game_id)
        return timer is not None and timer.is_alive()


def cancel_all() -> None:
    """Stop every pending timer of this process (tests; a clean shutdown)."""
    with _lock:
        timers = list(_timers.values())
        _timers.clear()
    for timer in timers:
        timer.cancel()


def _bot_to_act(game: Game) -> bool:
    """Whether the game waits for a seat whose moves the server chooses (a bot's, or a
    human's handed to the bot)."""
    if game.status != Game.Status.ACTIVE:
        return False
    awaited = Membership.objects.filter(game=game, must_act=True)
    return awaited.filter(~Q(bot="") | Q(automated=True)).exists()


def schedule(game_id: int) -> None:
    """Play the next bot move of `game_id` after the pause, unless one is already pending.

    Call after commit. Reads the game's current version now, so the timer acts only if
    nothing has changed when it fires.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not _bot_to_act(game):
        return
    version = game.version
    with _lock:
        pending = _timers.get(game_id)
        if pending is not None and pending.is_alive():
            return
        timer = threading.Timer(
            max(float(settings.BOT_DELAY_SECONDS), 0.0), _fire, args=(game_id, version)
        )
        timer.daemon = True
        _timers[game_id] = timer
    timer.start()


def on_bot_turn(sender: Any, *, game_id: int, **_: Any) -> None:
    """A commit left a bot to act (`games.signals.bot_turn`): play it after the pause."""
    schedule(game_id)


def _fire(game_id: int, version: int) -> None:
    with _lock:
        if _timers.get(game_id) is threading.current_thread():
            del _timers[game_id]
    close_old_connections()
    try:
        # On commit this schedules the next bot move (services.table.after_change).
        if not bot_moves.play_bot_move(game_id, version):
            # Overtaken: another move committed since this timer was set (a connect healing
            # the turn while a timer's move was committing). That commit found this timer
            # pending and set none; so set the next one now, if a bot is to act.
            schedule(game_id)
    except Exception:  # a timer thread has nobody to report to: log, heal on next load
        log.exception("bot move in game %s failed", game_id)
    finally:
        connection.close()


def run_until_human(game_id: int) -> int:
    """Play every pending bot move of `game_id` now, without pauses; returns how many."""
    return bot_moves.advance_bots(game_id)


def ensure_running(game: Game) -> bool:
    """Heal a game whose bot turn has no timer (e.g. after a restart). Cheap when idle.

    Returns True if bot moves were made right now (synchronous mode).
    """
    if not _bot_to_act(game):
        return False
    if float(settings.BOT_DELAY_SECONDS) <= 0:
        return run_until_human(game.pk) > 0
    if not is_scheduled(game.pk):
        schedule(game.pk)
    return False
