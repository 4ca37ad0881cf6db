"""Lobby services, per persona: alice (organizer), bob (player), carol (invitee), dave
(outsider): creating a game, inviting by name, and taking or leaving a seat (accepting,
declining, joining, leaving). Every refusal raises with a player-facing message and changes
nothing."""

from __future__ import annotations

import pytest
from django.http import Http404

from games.models import Game, Invitation
from games.services import lobby
from tests.conftest import make_user
from tests.games.lobby_helpers import refused, seats, state_of

pytestmark = pytest.mark.django_db


# --- creating ----------------------------------------------------------------------------


def test_the_organizer_gets_seat_zero_in_a_new_game(
    alice, pushes, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.create_game(
            organizer=alice, name="  Friday   cards ", public=False, max_players=3
        )
    assert game.name == "Friday cards"
    assert game.status == Game.Status.WAITING and game.max_players == 3 and not game.public
    assert seats(game) == {"Alice": ("organizer", 0)}
    assert ("lobby_changed", ({alice.pk},)) in pushes


def test_a_new_public_game_refreshes_everyones_open_games(
    alice, pushes, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        lobby.create_game(organizer=alice, name="Open", public=True, max_players=4)
    assert ("public_games_changed", ()) in pushes


def test_a_private_game_stays_out_of_the_public_lists(
    alice, pushes, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        lobby.create_game(organizer=alice, name="Secret", public=False, max_players=4)
    assert ("public_games_changed", ()) not in pushes


def test_a_game_has_two_to_four_seats(alice):
    refused(lambda: lobby.create_game(organizer=alice, name="x", public=True, max_players=5), 400)
    refused(lambda: lobby.create_game(organizer=alice, name="x", public=True, max_players=1), 400)
    refused(lambda: lobby.create_game(organizer=alice, name="   ", public=True, max_players=2), 400)
    assert not Game.objects.exists()


# --- inviting ----------------------------------------------------------------------------


def test_the_organizer_invites_by_username_and_the_invitee_is_told(
    alice, carol, pushes, django_capture_on_commit_callbacks
):
    game = lobby.create_game(organizer=alice, name="G", public=False, max_players=4)
    before = Game.objects.get(pk=game.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        invitation = lobby.invite(game_id=game.pk, by=alice, username="Carol")
    assert invitation.invitee == carol and invitation.state == Invitation.State.PENDING
    assert seats(game)["Carol"] == ("invitee", None)
    assert Game.objects.get(pk=game.pk).version == before + 1
    assert ("invitation_received", (carol.pk, invitation.pk)) in pushes
    assert ("game_changed", (game.pk, before + 1)) in pushes


def test_any_player_may_invite(friday, bob, dave):
    lobby.invite(game_id=friday.pk, by=bob, username="dave")
    assert seats(friday)["Dave"] == ("invitee", None)


def test_an_invitee_may_not_invite(friday, carol, dave):
    before = state_of(friday)
    message = refused(lambda: lobby.invite(game_id=friday.pk, by=carol, username="dave"), 403)
    assert "players" in message
    assert state_of(friday) == before


def test_an_outsider_cannot_even_see_a_private_game(friday, dave, bob):
    before = state_of(friday)
    for call in (
        lambda: lobby.invite(game_id=friday.pk, by=dave, username="bob"),
        lambda: lobby.create_invite_link(game_id=friday.pk, by=dave),
        lambda: lobby.join(game_id=friday.pk, user=dave),
        lambda: lobby.accept(game_id=friday.pk, user=dave),
        lambda: lobby.decline(game_id=friday.pk, user=dave),
        lambda: lobby.leave(game_id=friday.pk, user=dave),
        lambda: lobby.add_bot(game_id=friday.pk, by=dave, seat=2),
        lambda: lobby.start_game(game_id=friday.pk, by=dave),
    ):
        with pytest.raises(Http404):
            call()
    assert state_of(friday) == before


@pytest.mark.parametrize(
    ("username", "status", "words"),
    [
        ("nobody", 400, "nobody called"),
        ("carol", 409, "already been invited"),
        ("bob", 409, "already playing"),
        ("alice", 409, "already playing"),
    ],
)
def test_inviting_an_unknown_user_twice_or_a_member_is_refused(
    friday, alice, username, status, words
):
    before = state_of(friday)
    message = refused(lambda: lobby.invite(game_id=friday.pk, by=alice, username=username), status)
    assert words in message
    assert state_of(friday) == before


# --- accepting, declining, joining, leaving ------------------------------------------------


def test_an_invitee_who_accepts_takes_the_lowest_free_seat(friday, alice, carol, dave):
    lobby.add_bot(game_id=friday.pk, by=alice, seat=3)
    membership = lobby.accept(game_id=friday.pk, user=carol)
    assert (membership.role, membership.seat) == ("player", 2)
    invitation = Invitation.objects.get(game=friday, invitee=carol)
    assert invitation.state == Invitation.State.ACCEPTED and invitation.responded_at


def test_an_invitee_who_declines_is_no_longer_a_member(friday, carol):
    lobby.decline(game_id=friday.pk, user=carol)
    assert "Carol" not in seats(friday)
    assert Invitation.objects.get(game=friday, invitee=carol).state == Invitation.State.DECLINED
    with pytest.raises(Http404):  # private: she cannot see it any more
        lobby.accept(game_id=friday.pk, user=carol)


def test_a_player_cannot_accept_or_decline_again(friday, bob):
    before = state_of(friday)
    refused(lambda: lobby.accept(game_id=friday.pk, user=bob), 409)
    refused(lambda: lobby.decline(game_id=friday.pk, user=bob), 409)
    refused(lambda: lobby.join(game_id=friday.pk, user=bob), 409)
    assert state_of(friday) == before


def test_anyone_may_join_a_public_game_until_it_is_full(alice, bob, dave):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=2)
    membership = lobby.join(game_id=game.pk, user=dave)
    assert (membership.role, membership.seat) == ("player", 1)
    before = state_of(game)
    assert "full" in refused(lambda: lobby.join(game_id=game.pk, user=bob), 409)
    assert state_of(game) == before


def test_an_invitee_cannot_accept_when_the_game_is_full(alice, bob, carol):
    game = lobby.create_game(organizer=alice, name="Duo", public=False, max_players=2)
    lobby.invite(game_id=game.pk, by=alice, username="carol")
    lobby.add_bot(game_id=game.pk, by=alice, seat=1)
    before = state_of(game)
    assert "full" in refused(lambda: lobby.accept(game_id=game.pk, user=carol), 409)
    assert state_of(game) == before


def test_at_most_four_players(alice, bob, carol, dave):
    game = lobby.create_game(organizer=alice, name="Four", public=True, max_players=4)
    for user in (bob, carol, dave):
        lobby.join(game_id=game.pk, user=user)
    erin = make_user("erin")
    before = state_of(game)
    refused(lambda: lobby.join(game_id=game.pk, user=erin), 409)
    assert state_of(game) == before


def test_a_player_may_leave_before_the_start_but_the_organizer_may_not(friday, alice, bob):
    lobby.leave(game_id=friday.pk, user=bob)
    assert "Bob" not in seats(friday)
    before = state_of(friday)
    assert "organizer" in refused(lambda: lobby.leave(game_id=friday.pk, user=alice), 409)
    assert state_of(friday) == before


def test_an_invitee_cannot_leave_a_seat_she_does_not_have(friday, carol):
    before = state_of(friday)
    refused(lambda: lobby.leave(game_id=friday.pk, user=carol), 403)
    assert state_of(friday) == before
