"""Two tabs submitting at once: exactly one move is applied, the other gets "the table changed".

Each thread has its own database connection (Django connections are per thread), and the
test database is really committed to (`transaction=True`). Runs on SQLite by default (where
`transaction_mode=IMMEDIATE` serialises writers) and on PostgreSQL when DATABASE_URL is set
(where `select_for_update` locks the game row).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.urls import reverse

from games.kinds.hundred_and_ten import engine
from games.models import GameAction
from games.services import errors, states, table
from tests.conftest import logged_in_client
from tests.games.conftest import active_seat, choice_of, start_table

STALE = "The table changed; here is the current one."


def race(*calls):
    """Run each call on its own thread, started together; return their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # reported to the test below
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.fixture
def slow_loads(monkeypatch):
    """Widen the window between reading and writing, so the two requests really overlap."""
    load = states.load_state

    def slow(game):
        time.sleep(0.05)
        return load(game)

    monkeypatch.setattr(table, "load_state", slow)


@pytest.mark.django_db(transaction=True)
def test_two_tabs_posting_at_once_apply_exactly_one_move(alice, bob, slow_loads):
    game = start_table([alice, bob], seed="race")  # bob bids first
    url = reverse("move", kwargs={"game_id": game.pk})
    tab_one, tab_two = logged_in_client(bob), logged_in_client(bob)
    hx = {"HX-Request": "true"}

    results = race(
        lambda: tab_one.post(url, {"kind": "bid", "amount": 15, "version": 0}, headers=hx),
        lambda: tab_two.post(url, {"kind": "bid", "amount": 20, "version": 0}, headers=hx),
    )

    assert not any(isinstance(r, Exception) for r in results), results
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409]
    stale = next(r for r in results if r.status_code == 409).content.decode()
    assert STALE in stale and 'data-version="1"' in stale
    assert GameAction.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.django_db(transaction=True)
def test_racing_moves_never_break_the_log(alice, bob, slow_loads):
    """Many rounds of two simultaneous submits: one wins each time, seqs stay 1, 2, 3, ..."""
    game = start_table([alice, bob], seed="race-many", target=1000)
    for _ in range(6):
        game.refresh_from_db()
        version = game.version
        active = bob if active_seat(game) == 1 else alice
        state = states.load_state(game)
        moves = engine.legal_moves(state, active_seat(game))
        first, second = moves[0], moves[-1]
        results = race(
            lambda m=first, u=active, v=version: table.submit_move(
                game_id=game.pk, user=u, choice=choice_of(m), seen_version=v
            ),
            lambda m=second, u=active, v=version: table.submit_move(
                game_id=game.pk, user=u, choice=choice_of(m), seen_version=v
            ),
        )
        stale = [r for r in results if isinstance(r, errors.StaleTable)]
        applied = [r for r in results if not isinstance(r, Exception)]
        assert len(stale) == 1 and len(applied) == 1, results
    seqs = list(GameAction.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
