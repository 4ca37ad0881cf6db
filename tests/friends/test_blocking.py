"""Blocking: every path refuses, neutrally (the blocked user is not told why): an
invitation by name, an invite link (as a mail link is), a friend request, joining a game
the blocker organizes, a stand-in's invitation; a block ends friendship and requests."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import blocking, friends
from accounts.models import Block, FriendRequest, Friendship
from games.models import Membership
from games.services import lobby
from tests.conftest import HX, logged_in_client

pytestmark = pytest.mark.django_db

NEUTRAL_WORDS = ("block", "Block")


def neutral(text):
    return not any(word in text for word in NEUTRAL_WORDS)


def refused_neutrally(response, message):
    """The refusal is a 403 that says `message` and nothing about a block."""
    assert response.status_code == 403
    text = response.content.decode()
    assert message in text and neutral(text)


def test_blocked_either_way_and_what_a_block_removes(alice, bob, carol):
    friends.send_request(by=alice, username="bob")
    friends.accept_request(by=bob, username="alice")
    friends.send_request(by=carol, username="alice")
    response = logged_in_client(alice).post(reverse("block"), {"username": "bob"})
    assert response.status_code == 302
    logged_in_client(alice).post(reverse("block"), {"username": "carol"})
    assert not Friendship.objects.exists() and not FriendRequest.objects.exists()
    assert blocking.blocked_either_way(alice.pk) == {bob.pk, carol.pk}
    assert blocking.blocked_either_way(bob.pk) == {alice.pk}
    assert friends.relation(alice, bob) == "blocked"
    assert friends.relation(bob, alice) == "none"  # bob is not told
    logged_in_client(alice).post(reverse("unblock"), {"username": "bob"})
    assert blocking.blocked_either_way(bob.pk) == set()
    assert not Friendship.objects.exists()  # unblocking brings nothing back


@pytest.mark.parametrize("who_blocks", ["sender", "receiver"])
def test_friend_request_refused_neutrally(alice, bob, who_blocks):
    if who_blocks == "receiver":
        blocking.block(by=bob, other=alice)
    else:
        blocking.block(by=alice, other=bob)
    response = logged_in_client(alice).post(reverse("friend-request"), {"username": "bob"})
    refused_neutrally(response, "You cannot send a friend request to Bob.")
    assert not FriendRequest.objects.exists()


def test_invitation_by_name_refused_neutrally(alice, bob, carol):
    game = lobby.create_game(organizer=alice, name="Cards", public=False, max_players=4)
    blocking.block(by=carol, other=alice)
    response = logged_in_client(alice).post(
        reverse("invite", args=[game.pk]), {"username": "carol"}, headers=HX
    )
    refused_neutrally(response, "You cannot invite Carol to this game.")
    assert not Membership.objects.filter(game=game, user=carol).exists()


def test_a_player_cannot_invite_somebody_blocked_by_the_organizer(alice, bob, carol):
    game = lobby.create_game(organizer=alice, name="Cards", public=True, max_players=4)
    lobby.join(game_id=game.pk, user=bob)
    blocking.block(by=alice, other=carol)
    with pytest.raises(lobby.LobbyRefused) as refused:
        lobby.invite(game_id=game.pk, by=bob, username="carol")
    assert refused.value.status == 403 and neutral(refused.value.message)


def test_invite_link_refused_neutrally(alice, bob):
    """An emailed invitation is an invite link: following it is the path both take."""
    game = lobby.create_game(organizer=alice, name="Cards", public=False, max_players=4)
    link = lobby.create_invite_link(game_id=game.pk, by=alice)
    blocking.block(by=alice, other=bob)
    response = logged_in_client(bob).get(reverse("invite-link-landing", args=[link.token]))
    refused_neutrally(response, "You cannot join this game.")
    assert not Membership.objects.filter(game=game, user=bob).exists()
    link.refresh_from_db()
    assert link.invitee_id is None  # still usable by somebody else


def test_link_from_a_blocked_inviter_refused(alice, bob, carol):
    game = lobby.create_game(organizer=alice, name="Cards", public=True, max_players=4)
    lobby.join(game_id=game.pk, user=bob)
    link = lobby.create_invite_link(game_id=game.pk, by=bob)
    blocking.block(by=carol, other=bob)
    with pytest.raises(lobby.LobbyRefused):
        lobby.use_invite_link(token=link.token or "", user=carol)


@pytest.mark.parametrize("who_blocks", ["organizer", "joiner"])
def test_joining_a_game_the_blocker_organizes_refused(alice, bob, who_blocks):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=4)
    by, other = {"organizer": (alice, bob), "joiner": (bob, alice)}[who_blocks]
    blocking.block(by=by, other=other)
    response = logged_in_client(bob).post(reverse("join", args=[game.pk]), headers=HX)
    refused_neutrally(response, "You cannot join this game.")
    assert not Membership.objects.filter(game=game, user=bob).exists()


def test_others_still_join_and_the_block_lifts(alice, bob, carol):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=4)
    blocking.block(by=alice, other=bob)
    lobby.join(game_id=game.pk, user=carol)
    blocking.unblock(by=alice, other=bob)
    lobby.join(game_id=game.pk, user=bob)
    assert Membership.objects.filter(game=game, seat__isnull=False).count() == 3
    assert not Block.objects.exists()


def test_stand_in_invitation_refused(alice, bob, carol):
    from games.services import stand_ins
    from tests.games.conftest import start_table

    game = start_table([alice, bob], bots=1)
    blocking.block(by=carol, other=alice)
    with pytest.raises(lobby.LobbyRefused) as refused:
        stand_ins.invite_stand_in(game_id=game.pk, by=alice, username="carol")
    assert refused.value.status == 403


@pytest.mark.parametrize("who_blocks", ["invitee", "inviter", "organizer"])
def test_invitation_made_before_a_block_cannot_be_accepted(alice, bob, carol, who_blocks):
    """An invitation by name made before a block (between the invitee and its inviter, or
    the game's organizer) no longer seats them; the refusal is neutral, the invitation stays
    pending (declining still works), and others are unaffected."""
    game = lobby.create_game(organizer=alice, name="Cards", public=False, max_players=4)
    lobby.invite(game_id=game.pk, by=alice, username="carol")
    lobby.accept(game_id=game.pk, user=carol)
    lobby.invite(game_id=game.pk, by=carol, username="bob")
    blockers = {"invitee": (bob, carol), "inviter": (carol, bob), "organizer": (alice, bob)}
    by, other = blockers[who_blocks]
    blocking.block(by=by, other=other)
    response = logged_in_client(bob).post(reverse("accept", args=[game.pk]), headers=HX)
    refused_neutrally(response, "You cannot join this game.")
    member = Membership.objects.get(game=game, user=bob)
    assert member.seat is None and member.role == Membership.Role.INVITEE
    lobby.decline(game_id=game.pk, user=bob)
    assert not Membership.objects.filter(game=game, user=bob).exists()


def test_invitation_accepted_when_the_block_is_elsewhere(alice, bob, carol):
    game = lobby.create_game(organizer=alice, name="Cards", public=False, max_players=4)
    lobby.invite(game_id=game.pk, by=alice, username="bob")
    blocking.block(by=bob, other=carol)  # carol is not in this game
    lobby.accept(game_id=game.pk, user=bob)
    assert Membership.objects.get(game=game, user=bob).seat is not None
