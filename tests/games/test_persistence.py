"""Nothing lives only in memory: restarts lose nothing, loads replay at most one round, and
bot moves are rows the deadline sweep makes when they fall due (claimed once, decided with
no lock held, stored only if the game has not moved; never made by a page load)."""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games import signals
from games.clocks import deadlines
from games.kinds.hundred_and_ten import engine
from games.models import Game, GameAction, Membership, Snapshot
from games.presenters import basis
from games.services import bot_moves, states, table
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
        state = states.load_state(game)
        if state.status == engine.Status.TRICKS and 0 < len(state.current_trick) < 4:
            break
        submit(game, state, human_move(state, rng))
    before_restart = state

    # The "restart": no cache, no objects from before; only the database.
    cache.clear()
    states.clear_state_cache()
    basis.clear_table_cache()
    del game, state
    game = Game.objects.get(name="Table", seed=seed)
    reloaded = states.load_state(game)
    assert reloaded == before_restart
    while (state := states.load_state(game)).status != engine.Status.WON:
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
        state = states.load_state(game)
        latest = Snapshot.objects.filter(game=game).order_by("-seq").first()
        assert latest is not None
        assert engine.state_from_json(latest.state).round_index == state.round_index
        submit(game, state, human_move(state, rng))
    rounds = states.load_state(game).round_index + 1
    assert Snapshot.objects.filter(game=game).count() == rounds
    assert rounds > 10  # a long game: the loads above really skipped earlier rounds


def test_a_bot_move_for_an_old_version_does_nothing(alice):
    game = start_table([alice], bots=1, seed="versions")
    game.refresh_from_db()
    actions = GameAction.objects.count()
    assert bot_moves.play_bot_move(game.pk, game.version - 1) is False
    assert bot_moves.play_bot_move(game.pk, game.version) is False  # a human's turn
    assert GameAction.objects.count() == actions


def bot_deadlines(game):
    """The deadlines of the seats the server plays that the game waits for."""
    awaited = Membership.objects.filter(game=game, must_act=True).exclude(bot="")
    return list(awaited.values_list("deadline", flat=True))


def test_a_bot_move_falls_due_after_the_pause_and_the_sweep_makes_it(alice, settings):
    settings.BOT_DELAY_SECONDS = 0.8
    started = timezone.now()
    game = start_table([alice], bots=3, seed="due")  # bots bid first, alice deals
    assert not GameAction.objects.filter(game=game).exists()  # nobody moved in the request
    [due] = bot_deadlines(game)
    assert started + timedelta(seconds=0.8) <= due <= timezone.now() + timedelta(seconds=0.8)
    assert deadlines.tick(due - timedelta(milliseconds=1)) == 0  # not yet
    assert deadlines.tick(due) == 1
    while bot_deadlines(game):  # each move leaves the next bot its own pause
        [due] = bot_deadlines(game)
        assert deadlines.tick(due) == 1
    game.refresh_from_db()
    assert active_seat(game) == 0
    actions = GameAction.objects.filter(game=game)
    assert actions.count() == 3 and all(action.auto for action in actions)
    assert game.version == 3


def due_move(game):
    """The membership of the one seat to act, a bot's, and when its move falls due."""
    member = Membership.objects.get(game=game, must_act=True)
    assert member.deadline is not None
    return member, member.deadline


def test_a_claimed_move_is_made_once(alice, settings):
    """Two sweeps (two processes) that both find a bot's move due: the first claims it."""
    settings.BOT_DELAY_SECONDS = 0.8
    game = start_table([alice], bots=3, seed="claimed")
    member, due = due_move(game)
    assert bot_moves.play_due(member.pk, due, due) == 1
    assert bot_moves.play_due(member.pk, due, due) == 0  # the second found it claimed
    assert GameAction.objects.filter(game=game).count() == 1


def test_a_move_whose_sweep_died_is_made_when_its_claim_ends(alice, settings):
    settings.BOT_DELAY_SECONDS = 0.8
    game = start_table([alice], bots=3, seed="died")
    member, now = due_move(game)
    claim = now + timedelta(seconds=bot_moves.CLAIM_SECONDS)
    Membership.objects.filter(pk=member.pk).update(deadline=claim)  # claimed, then the crash
    assert deadlines.tick(now + timedelta(seconds=1)) == 0
    assert deadlines.tick(claim) == 1
    assert GameAction.objects.filter(game=game, auto=True).count() == 1


def test_a_move_overtaken_while_its_bot_thinks_is_due_again_at_once(alice, settings, monkeypatch):
    settings.BOT_DELAY_SECONDS = 0.8
    game = start_table([alice], bots=3, seed="overtaken")
    member, now = due_move(game)
    decide = bot_moves.play_bot_move

    def overtaken(game_id, version, **read):  # a seat changed hands while the bot thought
        Game.objects.filter(pk=game_id).update(version=version + 1)
        return decide(game_id, version, **read)

    monkeypatch.setattr(bot_moves, "play_bot_move", overtaken)
    assert deadlines.tick(now) == 0
    assert Membership.objects.get(pk=member.pk).deadline == now  # due again, not claimed
    monkeypatch.setattr(bot_moves, "play_bot_move", decide)
    assert deadlines.tick(now) == 1


def test_loading_the_table_makes_no_move_the_sweep_does(alice, settings):
    """A read has no side effect: bots whose move is due wait for the sweep, which after a
    restart also gives a stalled bot seat (a game from before deadlines) a deadline."""
    settings.BOT_DELAY_SECONDS = 0.8
    game = start_table([alice], bots=3, seed="read")
    Membership.objects.filter(game=game).update(deadline=None)  # from before deadlines
    response = logged_in_client(alice).get(reverse("table", kwargs={"game_id": game.pk}))
    assert response.status_code == 200
    assert not GameAction.objects.filter(game=game).exists()
    assert deadlines.resume() == 1
    while bot_deadlines(game):
        [due] = bot_deadlines(game)
        deadlines.tick(due)
    assert active_seat(Game.objects.get(pk=game.pk)) == 0
    assert GameAction.objects.filter(game=game, auto=True).count() == 3


@pytest.mark.django_db
def test_a_read_started_before_a_move_commits_shows_the_state_of_its_version(alice, bob):
    """The game row is read first; a move committed after that must not appear under the
    old version number (the page would otherwise show new cards with a stale version)."""
    from games.models import Game
    from games.presenters.context import table_context
    from games.services import states
    from games.services import table as service
    from tests.games.conftest import start_table

    game = start_table([alice, bob])
    read_early = Game.objects.get(pk=game.pk)
    state_then = states.load_state(read_early)
    service.submit_move(game_id=game.pk, user=bob, choice=bid_choice(15), seen_version=game.version)
    assert states.load_state(read_early) == state_then
    assert table_context(read_early, alice)["version"] == read_early.version
    fresh = Game.objects.get(pk=game.pk)
    assert states.load_state(fresh) != state_then
    assert fresh.action_count == read_early.action_count + 1


def test_a_commit_that_leaves_a_bot_to_move_wakes_the_sweep(monkeypatch, settings):
    """The sweeper looks once a minute here, yet looks again as soon as a bot's move falls
    due after a commit that leaves one to move (`signals.table_committed`), and not before."""
    settings.BOT_DELAY_SECONDS = 0.3
    looks: list[float] = []
    looked = threading.Event()

    def tick(play=None, analyse=None):
        looks.append(time.monotonic())
        looked.set()
        return 0

    monkeypatch.setattr(deadlines, "tick", tick)
    monkeypatch.setattr(deadlines, "resume", lambda: 0)
    sweeper = deadlines.Sweeper(every=60)
    monkeypatch.setattr(deadlines, "_sweeper", sweeper)
    sweeper.start()
    try:
        assert looked.wait(30)  # the first look, at start-up
        looked.clear()
        woken = time.monotonic()
        change = signals.TableChange(
            game=Game(pk=1),
            members=(),
            member_ids=[],
            fresh=[],
            ended=False,
            turn_changed=True,
            banner_for=[],
            moves=None,
            bots_to_move=True,
        )
        signals.table_committed.send(sender=Game, change=change)
        assert looked.wait(30)
        assert looks[-1] - woken >= 0.3  # the move's pause first
    finally:
        sweeper.stop()
    assert len(looks) == 2


def test_a_bot_that_thinks_holds_up_no_other_table(alice, bob, settings, monkeypatch):
    """The sweeper hands each due bot move to a thread of its own: while one bot thinks,
    another table's bot moves, and the thinking one's table is not handed over again."""
    settings.BOT_DELAY_SECONDS = 0.8
    slow, _ = due_move(start_table([alice], bots=3, seed="slow"))
    quick, _ = due_move(start_table([bob], bots=3, seed="quick"))
    release, quick_moved = threading.Event(), threading.Event()
    handed: list[int] = []

    def play_due(membership_id, deadline, now):
        handed.append(membership_id)
        if membership_id == slow.pk:
            release.wait(30)  # a long search
        else:
            quick_moved.set()

    monkeypatch.setattr(bot_moves, "play_due", play_due)
    sweeper = deadlines.Sweeper(every=60)  # its thread not started: the test looks
    later = timezone.now() + timedelta(seconds=5)
    try:
        deadlines.tick(later, play=sweeper.play)
        assert quick_moved.wait(30)
        deadlines.tick(later, play=sweeper.play)  # the slow bot still thinks
        assert handed.count(slow.pk) == 1
    finally:
        release.set()
        sweeper.stop()
