"""Nothing lives only in memory: restarts lose nothing, loads replay at most one round, and
bot play resumes by itself (timers after commit, healed on load)."""

from __future__ import annotations

import random
import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import basis, bots
from games.kinds.hundred_and_ten import engine
from games.models import Game, GameAction, Membership, Snapshot
from games.services import bot_moves, table
from tests.conftest import logged_in_client
from tests.games.conftest import active_seat, bid_choice, choice_of, start_table


def human_move(state, rng):
    return rng.choice(engine.perspective_of(state, state.active_seat).legal_moves)


def play_in_engine(seed, players, humans, target, rng):
    """The same game without any database: humans choose with `rng`, bots suggest."""
    state = engine.new_game(seed, players, target)
    while state.status != engine.Status.WON:
        seat = state.active_seat
        move = human_move(state, rng) if seat in humans else engine.suggestion(state)
        state = engine.apply(state, move)
    return state


def submit(game, state, move):
    user = Membership.objects.get(game=game, seat=state.active_seat).user
    assert user is not None  # a person's seat, not a bot's
    game.refresh_from_db()
    table.submit_move(game_id=game.pk, user=user, choice=choice_of(move), seen_version=game.version)
    game.refresh_from_db()  # loads read the log up to the game row's action count


def test_a_restart_mid_trick_loses_nothing(alice, bob):
    seed, target = "restart", 60
    game = start_table([alice, bob], bots=2, seed=seed, target=target)
    rng = random.Random(21)
    # Play until a trick is half played.
    while True:
        state = table.load_state(game)
        if state.status == engine.Status.TRICKS and 0 < len(state.current_trick) < 4:
            break
        submit(game, state, human_move(state, rng))
    before_restart = state

    # The "restart": no timers, no cache, no objects from before; only the database.
    bots.cancel_all()
    cache.clear()
    table.clear_state_cache()
    basis.clear_table_cache()
    del game, state
    game = Game.objects.get(name="Table", seed=seed)
    reloaded = table.load_state(game)
    assert reloaded == before_restart
    while (state := table.load_state(game)).status != engine.Status.WON:
        submit(game, state, human_move(state, rng))
    game.refresh_from_db()

    uninterrupted = play_in_engine(seed, 4, {0, 1}, target, random.Random(21))
    assert state == uninterrupted
    assert game.winners[0] == uninterrupted.winner
    assert game.status == Game.Status.FINISHED


def test_loads_start_from_the_snapshot_of_the_current_round(alice, bob):
    game = start_table([alice, bob], seed="long", target=1000)
    rng = random.Random(8)
    for _ in range(400):
        state = table.load_state(game)
        latest = Snapshot.objects.filter(game=game).order_by("-seq").first()
        assert latest is not None
        assert engine.state_from_json(latest.state).round_index == state.round_index
        submit(game, state, human_move(state, rng))
    rounds = table.load_state(game).round_index + 1
    assert Snapshot.objects.filter(game=game).count() == rounds
    assert rounds > 10  # a long game: the loads above really skipped earlier rounds


def test_a_bot_move_for_an_old_version_does_nothing(alice):
    game = start_table([alice], bots=1, seed="versions")
    game.refresh_from_db()
    actions = GameAction.objects.count()
    assert bot_moves.play_bot_move(game.pk, game.version - 1) is False
    assert bot_moves.play_bot_move(game.pk, game.version) is False  # a human's turn
    assert GameAction.objects.count() == actions


def wait_for(condition, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.django_db(transaction=True)
def test_bots_play_on_background_timers_until_a_human_is_to_act(alice, settings):
    settings.BOT_DELAY_SECONDS = 0.01
    game = start_table([alice], bots=3, seed="timers")  # bots bid first, alice deals
    try:
        assert wait_for(lambda: active_seat(Game.objects.get(pk=game.pk)) == 0)
        assert wait_for(lambda: not bots.is_scheduled(game.pk))
    finally:
        bots.cancel_all()
    actions = GameAction.objects.filter(game=game)
    assert actions.count() >= 3 and all(a.auto for a in actions)
    assert Game.objects.get(pk=game.pk).version == actions.count()


@pytest.mark.django_db(transaction=True)
def test_a_timer_overtaken_by_another_bot_move_still_hands_play_on(alice, settings):
    """A socket's connect can heal a bot turn while a timer's move is being committed: the
    older timer then finds the game moved on. Play must go on all the same."""
    settings.BOT_DELAY_SECONDS = 1.0
    game = start_table([alice], bots=3, seed="overtaken")  # a timer for version 0 waits
    try:
        assert bots.is_scheduled(game.pk)
        settings.BOT_DELAY_SECONDS = 0.01
        assert bot_moves.play_bot_move(game.pk, 0)  # another thread's move commits version 1
        assert wait_for(lambda: active_seat(Game.objects.get(pk=game.pk)) == 0)
        assert wait_for(lambda: not bots.is_scheduled(game.pk))
    finally:
        bots.cancel_all()
    assert GameAction.objects.filter(game=game, auto=True).count() >= 3


@pytest.mark.django_db(transaction=True)
def test_loading_the_table_resumes_bot_play_after_a_restart(alice, settings):
    settings.BOT_DELAY_SECONDS = 60  # the first timer would wait long: we "restart" instead
    game = start_table([alice], bots=3, seed="heal")
    assert wait_for(lambda: bots.is_scheduled(game.pk))
    bots.cancel_all()  # the process died with its timers
    assert not GameAction.objects.filter(game=game).exists()

    settings.BOT_DELAY_SECONDS = 0.01
    response = logged_in_client(alice).get(reverse("table", kwargs={"game_id": game.pk}))
    try:
        assert response.status_code == 200
        assert wait_for(lambda: active_seat(Game.objects.get(pk=game.pk)) == 0)
    finally:
        bots.cancel_all()
    assert GameAction.objects.filter(game=game, auto=True).count() >= 3


@pytest.mark.django_db
def test_a_read_started_before_a_move_commits_shows_the_state_of_its_version(alice, bob):
    """The game row is read first; a move committed after that must not appear under the
    old version number (the page would otherwise show new cards with a stale version)."""
    from games.context import table_context
    from games.models import Game
    from games.services import table as service
    from tests.games.conftest import start_table

    game = start_table([alice, bob])
    read_early = Game.objects.get(pk=game.pk)
    state_then = service.load_state(read_early)
    service.submit_move(game_id=game.pk, user=bob, choice=bid_choice(15), seen_version=game.version)
    assert service.load_state(read_early) == state_then
    assert table_context(read_early, alice)["version"] == read_early.version
    fresh = Game.objects.get(pk=game.pk)
    assert service.load_state(fresh) != state_then
    assert fresh.action_count == read_early.action_count + 1
