"""Lobby services, per persona: alice (organizer), bob (player), carol (invitee), dave
(outsider): invite links (making, following, using up, revoking, expiring). Every refusal
raises with a player-facing message and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Invitation, Membership
from games.services import lobby
from tests.conftest import make_user
from tests.games.lobby_helpers import refused, seats, state_of

pytestmark = pytest.mark.django_db


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
