"""The table service (games.services.table and its parts): the action log, snapshots, seats
from memberships, bots, notifications."""

from __future__ import annotations

import random

import pytest

from games import registry
from games.kinds.hundred_and_ten import engine
from games.live import realtime
from games.models import Game, GameAction, Invitation, Membership, Snapshot
from games.services import lobby, seats, states, table
from games.services import rematch as rematches
from games.services.errors import NotAPlayer, RefusedMove, StaleTable
from tests.games.conftest import active_seat, bid_choice, choice_of, seat_game, start_table


def replay_log(game):
    initial = engine.state_from_json(Snapshot.objects.get(game=game, seq=0).state)
    moves = [engine.move_from_json(a.move) for a in GameAction.objects.filter(game=game)]
    return engine.replay(initial, moves)


def user_at(game, seat):
    return Membership.objects.get(game=game, seat=seat).user


@pytest.fixture
def pushes(monkeypatch):
    sent: list[tuple[object, ...]] = []
    monkeypatch.setattr(realtime, "game_changed", lambda gid, v, **_: sent.append(("game", gid, v)))

    def lobby(uids, banner_for=None, turn_users=(), game_id=None):
        banners = None if banner_for is None else tuple(sorted(banner_for))
        sent.append(("lobby", tuple(sorted(uids))))
        sent.append(("banners", banners))
        for user_id in sorted(turn_users):
            sent.append(("turn", user_id, game_id))

    monkeypatch.setattr(realtime, "lobby_changed", lobby)
    return sent


def submit_at_version(game, user, choice):
    """`user` submits `choice` at the version the game row was last read at."""
    return table.submit_move(game_id=game.pk, user=user, choice=choice, seen_version=game.version)


def test_begin_stores_the_deal_as_snapshot_zero_and_the_active_seat(alice, bob):
    game = start_table([alice, bob])
    snapshot = Snapshot.objects.get(game=game)
    assert snapshot.seq == 0
    state = engine.state_from_json(snapshot.state)
    assert state == engine.new_game(game.seed, 2)
    assert game.status == Game.Status.ACTIVE
    assert game.started_at is not None
    assert active_seat(game) == state.active_seat == 1  # left of the dealer (seat 0)
    assert not GameAction.objects.filter(game=game).exists()


def test_begin_twice_is_refused(alice, bob):
    game = start_table([alice, bob])
    with pytest.raises(RefusedMove):
        table.begin(game)
    assert Snapshot.objects.filter(game=game).count() == 1


def test_a_move_appends_one_action_and_bumps_the_version(alice, bob):
    game = start_table([alice, bob])
    submit_at_version(game, bob, bid_choice(15))
    game.refresh_from_db()
    action = GameAction.objects.get(game=game)
    assert (action.seq, action.seat, action.auto) == (1, 1, False)
    assert action.move == {"type": "bid", "seat": 1, "amount": 15}
    assert game.version == 1
    assert active_seat(game) == 0


def test_the_seat_comes_from_the_membership_not_the_request(alice, bob):
    game = start_table([alice, bob])  # bob (seat 1) is to bid
    with pytest.raises(RefusedMove, match="not your turn|out of order|turn"):
        table.submit_move(game_id=game.pk, user=alice, choice=bid_choice(15), seen_version=0)
    assert not GameAction.objects.filter(game=game).exists()


def test_a_stale_version_is_refused_and_changes_nothing(alice, bob):
    game = start_table([alice, bob])
    table.submit_move(game_id=game.pk, user=bob, choice=bid_choice(15), seen_version=0)
    with pytest.raises(StaleTable, match="The table changed; here is the current one."):
        table.submit_move(game_id=game.pk, user=alice, choice=bid_choice(20), seen_version=0)
    game.refresh_from_db()
    assert game.version == 1
    assert GameAction.objects.filter(game=game).count() == 1


def test_an_illegal_move_is_refused_with_the_engine_message_and_changes_nothing(alice, bob):
    game = start_table([alice, bob])
    with pytest.raises(RefusedMove) as refused:
        table.submit_move(game_id=game.pk, user=bob, choice=bid_choice(17), seen_version=0)
    assert refused.value.message
    game.refresh_from_db()
    assert game.version == 0
    assert not GameAction.objects.exists()


def test_outsiders_and_invitees_cannot_move(alice, bob, carol, dave):
    game = start_table([alice, bob])
    Membership.objects.create(game=game, user=carol, role="invitee")
    for user in (carol, dave):
        with pytest.raises(NotAPlayer):
            table.submit_move(game_id=game.pk, user=user, choice=bid_choice(15), seen_version=0)
    assert not GameAction.objects.exists()


def test_bots_play_until_a_human_is_to_act_and_are_logged_as_auto(
    alice, pushes, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_table([alice], bots=3)
    game.refresh_from_db()
    state = states.load_state(game)
    # Seat 0 deals; the three bots bid first, then it is alice's turn (or the round moved on).
    assert state.active_seat == 0
    auto = GameAction.objects.filter(game=game)
    assert auto.count() >= 3
    assert all(a.auto for a in auto)
    assert game.version == auto.count()
    # The tables are told the version after the bots' moves, not an intermediate one.
    announced = [push[2] for push in pushes if push[0] == "game"]
    assert announced and max(announced) == game.version


def test_notifications_go_out_after_commit(alice, bob, pushes, django_capture_on_commit_callbacks):
    game = start_table([alice, bob])
    pushes.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        table.submit_move(game_id=game.pk, user=bob, choice=bid_choice(15), seen_version=0)
    assert pushes == []  # nothing before commit
    for callback in callbacks:
        callback()
    assert ("game", game.pk, 1) in pushes  # with the version the move committed
    assert ("turn", alice.pk, game.pk) in pushes
    assert ("lobby", tuple(sorted([alice.pk, bob.pk]))) in pushes
    # Every member's lists change ("Alice to play"); only the banners of bob (whose turn
    # ended) and alice (whose turn began) do.
    assert ("banners", tuple(sorted([alice.pk, bob.pk]))) in pushes


def test_only_the_players_whose_turn_ends_or_begins_get_their_banner_redrawn(
    alice, bob, carol, pushes, django_capture_on_commit_callbacks
):
    game = start_table([alice, bob, carol])  # alice deals; bob bids first, then carol
    pushes.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table.submit_move(game_id=game.pk, user=bob, choice=bid_choice(15), seen_version=0)
    assert ("lobby", tuple(sorted([alice.pk, bob.pk, carol.pk]))) in pushes
    assert ("banners", tuple(sorted([bob.pk, carol.pk]))) in pushes


def test_a_new_round_writes_a_snapshot_so_loads_replay_at_most_one_round(alice, bob):
    game = start_table([alice, bob], seed="snapshots", target=1000)
    rng = random.Random(3)
    while Snapshot.objects.filter(game=game).count() < 4:
        game.refresh_from_db()
        state = states.load_state(game)
        seat = state.active_seat
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        game.refresh_from_db()
        submit_at_version(game, user_at(game, seat), choice_of(move))
    for snapshot in Snapshot.objects.filter(game=game, seq__gt=0):
        state = engine.state_from_json(snapshot.state)
        before = replay_log_until(game, snapshot.seq - 1)
        assert state.round_index == before.round_index + 1
        assert state == replay_log_until(game, snapshot.seq)
    game.refresh_from_db()
    assert states.load_state(game) == replay_log(game)


def replay_log_until(game, seq):
    initial = engine.state_from_json(Snapshot.objects.get(game=game, seq=0).state)
    moves = [
        engine.move_from_json(a.move) for a in GameAction.objects.filter(game=game, seq__lte=seq)
    ]
    return engine.replay(initial, moves)


def test_automate_hands_the_seat_to_the_bot_which_plays_on(alice, bob):
    game = start_table([alice, bob])  # bob to bid
    seats.automate(game_id=game.pk, user=bob)
    bob_seat = Membership.objects.get(game=game, user=bob)
    assert bob_seat.automated
    assert GameAction.objects.filter(game=game, seat=1, auto=True).exists()
    game.refresh_from_db()
    with pytest.raises(RefusedMove, match="bot plays your seat"):
        submit_at_version(game, bob, bid_choice(0))


def test_a_full_game_with_humans_and_bots_reaches_the_winner_of_an_engine_replay(alice, bob):
    game = start_table([alice, bob], bots=2, seed="full-game", target=60)
    rng = random.Random(11)
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        game.refresh_from_db()
        state = states.load_state(game)
        seat = state.active_seat
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        submit_at_version(game, user_at(game, seat), choice_of(move))
    final = replay_log(game)
    assert final.status == engine.Status.WON
    assert game.winners[0] == final.winner
    assert game.finished_at is not None
    assert active_seat(game) is None
    assert GameAction.objects.filter(game=game, auto=True).exists()
    assert GameAction.objects.filter(game=game, auto=False).exists()
    with pytest.raises(RefusedMove, match="over"):
        submit_at_version(game, alice, bid_choice(0))


def finished(game):
    """Mark `game` over (a rematch only asks whether it is)."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    return game


def seats_of(game):
    # Seatless invitees first (databases order NULLs differently), then by seat.
    members = game.memberships.order_by("pk")
    rows = [(m.seat, m.user_id, m.bot, m.role) for m in members]
    return sorted(rows, key=lambda row: (row[0] is not None, row[0] or 0))


def test_rematch_invites_the_other_players_and_starts_when_they_accept(alice, bob):
    game = start_table([alice, bob], bots=1, seed="rematch", target=30)
    rng = random.Random(5)
    while game.status != Game.Status.FINISHED:
        game.refresh_from_db()
        state = states.load_state(game)
        move = rng.choice(engine.perspective_of(state, state.active_seat).legal_moves)
        submit_at_version(game, user_at(game, state.active_seat), choice_of(move))
        game.refresh_from_db()
    Membership.objects.filter(game=game, user=alice).update(automated=True)
    new = rematches.rematch(game_id=game.pk, user=bob)
    assert new.rematch_of == game
    assert new.status == Game.Status.WAITING
    # The asker sits where they sat, the bot is back at once, alice (automated) is invited.
    assert seats_of(new) == [
        (None, alice.pk, "", "invitee"),
        (1, bob.pk, "", "organizer"),
        (2, None, "naive", "player"),
    ]
    invitation = Invitation.objects.get(game=new)
    assert (invitation.invitee, invitation.inviter, invitation.state) == (alice, bob, "pending")
    assert rematches.rematch(game_id=game.pk, user=alice) == new  # one rematch per game
    lobby.accept(game_id=new.pk, user=alice)  # everybody has answered: it starts
    new.refresh_from_db()
    assert new.status == Game.Status.ACTIVE
    assert [(m.seat, m.user_id, m.role, m.automated) for m in new.memberships.all()] == [
        (0, alice.pk, "player", False),
        (1, bob.pk, "organizer", False),
        (2, None, "player", False),
    ]
    assert states.load_state(new).target == 30


def test_a_rematch_waits_for_every_answer_and_a_bot_takes_a_declined_seat(
    alice, bob, carol, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr(realtime, "invitation_received", lambda uid, iid: sent.append(uid))
    monkeypatch.setattr(realtime, "game_started", lambda gid: sent.append(("started", gid)))
    game = finished(start_table([alice, bob, carol], seed="rematch-three"))
    with django_capture_on_commit_callbacks(execute=True):
        new = rematches.rematch(game_id=game.pk, user=bob)
    assert sorted(sent) == sorted([alice.pk, carol.pk])  # each invitee is told at once
    lobby.accept(game_id=new.pk, user=carol)
    new.refresh_from_db()
    assert new.status == Game.Status.WAITING  # alice has not answered yet
    assert Membership.objects.get(game=new, user=carol).seat == 2  # her old seat
    with django_capture_on_commit_callbacks(execute=True):
        lobby.decline(game_id=new.pk, user=alice)
    new.refresh_from_db()
    assert new.status == Game.Status.ACTIVE
    assert ("started", new.pk) in sent
    stand_in = Membership.objects.get(game=new, seat=0)
    assert stand_in.is_bot and stand_in.bot_name.startswith("Bot ")
    assert stand_in.bot == registry.kind(new.kind).seat_bot
    assert stand_in.cover_note == "Alice declined the rematch"
    assert not Membership.objects.filter(game=new, user=alice).exists()
    assert Invitation.objects.get(game=new, invitee=alice).state == "declined"


def test_a_rematch_against_bots_only_starts_at_once(alice):
    game = finished(start_table([alice], bots=2, seed="rematch-bots"))
    new = rematches.rematch(game_id=game.pk, user=alice)
    assert new.status == Game.Status.ACTIVE
    assert seats_of(new) == [
        (0, alice.pk, "", "organizer"),
        (1, None, "naive", "player"),
        (2, None, "naive", "player"),
    ]
    assert not Invitation.objects.filter(game=new).exists()


def test_rematch_before_the_end_is_refused(alice, bob):
    game = start_table([alice, bob])
    with pytest.raises(RefusedMove):
        rematches.rematch(game_id=game.pk, user=alice)
    assert Game.objects.count() == 1


def test_unstarted_games_cannot_be_played(alice, bob):
    game = seat_game([alice, bob])
    with pytest.raises(RefusedMove):
        table.submit_move(game_id=game.pk, user=bob, choice=bid_choice(15), seen_version=0)
