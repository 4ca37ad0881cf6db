"""Lobby services, per persona: alice (organizer), bob (player), carol (invitee), dave
(outsider). Every refusal raises with a player-facing message and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.http import Http404
from django.utils import timezone

from games.models import Game, Invitation, Membership, Snapshot
from games.services import lobby
from games.services.lobby import LobbyRefused
from tests.conftest import make_user
from tests.games.conftest import active_seat

pytestmark = pytest.mark.django_db


def state_of(game):
    """Everything the lobby may change, to prove a refusal changed nothing."""
    game.refresh_from_db()
    members = sorted(
        Membership.objects.filter(game=game).values_list("user_id", "bot_name", "role", "seat"),
        key=str,
    )
    invitations = sorted(
        Invitation.objects.filter(game=game).values_list("pk", "invitee_id", "state"), key=str
    )
    return game.version, game.status, members, invitations


def refused(call, status):
    with pytest.raises(LobbyRefused) as info:
        call()
    assert info.value.status == status
    assert info.value.message
    return info.value.message


def seats(game):
    return {
        m.name: (m.role, m.seat)
        for m in Membership.objects.filter(game=game).select_related("user")
    }


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


# --- invite links ------------------------------------------------------------------------


def test_an_invite_link_is_unguessable_expires_and_following_it_takes_a_seat(friday, bob, dave):
    link = lobby.create_invite_link(game_id=friday.pk, by=bob)
    assert link.token is not None and len(link.token) >= 32 and link.invitee is None
    assert link.expires_at is not None and link.expires_at - timezone.now() > timedelta(days=6)
    game = lobby.use_invite_link(token=str(link.token), user=dave)
    assert game == friday
    assert seats(friday)["Dave"] == ("player", 2)  # no Accept step: following is accepting
    link.refresh_from_db()
    assert link.invitee == dave and link.state == Invitation.State.ACCEPTED
    assert link.responded_at is not None


def test_an_invite_link_works_once(friday, alice, dave):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    lobby.use_invite_link(token=str(link.token), user=dave)
    erin = make_user("erin")
    before = state_of(friday)
    assert "already been used" in refused(
        lambda: lobby.use_invite_link(token=str(link.token), user=erin), 410
    )
    assert state_of(friday) == before


def test_a_member_following_a_link_does_not_use_it_up(friday, alice, dave):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    assert lobby.use_invite_link(token=str(link.token), user=alice) == friday
    lobby.use_invite_link(token=str(link.token), user=dave)
    assert seats(friday)["Dave"] == ("player", 2)


def test_an_invitee_following_a_link_takes_their_seat_and_leaves_the_link_unused(
    friday, alice, carol
):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    assert lobby.use_invite_link(token=str(link.token), user=carol) == friday
    assert seats(friday)["Carol"] == ("player", 2)
    assert Invitation.objects.get(game=friday, invitee=carol).state == Invitation.State.ACCEPTED
    link.refresh_from_db()
    assert link.invitee is None and link.state == Invitation.State.PENDING


def test_a_link_to_a_full_game_is_refused_and_stays_usable(friday, alice, dave):
    lobby.add_bot(game_id=friday.pk, by=alice, seat=2)
    lobby.add_bot(game_id=friday.pk, by=alice, seat=3)
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    before = state_of(friday)
    assert "full" in refused(lambda: lobby.use_invite_link(token=str(link.token), user=dave), 409)
    assert state_of(friday) == before
    lobby.remove(
        game_id=friday.pk, by=alice, membership_id=Membership.objects.get(game=friday, seat=3).pk
    )
    lobby.use_invite_link(token=str(link.token), user=dave)
    assert seats(friday)["Dave"] == ("player", 3)


def test_revoked_expired_and_unknown_links_say_which(friday, alice, dave):
    revoked = lobby.create_invite_link(game_id=friday.pk, by=alice)
    lobby.revoke_invitation(game_id=friday.pk, by=alice, invitation_id=revoked.pk)
    expired = lobby.create_invite_link(game_id=friday.pk, by=alice)
    Invitation.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    before = state_of(friday)
    assert "revoked" in refused(
        lambda: lobby.use_invite_link(token=str(revoked.token), user=dave), 410
    )
    assert "expired" in refused(
        lambda: lobby.use_invite_link(token=str(expired.token), user=dave), 410
    )
    assert "does not exist" in refused(lambda: lobby.use_invite_link(token="nope", user=dave), 404)
    assert state_of(friday) == before


def test_an_invitee_cannot_create_a_link(friday, carol):
    before = state_of(friday)
    refused(lambda: lobby.create_invite_link(game_id=friday.pk, by=carol), 403)
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
