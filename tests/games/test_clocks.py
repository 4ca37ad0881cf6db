"""Turn clocks and away seats: a seat's deadline is stored when its turn begins, the sweep
(games.clocks.deadlines.tick) lets the bot play when it passes, the seat stays with the bot (marked
away) until its player takes it back; each deadline is applied once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.clocks import deadlines
from games.models import Game, GameAction, Membership
from games.services import seats, table
from games.services.errors import RefusedMove
from games.services.seats import TIMED_OUT
from tests.conftest import logged_in_client
from tests.games.conftest import active_seat, bid_choice, clocked_table, seat_game

pytestmark = pytest.mark.django_db


def member_at(game, seat):
    return Membership.objects.get(game=game, seat=seat)


def test_the_seat_to_act_gets_a_deadline_the_others_none(alice, bob, carol):
    before = timezone.now()
    game = clocked_table([alice, bob, carol], seconds=60)
    seat = active_seat(game)
    deadline = member_at(game, seat).deadline
    assert before + timedelta(seconds=60) <= deadline <= timezone.now() + timedelta(seconds=60)
    others = Membership.objects.filter(game=game).exclude(seat=seat)
    assert set(others.values_list("deadline", flat=True)) == {None}


def test_no_clock_no_deadline(alice, bob):
    game = clocked_table([alice, bob], seconds=0)
    assert set(Membership.objects.filter(game=game).values_list("deadline", flat=True)) == {None}


def test_nothing_happens_before_the_deadline(alice, bob):
    game = clocked_table([alice, bob])
    assert deadlines.tick(timezone.now() + timedelta(seconds=29)) == 0
    game.refresh_from_db()
    assert game.action_count == 0


def test_a_clock_that_runs_out_lets_the_bot_play_and_keep_the_seat(alice, bob):
    game = clocked_table([alice, bob])
    seat = active_seat(game)
    assert deadlines.tick(timezone.now() + timedelta(seconds=31)) == 1
    game.refresh_from_db()
    action = GameAction.objects.get(game=game, seq=1)
    assert (action.seat, action.auto) == (seat, True)
    member = member_at(game, seat)
    assert member.automated and member.cover_note == TIMED_OUT
    assert member.deadline is None or not member.must_act
    # The next human to act has their own fresh clock.
    nxt = active_seat(game)
    if nxt != seat:
        assert member_at(game, nxt).deadline > timezone.now() + timedelta(seconds=25)


def test_each_deadline_is_applied_once(alice, bob):
    game = clocked_table([alice, bob])
    later = timezone.now() + timedelta(seconds=31)
    due = list(Membership.objects.filter(deadline__lte=later).values_list("pk", flat=True))
    assert len(due) == 1
    assert seats.expire(membership_id=due[0], now=later) is True
    assert seats.expire(membership_id=due[0], now=later) is False  # seen twice: once applied
    game.refresh_from_db()
    assert game.action_count == GameAction.objects.filter(game=game).count() == 1


def test_the_away_seat_is_shown_to_everyone(alice, bob):
    game = clocked_table([alice, bob])
    seat = active_seat(game)
    away = alice if seat == 0 else bob
    watcher = bob if away == alice else alice
    deadlines.tick(timezone.now() + timedelta(seconds=31))
    page = logged_in_client(watcher).get(reverse("table", args=[game.pk])).content.decode()
    assert TIMED_OUT in page
    mine = logged_in_client(away).get(reverse("table", args=[game.pk])).content.decode()
    assert "A bot plays your seat." in mine and 'id="reclaim-button"' in mine


def test_taking_the_seat_back_restarts_the_clock(settings, alice, bob):
    game = clocked_table([alice, bob], seconds=120)
    settings.BOT_DELAY_SECONDS = 0.8  # the bot's move waits for the sweep (none runs here)
    seat = active_seat(game)
    away = alice if seat == 0 else bob
    seats.automate(game_id=game.pk, user=away)
    member = member_at(game, seat)
    assert member.automated and member.cover_note == ""
    # Still awaited, now as a bot's move: its deadline is the bot's, seconds away.
    assert member.must_act and member.deadline < timezone.now() + timedelta(seconds=30)
    reclaimed_at = timezone.now()
    response = logged_in_client(away).post(reverse("reclaim", args=[game.pk]))
    assert response.status_code == 302
    member = member_at(game, seat)
    assert not member.automated and member.cover_note == ""
    assert member.must_act  # on their turn: two fresh minutes
    assert member.deadline >= reclaimed_at + timedelta(seconds=119)


def test_reclaim_is_refused_when_nothing_to_take_back(alice, bob, carol):
    game = clocked_table([alice, bob])
    with pytest.raises(RefusedMove):
        seats.reclaim(game_id=game.pk, user=alice)
    response = logged_in_client(carol).post(reverse("reclaim", args=[game.pk]))
    assert response.status_code == 404  # a private game: outsiders do not see it
    response = logged_in_client(alice).post(reverse("reclaim", args=[game.pk]))
    assert response.status_code == 422
    assert b"You are playing your seat already." in response.content


def test_simultaneous_choices_each_have_their_own_clock(alice, bob, carol, dave):
    game = clocked_table([alice, bob, carol, dave], kind="hearts", seconds=60)
    awaited = Membership.objects.filter(game=game, must_act=True)
    assert awaited.count() == 4
    assert all(m.deadline is not None for m in awaited)
    # Only the seats still choosing run out; each is played by its bot, once.
    assert deadlines.tick(timezone.now() + timedelta(seconds=61)) == 4
    game.refresh_from_db()
    assert Membership.objects.filter(game=game, automated=True).count() == 4
    assert game.action_count > 4  # then every seat's bot plays on
    assert deadlines.tick(timezone.now() + timedelta(seconds=61)) == 0


def test_a_bot_move_is_played_by_the_sweep_once_due(settings, alice):
    """A bot's turn falls due a pause after it began, and the sweep plays it."""
    settings.BOT_DELAY_SECONDS = 0.8  # bots wait for the sweep; in tests none runs
    game = seat_game([alice], 1)
    with transaction.atomic():
        table.begin(game)
    game.refresh_from_db()
    if member_at(game, 0).must_act:  # the human bids first: pass, so the bot's turn comes
        table.submit_move(
            game_id=game.pk, user=alice, choice=bid_choice(0), seen_version=game.version
        )
        game.refresh_from_db()
    bot = Membership.objects.get(game=game, bot="naive")
    assert bot.must_act and bot.deadline is not None
    assert deadlines.tick(timezone.now()) == 0  # not due yet: the pause lets people follow
    assert deadlines.tick(timezone.now() + timedelta(seconds=10)) >= 1
    game.refresh_from_db()
    assert game.action_count >= 1
    assert GameAction.objects.filter(game=game, seat=bot.seat or 0, auto=True).exists()


def test_resume_gives_stalled_bot_turns_a_deadline(settings, alice):
    settings.BOT_DELAY_SECONDS = 0.8
    game = seat_game([alice], 1)
    with transaction.atomic():
        table.begin(game)
    Membership.objects.filter(game=game).update(deadline=None)  # a game from before clocks
    stalled = Membership.objects.filter(game=game, must_act=True, bot="naive").count()
    assert deadlines.resume() == stalled


def test_a_finished_or_stray_deadline_does_nothing(alice, bob):
    game = clocked_table([alice, bob])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED)
    assert deadlines.tick(timezone.now() + timedelta(seconds=31)) == 0
    assert not Membership.objects.filter(game=game, deadline__isnull=False).exists()
    game.refresh_from_db()
    assert game.action_count == 0


def test_the_table_shows_the_clock_of_the_seat_to_act(alice, bob):
    game = clocked_table([alice, bob])
    seat = active_seat(game)
    page = logged_in_client(alice).get(reverse("table", args=[game.pk])).content.decode()
    deadline = member_at(game, seat).deadline
    assert f'data-deadline="{int(deadline.timestamp() * 1000)}"' in page
    assert page.count('class="clock"') == 1
    assert "Clock: 30 s per move" in page


def test_the_new_game_form_sets_the_pace(alice):
    client = logged_in_client(alice)

    def new_game(name, pace):
        fields = {"kind": "hundred-and-ten", "visibility": "private", "max_players": 2}
        return client.post(reverse("new-game"), {"name": name, **fields, "pace": pace})

    response = new_game("Quick", 60)
    assert response.status_code == 302
    assert Game.objects.get(name="Quick").move_seconds == 60
    response = new_game("Odd", 45)
    assert response.status_code == 400
    assert "Choose one of the clocks on offer." in response.content.decode()
    assert not Game.objects.filter(name="Odd").exists()


def test_whose_turn_is_written_alike_whether_the_caller_names_the_served_seats(
    alice, bob, monkeypatch
):
    """`set_turns` with the seats the server plays (read under the lock by the service) sets
    plain values, one UPDATE for each kind of change; without them one UPDATE tells the seats
    apart in SQL. Both leave every row the same, for every change of whose turn it is between
    two people (seats 0 and 1) and two bots (2 and 3)."""
    import itertools

    from games.clocks import turns

    game = clocked_table([alice, bob], bots=2, seconds=60)
    monkeypatch.setattr(timezone, "now", lambda: game.started_at)
    subsets = [frozenset(c) for n in range(3) for c in itertools.combinations(range(4), n)]
    members = list(Membership.objects.filter(game=game))
    served = turns.served_seats(members)
    assert served == {2, 3}

    def rows():
        return sorted(
            Membership.objects.filter(game=game).values_list("seat", "must_act", "deadline")
        )

    for before, after in itertools.product(subsets, repeat=2):
        for restarted in ((), tuple(after)[:1]):
            written = []
            for named in (None, served):
                Membership.objects.filter(game=game).update(must_act=False, deadline=None)
                turns.set_turns(game, frozenset(), before)  # the same start
                turns.set_turns(game, before, after, restarted=restarted, served=named)
                written.append(rows())
            assert written[0] == written[1], (before, after, restarted)
