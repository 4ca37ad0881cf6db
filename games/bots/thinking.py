"""Where the server's bots think: a search bot's decision runs in a worker process.

The hard bot (games/kinds/search.py) spends tens of milliseconds of pure Python per
decision. Run on daphne's threads it would hold the interpreter lock that the event loop
needs to push tables, so every socket of the process would wait on it. Here such decisions
go to a small process pool (`settings.BOT_SEARCH_PROCESSES` workers, started with "spawn"
and at a lower scheduling priority, so a busy machine serves pushes first), and the caller (a
deadline sweep, a hint's request thread) waits for the answer without holding
the lock. A decision that takes longer than `settings.BOT_SEARCH_SECONDS` (an overloaded
machine) is made by the game's medium bot instead, so a table never stalls on a search.

The fixed-rule bots (easy, medium) decide in well under a millisecond and stay in the
calling thread, as does everything with no pool configured (tests, scripts: 0 workers).

The analysis of finished games (games/services/analysis.py) runs in a pool of its own: one
worker, started only when an analysis runs, niced below the bots' workers
(`ANALYSIS_NICENESS`). Its own process rather than a place in the bots' queue, so a live
bot's search never waits behind a piece of analysis: the bots' worker is ready at once, and
the scheduler gives it the core first, as it is less nice.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from django.conf import settings

from games import registry
from games.gamekind import GameKind
from games.kinds.search import SearchBot, choose_seeded, preload

log = logging.getLogger(__name__)

T = TypeVar("T")

# A worker's scheduling priority below the server's (os.nice increment).
WORKER_NICENESS = 5

# The analysis worker's, below the bots' workers: live bots' searches come first.
ANALYSIS_NICENESS = WORKER_NICENESS + 5

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_analysis_pool: ProcessPoolExecutor | None = None


def _lower_priority() -> None:
    os.nice(WORKER_NICENESS)


def _lowest_priority() -> None:
    os.nice(ANALYSIS_NICENESS)


def _pool_or_none() -> ProcessPoolExecutor | None:
    global _pool
    workers = int(settings.BOT_SEARCH_PROCESSES)
    if workers <= 0:
        return None
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_lower_priority)
        return _pool


def _discard_pool(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def _analysis_pool_or_none() -> ProcessPoolExecutor | None:
    global _analysis_pool
    if int(settings.BOT_SEARCH_PROCESSES) <= 0:
        return None
    with _lock:
        if _analysis_pool is None:
            context = multiprocessing.get_context("spawn")
            _analysis_pool = ProcessPoolExecutor(
                1, mp_context=context, initializer=_lowest_priority
            )
        return _analysis_pool


def shutdown() -> None:
    """Stop the workers (a clean exit; tests)."""
    global _pool, _analysis_pool
    with _lock:
        pools, _pool, _analysis_pool = (_pool, _analysis_pool), None, None
    for pool in pools:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def run_analysis(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`work(*args, **kwargs)` (a piece of a game's analysis, pure and picklable) in the
    analysis worker, waiting for it; in this thread when no pool is configured (tests)."""
    pool = _analysis_pool_or_none()
    if pool is None:
        return work(*args, **kwargs)
    try:
        return pool.submit(work, *args, **kwargs).result()
    except BrokenProcessPool:
        global _analysis_pool
        with _lock:
            if _analysis_pool is pool:
                _analysis_pool = None
        pool.shutdown(wait=False, cancel_futures=True)
        raise


def warm_up() -> None:
    """Start the workers now (server start-up) and have them import every game's bots, so
    the first hard move waits for no import."""
    pool = _pool_or_none()
    if pool is not None:
        searches = {
            type(bot.game).__module__
            for kind in registry.REGISTRY.values()
            for bot in kind.bots.values()
            if isinstance(bot, SearchBot)
        }
        for _ in range(int(settings.BOT_SEARCH_PROCESSES)):
            pool.submit(preload, sorted(searches))


def decide(kind: GameKind, level: str, state: Any, seat: int, seed: str) -> Any:
    """The action the bot of `level` (a key of `kind.bots`) takes for `seat` in `state`,
    its randomness seeded by `seed`: the same answer wherever it is computed."""
    bot = kind.bots[level]
    pool = _pool_or_none() if isinstance(bot, SearchBot) else None
    if pool is None:
        return choose_seeded(bot, state, seat, seed)
    try:
        future = pool.submit(choose_seeded, bot, state, seat, seed)
        return future.result(timeout=float(settings.BOT_SEARCH_SECONDS))
    except FutureTimeout:
        log.warning(
            "a %s bot's search took over %s s: the medium bot moved",
            level,
            settings.BOT_SEARCH_SECONDS,
        )
    except BrokenProcessPool:
        log.exception("the search pool broke: the medium bot moved; a new pool starts")
        _discard_pool(pool)
    return choose_seeded(kind.bots["medium"], state, seat, seed)
