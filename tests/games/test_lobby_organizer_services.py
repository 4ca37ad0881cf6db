"""Lobby services, per persona: alice (organizer), bob (player), carol (invitee), dave
(outsider): what only the organizer does (adding bots, removing people and invitations,
starting the game) and what starting closes. Every refusal raises with a player-facing
message and changes nothing."""

from __future__ import annotations

import pytest
from django.http import Http404

from games.models import Game, Invitation, Membership, Snapshot
from games.services import lobby
from tests.games.conftest import active_seat
from tests.games.lobby_helpers import refused, seats, state_of

pytestmark = pytest.mark.django_db


# --- bots and removals -------------------------------------------------------------------


def test_the_organizer_adds_a_named_medium_bot_to_an_empty_seat(friday, alice):
    bot = lobby.add_bot(game_id=friday.pk, by=alice, seat=3)
    assert (bot.seat, bot.bot, bot.bot_name, bot.user_id) == (3, "medium", "Bot Ada", None)
    second = lobby.add_bot(game_id=friday.pk, by=alice, seat=2)
    assert second.bot_name == "Bot Blaise"


@pytest.mark.parametrize(("seat", "status"), [(1, 409), (0, 409), (4, 400), (-1, 400), (99, 400)])
def test_a_bot_needs_a_real_empty_seat(friday, alice, seat, status):
    before = state_of(friday)
    refused(lambda: lobby.add_bot(game_id=friday.pk, by=alice, seat=seat), status)
    assert state_of(friday) == before


def test_a_seat_beyond_the_games_size_does_not_exist(alice):
    game = lobby.create_game(organizer=alice, name="Duo", public=False, max_players=2)
    refused(lambda: lobby.add_bot(game_id=game.pk, by=alice, seat=2), 400)


def test_only_the_organizer_adds_bots_removes_people_revokes_and_starts(friday, bob, carol):
    bot = lobby.add_bot(game_id=friday.pk, by=friday.organizer, seat=3)
    invitation = Invitation.objects.get(game=friday, invitee=carol)
    before = state_of(friday)
    for user in (bob, carol):
        refused(lambda u=user: lobby.add_bot(game_id=friday.pk, by=u, seat=2), 403)
        refused(lambda u=user: lobby.remove(game_id=friday.pk, by=u, membership_id=bot.pk), 403)
        refused(
            lambda u=user: lobby.revoke_invitation(
                game_id=friday.pk, by=u, invitation_id=invitation.pk
            ),
            403,
        )
        refused(lambda u=user: lobby.start_game(game_id=friday.pk, by=u), 403)
    assert state_of(friday) == before


def test_the_organizer_removes_a_player_and_a_bot(
    friday, alice, bob, pushes, django_capture_on_commit_callbacks
):
    bot = lobby.add_bot(game_id=friday.pk, by=alice, seat=3)
    bob_membership = Membership.objects.get(game=friday, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.remove(game_id=friday.pk, by=alice, membership_id=bob_membership.pk)
    lobby.remove(game_id=friday.pk, by=alice, membership_id=bot.pk)
    assert set(seats(friday)) == {"Alice", "Carol"}
    assert any(name == "lobby_changed" and bob.pk in args[0] for name, args in pushes)


def test_removing_an_invitee_un_invites_her(friday, alice, carol):
    member = Membership.objects.get(game=friday, user=carol)
    lobby.remove(game_id=friday.pk, by=alice, membership_id=member.pk)
    assert "Carol" not in seats(friday)
    assert Invitation.objects.get(game=friday, invitee=carol).state == Invitation.State.REVOKED


def test_a_forged_membership_id_is_refused(friday, alice, dave):
    other = lobby.create_game(organizer=dave, name="Other", public=False, max_players=2)
    someone_elses = Membership.objects.get(game=other)
    own = Membership.objects.get(game=friday, user=alice)
    before = state_of(friday)
    refused(lambda: lobby.remove(game_id=friday.pk, by=alice, membership_id=someone_elses.pk), 400)
    refused(lambda: lobby.remove(game_id=friday.pk, by=alice, membership_id=999999), 400)
    refused(lambda: lobby.remove(game_id=friday.pk, by=alice, membership_id=own.pk), 409)
    assert state_of(friday) == before


def test_revoking_an_invitation_by_name_removes_the_invitee(friday, alice, carol):
    invitation = Invitation.objects.get(game=friday, invitee=carol)
    lobby.revoke_invitation(game_id=friday.pk, by=alice, invitation_id=invitation.pk)
    invitation.refresh_from_db()
    assert invitation.state == Invitation.State.REVOKED
    assert "Carol" not in seats(friday)
    before = state_of(friday)
    refused(
        lambda: lobby.revoke_invitation(game_id=friday.pk, by=alice, invitation_id=invitation.pk),
        409,
    )
    refused(lambda: lobby.revoke_invitation(game_id=friday.pk, by=alice, invitation_id=0), 400)
    assert state_of(friday) == before


# --- starting ----------------------------------------------------------------------------


def test_starting_compacts_seats_drops_invitees_and_deals(
    friday, alice, bob, carol, pushes, django_capture_on_commit_callbacks
):
    lobby.add_bot(game_id=friday.pk, by=alice, seat=3)
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    version = Game.objects.get(pk=friday.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.start_game(game_id=friday.pk, by=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.started_at is not None
    assert game.version > version
    assert active_seat(game) is not None
    assert seats(game) == {
        "Alice": ("organizer", 0),
        "Bob": ("player", 1),
        "Bot Ada": ("player", 2),
    }
    assert Snapshot.objects.filter(game=game, seq=0).exists()
    assert Invitation.objects.get(game=game, invitee=carol).state == Invitation.State.EXPIRED
    link.refresh_from_db()
    assert link.state == Invitation.State.EXPIRED
    assert ("game_started", (game.pk,)) in pushes
    turn = [args for name, args in pushes if name == "turn"]
    human_at_turn = Membership.objects.get(game=game, seat=active_seat(game)).user_id
    assert turn == [(human_at_turn, game.pk)]  # bots played up to the first human
    assert any(name == "lobby_changed" and carol.pk in args[0] for name, args in pushes)


def test_nobody_joins_or_leaves_once_started(friday, alice, bob, carol, dave):
    lobby.start_game(game_id=friday.pk, by=alice)
    before = state_of(friday)
    with pytest.raises(Http404):  # carol's invitation lapsed: the private game is gone for her
        lobby.accept(game_id=friday.pk, user=carol)
    refused(lambda: lobby.leave(game_id=friday.pk, user=bob), 409)
    refused(lambda: lobby.add_bot(game_id=friday.pk, by=alice, seat=3), 409)
    refused(lambda: lobby.invite(game_id=friday.pk, by=alice, username="dave"), 409)
    refused(lambda: lobby.start_game(game_id=friday.pk, by=alice), 409)
    refused(lambda: lobby.create_invite_link(game_id=friday.pk, by=alice), 409)
    assert state_of(friday) == before


def test_joining_a_started_public_game_is_refused(alice, bob, dave):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=4)
    lobby.join(game_id=game.pk, user=bob)
    lobby.start_game(game_id=game.pk, by=alice)
    before = state_of(game)
    assert "started" in refused(lambda: lobby.join(game_id=game.pk, user=dave), 409)
    assert state_of(game) == before


def test_a_game_needs_two_players_to_start(alice, carol):
    game = lobby.create_game(organizer=alice, name="Alone", public=False, max_players=4)
    lobby.invite(game_id=game.pk, by=alice, username="carol")
    before = state_of(game)
    assert "two players" in refused(lambda: lobby.start_game(game_id=game.pk, by=alice), 409)
    assert state_of(game) == before
