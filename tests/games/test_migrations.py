"""The platform migration (games 0003) on a populated database: existing games become
Hundred and Ten games with nothing lost, and the migration can be reversed. Its frozen copy
of the rules it needs scores every round as the live engine does; and every migration runs
from an empty database and back (both databases: CI's second pass runs this on PostgreSQL)."""

from __future__ import annotations

import importlib
import random
from collections import Counter
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.kinds.hundred_and_ten import engine
from games.models import Game, GameAction, Membership
from games.services import states

BEFORE = [("games", "0002_game_action_count")]
FROZEN = importlib.import_module("games.migrations.0003_game_kinds")
PLAYERS = 3


def migrate_to(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    """Every app's latest migration: a test that went back leaves the schema whole."""
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def played(seed, actions):
    """A game of the pure engine after `actions` naive moves (None: to the end)."""
    state = engine.new_game(seed, PLAYERS, 110)
    log: list[engine.Move] = []
    while state.status is not engine.Status.WON and (actions is None or len(log) < actions):
        move = engine.suggestion(state)
        log.append(move)
        state = engine.apply(state, move)
    return engine.new_game(seed, PLAYERS, 110), log, state


def populate(apps, users, *, seed, actions, status):
    """A game stored as version 0002 kept it: snapshot 0, the log, the denormalised turn."""
    OldGame = apps.get_model("games", "Game")
    OldMembership = apps.get_model("games", "Membership")
    OldAction = apps.get_model("games", "GameAction")
    OldSnapshot = apps.get_model("games", "Snapshot")
    start, log, final = played(seed, actions)
    game = OldGame.objects.create(
        name=seed,
        organizer_id=users[0].pk,
        max_players=PLAYERS,
        status=status,
        seed=seed,
        version=len(log) + 1,
        action_count=len(log),
        active_seat=final.active_seat,
        winner_seat=final.winner,
    )
    for seat, user in enumerate(users):
        OldMembership.objects.create(
            game=game, user_id=user.pk, role="organizer" if seat == 0 else "player", seat=seat
        )
    OldSnapshot.objects.create(game=game, seq=0, state=engine.state_to_json(start))
    for seq, move in enumerate(log, start=1):
        OldAction.objects.create(game=game, seq=seq, seat=move.seat, move=engine.move_to_json(move))
    return game.pk, final, len(log)


@pytest.mark.django_db(transaction=True)
def test_existing_games_become_hundred_and_ten_with_nothing_lost(alice, bob, carol):
    users = [alice, bob, carol]
    old_apps = migrate_to(BEFORE)
    running_id, running, running_moves = populate(
        old_apps, users, seed="migrate-running", actions=40, status="active"
    )
    finished_id, finished, finished_moves = populate(
        old_apps, users, seed="migrate-finished", actions=None, status="finished"
    )
    assert finished.status is engine.Status.WON

    migrate_to(latest())
    states.clear_state_cache()

    game = Game.objects.get(pk=running_id)
    assert (game.kind, game.options, game.status) == ("hundred-and-ten", {}, Game.Status.ACTIVE)
    acting = set(Membership.objects.filter(game=game, must_act=True).values_list("seat", flat=True))
    assert acting == {running.active_seat}
    assert GameAction.objects.filter(game=game).count() == running_moves
    assert states.load_state(game) == running  # the log replays to the same state
    assert Game.objects.your_turn(users[running.active_seat]).filter(pk=game.pk).exists()

    over = Game.objects.get(pk=finished_id)
    assert over.kind == "hundred-and-ten"
    assert over.outcome == {
        "scores": list(finished.scores),
        "winners": [finished.winner],
        "winning_team": None,
    }
    assert over.winners == (finished.winner,)
    assert not Membership.objects.filter(game=over, must_act=True).exists()
    assert GameAction.objects.filter(game=over).count() == finished_moves


@pytest.mark.django_db(transaction=True)
def test_the_migration_reverses_to_the_turn_and_winner_columns(alice, bob, carol):
    users = [alice, bob, carol]
    old_apps = migrate_to(BEFORE)
    running_id, running, _ = populate(
        old_apps,
        users,
        seed="reverse-running",
        actions=random.Random(1).randrange(10, 60),
        status="active",
    )
    finished_id, finished, _ = populate(
        old_apps, users, seed="reverse-finished", actions=None, status="finished"
    )
    migrate_to(latest())
    back = migrate_to(BEFORE)
    OldGame = back.get_model("games", "Game")
    assert OldGame.objects.get(pk=running_id).active_seat == running.active_seat
    assert OldGame.objects.get(pk=finished_id).winner_seat == finished.winner
    migrate_to(latest())


def test_the_frozen_rules_score_every_round_as_the_engine_does():
    """Random complete games of 2-4 players: replayed from the start and from the snapshot
    of every round (as the old table service stored them), the frozen scorer reaches the
    engine's scores. The games include failed bids, made bids, the moon and redeals."""
    outcomes: Counter[str] = Counter()
    for number in range(60):
        players = 2 + number % 3
        state = start = engine.new_game(f"frozen-{number}", players, 110)
        log: list[dict[str, Any]] = []
        starts = [(start, 0)]  # each round's first state and how many moves came before it
        rng = random.Random(number)
        while state.status is not engine.Status.WON:
            # Mostly the naive player (games end), now and then any legal move (bad bids).
            if rng.random() < 0.2:
                move = rng.choice(engine.legal_moves(state, state.active_seat or 0))
            else:
                move = engine.suggestion(state)
            after = engine.apply(state, move)
            log.append(engine.move_to_json(move))
            if after.round_index != state.round_index:
                starts.append((after, len(log)))
            state = after
        outcomes.update(record.outcome for record in state.history)
        for snapshot, done in starts:
            stored = engine.state_to_json(snapshot)["scores"]
            assert FROZEN._scores_after(stored, log[done:]) == list(state.scores), number
    assert {"made", "failed", "moon", "no_bidders"} <= set(outcomes), outcomes


@pytest.mark.django_db(transaction=True)
def test_every_migration_runs_from_an_empty_database_and_back():
    MigrationExecutor(connection).migrate([("games", None)])
    assert "games_game" not in connection.introspection.table_names()
    migrate_to(latest())
    assert {"games_game", "games_membership", "games_gameaction"} <= set(
        connection.introspection.table_names()
    )
