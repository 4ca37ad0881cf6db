"""Table talk's rules and service (games/talk/): who may write where, who reads what.

- seated players write to the players' channel; an unseated invitee and a public game's
  spectator to the spectators' channel; a private game's outsider gets a 404;
- the spectators' channel is hidden from the players while the game is under way and shown
  to everybody once it is over;
- the organizer sets talk on / reactions only / off; only the organizer;
- a rated game is reactions-only while a hand is played, free between hands;
- reactions: seated players only, known codes only;
- a mute hides the muted person's lines from the one who muted, nobody else; a block hides
  each one's lines from the other;
- chat goes with the account, and is not in the game's JSON export.
"""

from __future__ import annotations

import pytest
from django.http import Http404
from django.urls import reverse

from accounts import blocking
from games.models import ChatMessage, ChatMute, Game
from games.talk import presenter, rules, service
from games.talk.rules import Refused
from tests.conftest import logged_in_client
from tests.games.test_export import finished_game
from tests.talk.conftest import bid

pytestmark = pytest.mark.django_db


def yes() -> bool:
    return True


def say(game, user, text="hello"):
    return service.say(game_id=game.pk, user=user, text=text, limiter=yes)


def texts(game, user):
    viewer = rules.viewer_of(game, user)
    return [line["text"] for line in presenter.history(game, viewer)]


def test_seated_players_write_to_the_players_channel(duel, alice, bob):
    assert say(duel, alice).channel == "players"
    assert say(duel, bob).channel == "players"
    assert say(duel, alice).seat == 0


def test_an_unseated_invitee_writes_to_the_spectators_channel(duel, carol):
    message = say(duel, carol)
    assert message.channel == "spectators"
    assert message.seat is None


def test_an_outsider_of_a_private_game_gets_404_and_nothing_is_stored(duel, dave):
    with pytest.raises(Http404):
        say(duel, dave)
    assert not ChatMessage.objects.exists()


def test_a_spectator_of_a_public_game_writes_to_the_spectators_channel(open_duel, dave):
    assert say(open_duel, dave).channel == "spectators"


def test_players_do_not_read_the_spectators_channel_during_play(open_duel, alice, carol, dave):
    say(open_duel, alice, "from a player")
    say(open_duel, dave, "from a spectator")
    assert texts(open_duel, alice) == ["from a player"]
    assert texts(open_duel, carol) == ["from a player", "from a spectator"]
    assert texts(open_duel, dave) == ["from a player", "from a spectator"]


def test_after_the_game_both_channels_are_shown_to_everybody(open_duel, alice, dave):
    say(open_duel, alice, "from a player")
    say(open_duel, dave, "from a spectator")
    Game.objects.filter(pk=open_duel.pk).update(status=Game.Status.FINISHED)
    open_duel.refresh_from_db()
    assert texts(open_duel, alice) == ["from a player", "from a spectator"]


def test_the_organizer_turns_talk_off_and_to_reactions_only(duel, alice, bob):
    service.set_mode(game_id=duel.pk, user=alice, mode="reactions")
    with pytest.raises(Refused) as refused:
        say(duel, bob)
    assert refused.value.status == 403
    assert "reactions only" in refused.value.message
    service.react(game_id=duel.pk, user=bob, code="nice", limiter=yes)
    service.set_mode(game_id=duel.pk, user=alice, mode="off")
    with pytest.raises(Refused):
        service.react(game_id=duel.pk, user=bob, code="nice", limiter=yes)
    with pytest.raises(Refused):
        say(duel, alice)
    assert ChatMessage.objects.count() == 1


def test_only_the_organizer_sets_the_talk(duel, bob):
    with pytest.raises(Refused) as refused:
        service.set_mode(game_id=duel.pk, user=bob, mode="off")
    assert refused.value.status == 403
    with pytest.raises(Refused):
        service.set_mode(game_id=duel.pk, user=duel.organizer, mode="loud")
    duel.refresh_from_db()
    assert duel.talk_mode == "on"


def test_a_rated_game_is_reactions_only_while_a_hand_is_played(duel, alice, bob):
    say(duel, alice, "good luck")  # before the first move of the hand: free
    bid(duel, bob)
    with pytest.raises(Refused) as refused:
        say(duel, alice, "nice bid")
    assert refused.value.status == 403
    assert "rated" in refused.value.message
    service.react(game_id=duel.pk, user=alice, code="nice", limiter=yes)
    assert rules.hand_in_progress(Game.objects.get(pk=duel.pk))


def test_an_unrated_game_chats_during_a_hand(open_duel, alice, bob):
    bid(open_duel, bob)
    say(open_duel, alice, "nice bid")


def test_reactions_are_for_seated_players_and_known_codes(duel, alice, carol):
    with pytest.raises(Refused) as refused:
        service.react(game_id=duel.pk, user=carol, code="nice", limiter=yes)
    assert refused.value.status == 403
    for code in ("", "nope", None, "nice\x00", 3):
        with pytest.raises(Refused) as refused:
            service.react(game_id=duel.pk, user=alice, code=code, limiter=yes)
        assert refused.value.status == 400
    assert not ChatMessage.objects.exists()


def test_a_rate_limited_message_is_refused_with_429(duel, alice):
    with pytest.raises(Refused) as refused:
        service.say(game_id=duel.pk, user=alice, text="hi", limiter=lambda: False)
    assert refused.value.status == 429
    assert not ChatMessage.objects.exists()


def test_a_mute_hides_lines_from_the_one_who_muted_only(open_duel, alice, bob, dave):
    say(open_duel, bob, "from bob")
    service.mute(game_id=open_duel.pk, user=alice, other_id=bob.pk, muted=True)
    assert texts(open_duel, alice) == []
    assert texts(open_duel, dave) == ["from bob"]
    assert rules.hidden_senders(alice.pk) == {bob.pk}
    service.mute(game_id=open_duel.pk, user=alice, other_id=bob.pk, muted=False)
    assert texts(open_duel, alice) == ["from bob"]


def test_a_block_either_way_hides_each_one_s_lines_from_the_other(open_duel, alice, bob, dave):
    say(open_duel, alice, "from alice")
    say(open_duel, bob, "from bob")
    blocking.block(by=alice, other=bob)  # both seated, the game running
    assert texts(open_duel, alice) == ["from alice"]
    assert texts(open_duel, bob) == ["from bob"]  # the blocked one no longer sees her either
    assert texts(open_duel, dave) == ["from alice", "from bob"]
    blocking.unblock(by=alice, other=bob)
    assert texts(open_duel, bob) == ["from alice", "from bob"]


def test_nobody_mutes_themselves(duel, alice):
    say(duel, alice)
    with pytest.raises(Refused):
        service.mute(game_id=duel.pk, user=alice, other_id=alice.pk, muted=True)
    assert not ChatMute.objects.exists()


def test_chat_goes_with_the_account(duel, alice, bob):
    say(duel, bob, "mine")
    say(duel, alice, "hers")
    service.mute(game_id=duel.pk, user=alice, other_id=bob.pk, muted=True)
    bob.delete()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hers"]
    assert not ChatMute.objects.exists()


def test_chat_is_not_in_the_json_export(alice):
    game = finished_game(alice, "one-hundred-and-four", 2, {}, ["naive"])
    say(game, alice, "a secret word: xyzzy")  # after the game: free chat
    response = logged_in_client(alice).get(reverse("export", args=[game.pk]))
    assert response.status_code == 200
    assert b"xyzzy" not in response.content
    assert b"talk" not in response.content


def test_a_seated_person_is_muted_before_they_talk(open_duel, alice, bob, dave):
    service.mute(game_id=open_duel.pk, user=alice, other_id=bob.pk, muted=True)
    say(open_duel, bob, "from bob")
    assert texts(open_duel, alice) == []
    assert texts(open_duel, dave) == ["from bob"]
    service.mute(game_id=open_duel.pk, user=dave, other_id=alice.pk, muted=True)  # a spectator
    assert rules.hidden_senders(dave.pk) == {alice.pk}


def test_nobody_outside_the_game_is_muted_from_it(duel, alice, dave):
    with pytest.raises(Http404):
        service.mute(game_id=duel.pk, user=alice, other_id=dave.pk, muted=True)
    assert not ChatMute.objects.exists()


def test_the_panel_lists_the_other_seated_people_with_a_mute_toggle(
    open_duel, alice, bob, carol, dave
):
    people = presenter.panel(open_duel, alice)["talk_people"]
    assert people == [{"id": bob.pk, "name": bob.shown_name, "muted": False}]
    service.mute(game_id=open_duel.pk, user=alice, other_id=bob.pk, muted=True)
    service.mute(game_id=open_duel.pk, user=alice, other_id=carol.pk, muted=True)
    panel = presenter.panel(open_duel, alice)
    assert panel["talk_people"] == [{"id": bob.pk, "name": bob.shown_name, "muted": True}]
    assert [m["id"] for m in panel["talk_mutes"]] == [carol.pk]  # bob is listed once
    assert [p["id"] for p in presenter.panel(open_duel, dave)["talk_people"]] == [alice.pk, bob.pk]
    blocking.block(by=bob, other=dave)
    assert [p["id"] for p in presenter.panel(open_duel, dave)["talk_people"]] == [alice.pk]


def test_the_message_box_follows_a_rated_hand(duel, alice, bob):
    assert presenter.panel(duel, alice)["talk_can_chat"]
    bid(duel, bob)
    panel = presenter.panel(Game.objects.get(pk=duel.pk), alice)
    assert not panel["talk_can_chat"] and panel["talk_can_react"]


def test_the_table_basis_knows_whether_a_hand_is_played_and_the_setting(
    duel, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    """Read from the database, and followed in memory with a move (games/presenters/basis.py
    `adopt`, as another process does): a socket's redraw draws the composer from it, no
    query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live import realtime
    from games.presenters import basis
    from games.services import states

    def from_the_database():
        basis.clear_table_cache()
        states.clear_state_cache()
        return basis.table_basis(Game.objects.get(pk=duel.pk))

    assert not from_the_database().in_hand
    sent = []
    monkeypatch.setattr(
        realtime, "game_changed", lambda game_id, version, change=None: sent.append(change)
    )
    before = from_the_database()  # this process showed the table before the move
    Game.objects.filter(pk=duel.pk).update(talk_mode="reactions")  # changes no version
    with django_capture_on_commit_callbacks(execute=True):
        bid(duel, bob)
    change = sent[-1]
    game_id, version = duel.pk, change["from"] + len(change["actions"])
    basis.clear_table_cache()
    with django_capture_on_commit_callbacks(execute=True):
        basis.table_basis(before.game)
    with CaptureQueriesContext(connection) as queries:
        followed = basis.adopt(game_id, version, change)
    assert followed is not None and len(queries) == 0
    assert basis.table_basis(followed).in_hand and followed.talk_mode == "reactions"
    assert from_the_database().in_hand
