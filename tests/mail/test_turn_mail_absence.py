"""Turn letters: at most one per game per absence, about TURN_MAIL_DELAY_SECONDS after the
player left, none while they are present (a page of the game open, or a request on it less
than the away threshold ago), a new one only after they came back and left again.

Time is a clock the test moves (Django's `timezone.now` and games.live.presence's `now`); the
deadline sweep (`deadlines.tick(now)`: the bots' moves after their pause, then the due mail)
runs every simulated second (half a second during play); letters are counted at the real
SMTP server (`inbox`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from games import mail
from games.clocks import deadlines
from games.kinds.hearts import engine
from games.live import presence
from games.models import Membership, PendingMail
from games.services import states
from tests.conftest import HX, logged_in_client
from tests.games.conftest import start_table, url
from tests.mail.conftest import verify

pytestmark = pytest.mark.django_db

T0 = 1_800_000_000.0  # seconds since the epoch where the clock starts
ALICE = "alice@example.com"


@pytest.fixture
def clock(monkeypatch, settings):
    """Both clocks at `clock.at` (seconds since the epoch); `clock.sweep(until)` runs the
    sweep every `step` seconds (one by default) up to `until`. Bots pause (as on a server,
    so each bot move is a move of its own and it becomes the player's turn anew) and the
    sweep plays them."""
    settings.BOT_DELAY_SECONDS = 0.2

    class Clock:
        at = T0

        def now(self):
            return datetime.fromtimestamp(self.at, UTC)

        def sweep(self, until, step=1.0):
            while self.at < until:
                self.at = min(until, self.at + step)
                deadlines.tick(self.now())

    moved = Clock()
    monkeypatch.setattr(timezone, "now", moved.now)
    monkeypatch.setattr(presence, "now", lambda: moved.at)
    return moved


@pytest.fixture
def quick(alice, clock):
    """Alice (verified) plays Hearts with three bots, her table open."""
    verify(alice)
    game = start_table([alice], bots=3, kind="hearts", seed="quick")
    presence.join(game.pk, alice.pk)
    return game


def play(client, game):
    """Alice's move over HTTP (the first legal one), as her table's buttons post it."""
    game.refresh_from_db()
    view = engine.view_of(states.load_state(game), 0)
    if view.can_pass:
        data = {"kind": "pass", "cards": [engine.card_code(c) for c in view.hand[:3]]}
    else:
        data = {"kind": "play", "card": engine.card_code(view.legal_plays[0])}
    response = client.post(url("move", game), {"version": game.version, **data}, headers=HX)
    assert response.status_code == 200, response.content.decode()[:300]


def play_quickly(game, alice, clock, *, moves=16, every=2.5):
    """Alice makes `moves` moves, one every `every` seconds, the sweep running meanwhile
    (the bots play in between): it is her turn again after each."""
    client = logged_in_client(alice)
    for _ in range(moves):
        play(client, game)
        clock.sweep(clock.at + every, step=0.5)  # the bots' pause is 0.2 s
        waited = 0
        while not Membership.objects.get(game=game, user=alice).must_act:
            clock.sweep(clock.at + 0.5, step=0.5)  # a hand's end takes the bots longer
            waited += 1
            assert waited < 20


def test_a_quick_game_then_a_closed_tab_sends_one_letter_a_minute_later(quick, alice, clock, inbox):
    play_quickly(quick, alice, clock)  # 40 s, 16 moves: a turn row for each
    assert PendingMail.objects.filter(user=alice, reason="turn").count() >= 16
    left = clock.at
    presence.leave(quick.pk, alice.pk)  # she closes the tab on her turn
    clock.sweep(left + 59)
    assert inbox.to(ALICE) == []
    clock.sweep(left + 200)
    assert len(inbox.to(ALICE)) == 1
    sent = PendingMail.objects.get(user=alice, outcome="sent")
    assert sent.done_at == datetime.fromtimestamp(left + 60, UTC)
    assert sent.absence == int(left)


def test_no_letter_if_she_comes_back_within_the_minute(quick, alice, clock, inbox):
    play_quickly(quick, alice, clock, moves=4)
    presence.leave(quick.pk, alice.pk)
    clock.sweep(clock.at + 30)
    presence.join(quick.pk, alice.pk)  # back, and staying
    clock.sweep(clock.at + 600, step=5)
    assert inbox.to(ALICE) == []


def test_a_new_letter_only_after_she_came_back_and_left_again(quick, alice, clock, inbox):
    play_quickly(quick, alice, clock, moves=4)
    presence.leave(quick.pk, alice.pk)
    clock.sweep(clock.at + 120)
    assert len(inbox.to(ALICE)) == 1
    # Still away: the bots cannot play her seat, and turns coming again change nothing.
    mail.turn_began(quick, [alice.pk])  # as if the same turn were announced again
    quick.action_count += 1
    mail.turn_began(quick, [alice.pk])  # a later turn during the same absence
    clock.sweep(clock.at + 3600, step=10)
    assert len(inbox.to(ALICE)) == 1
    assert PendingMail.objects.filter(outcome="told of this absence already").count() == 1
    # Back (the letter's link opens the table), a move, and gone again on her turn.
    presence.join(quick.pk, alice.pk)
    play_quickly(quick, alice, clock, moves=1)
    presence.leave(quick.pk, alice.pk)
    clock.sweep(clock.at + 120)
    assert len(inbox.to(ALICE)) == 2


def test_a_player_moving_over_http_is_present_for_the_away_threshold(alice, clock, inbox):
    """No socket at all: each move is a request, which keeps her present for two minutes
    (COVER_GRACE_SECONDS); her absence begins then, and the letter a minute later."""
    verify(alice)
    game = start_table([alice], bots=3, kind="hearts", seed="quick")
    play_quickly(game, alice, clock, moves=2, every=10)  # each request writes its time
    last = clock.at - 10  # her last request
    clock.sweep(last + 120 + 59)
    assert inbox.to(ALICE) == []
    clock.sweep(last + 120 + 61)
    assert len(inbox.to(ALICE)) == 1
