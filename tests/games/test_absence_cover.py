"""games.services.absence: getting past an absent player, by cover.

After the grace time away (a player who never opened the table counts as away long enough),
any other seated player asks a bot to play the seat; it plays at once on its turn. Who may
ask, and the seats that cannot be covered (one's own, a bot's, a covered one, no seat).
"""

from __future__ import annotations

import pytest

from games.models import Game, GameAction
from games.services import absence, stand_ins
from games.services.errors import NotAPlayer, RefusedMove, UnreadableMove
from tests.games.conftest import T0, active_seat, gone, here, member, start_table

# --- cover --------------------------------------------------------------------------------


def test_a_bot_covers_a_player_away_for_the_grace_time_and_plays_at_once(three, alice, bob, clock):
    here(three, alice)
    gone(three, bob, clock, T0)
    assert active_seat(three) == 1
    clock.at = T0 + 120
    absence.cover(game_id=three.pk, by=alice, seat=1)
    covered = member(three, bob)
    assert covered.automated and covered.cover_note == "Alice asked a bot to cover"
    assert GameAction.objects.filter(game=three, seat=1, auto=True).exists()
    assert active_seat(three) == 2  # the bot bid for bob; carol's turn now
    three.refresh_from_db()
    assert three.version > 0


def test_cover_before_the_grace_time_says_how_long_is_left(three, alice, bob, clock):
    gone(three, bob, clock, T0)
    clock.at = T0 + 45
    with pytest.raises(RefusedMove) as refused:
        absence.cover(game_id=three.pk, by=alice, seat=1)
    assert refused.value.status == 422
    assert refused.value.message == "Bob has been away only 45 s; a bot can cover after 2 min."
    assert not member(three, bob).automated


def test_the_grace_time_comes_from_the_settings(three, alice, bob, clock, settings):
    settings.COVER_GRACE_SECONDS = 30
    gone(three, bob, clock, T0)
    clock.at = T0 + 31
    absence.cover(game_id=three.pk, by=alice, seat=1)
    assert member(three, bob).automated


def test_a_connected_player_cannot_be_covered(three, alice, bob):
    here(three, bob)
    with pytest.raises(RefusedMove, match="Bob is at the table"):
        absence.cover(game_id=three.pk, by=alice, seat=1)


def test_a_player_who_never_opened_the_table_counts_as_away_long_enough(three, bob, carol):
    absence.cover(game_id=three.pk, by=carol, seat=1)
    assert member(three, bob).automated


def test_only_seated_players_may_ask_for_cover(three, alice, dave):
    with pytest.raises(NotAPlayer) as refused:
        absence.cover(game_id=three.pk, by=dave, seat=1)
    assert refused.value.status == 403
    stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")  # an invitee now
    with pytest.raises(NotAPlayer):
        absence.cover(game_id=three.pk, by=dave, seat=1)


def test_cover_refuses_your_own_seat_a_bot_a_covered_seat_and_no_seat(alice, bob):
    game = start_table([alice, bob], bots=1, seed="absence-bots")
    with pytest.raises(RefusedMove, match="your own seat"):
        absence.cover(game_id=game.pk, by=alice, seat=0)
    with pytest.raises(RefusedMove, match="is a bot already"):
        absence.cover(game_id=game.pk, by=alice, seat=2)
    absence.cover(game_id=game.pk, by=alice, seat=1)
    with pytest.raises(RefusedMove, match="plays Bob’s seat already"):
        absence.cover(game_id=game.pk, by=alice, seat=1)
    with pytest.raises(UnreadableMove) as refused:
        absence.cover(game_id=game.pk, by=alice, seat=7)
    assert refused.value.status == 400


def test_cover_needs_a_game_in_progress(three, alice):
    Game.objects.filter(pk=three.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(RefusedMove):
        absence.cover(game_id=three.pk, by=alice, seat=1)
