"""games.services.absence and games.services.stand_ins: getting past an absent player, by
replace.

The organizer invites a stand-in (by name or by link while the game is on) and gives an
absent player's seat to them; the newcomer plays that seat, hand and all. Only the organizer
replaces, only an absent player, only with an invitee.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.kinds.hundred_and_ten import engine
from games.models import Invitation, Membership
from games.services import absence, lobby, stand_ins, states, table
from games.services.absence import NotOrganizer
from games.services.errors import NotAPlayer, RefusedMove, UnreadableMove
from games.services.lobby import Conflict, NotAllowed
from tests.conftest import HX, logged_in_client
from tests.games.conftest import T0, active_seat, bid_choice, gone, member, url

# --- stand-ins and replace ------------------------------------------------------------------


def test_the_organizer_invites_a_stand_in_while_the_game_is_on(
    three, alice, bob, dave, pushes, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invitation = stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")
    stand_in = member(three, dave)
    assert stand_in.role == Membership.Role.INVITEE and stand_in.seat is None
    assert invitation.state == Invitation.State.PENDING and invitation.invitee == dave
    assert ("invitation_received", (dave.pk, invitation.pk)) in pushes
    with pytest.raises(NotAllowed):  # a stand-in is the organizer's call
        stand_ins.invite_stand_in(game_id=three.pk, by=bob, username="dave")
    with pytest.raises(Conflict):  # already invited
        stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")
    with pytest.raises(Conflict):  # the ordinary invitation still waits for the start
        lobby.invite(game_id=three.pk, by=alice, username="dave")
    with pytest.raises(Conflict, match="under way"):  # accepting is the organizer's call
        lobby.accept(game_id=three.pk, user=dave)
    lobby.decline(game_id=three.pk, user=dave)  # declining works as before the start
    assert not Membership.objects.filter(game=three, user=dave).exists()
    assert Invitation.objects.get(pk=invitation.pk).state == Invitation.State.DECLINED


def test_stand_ins_are_invited_only_during_the_game(alice, bob, dave):
    waiting = lobby.create_game(organizer=alice, name="Later", public=False, max_players=2)
    with pytest.raises(Conflict):
        stand_ins.invite_stand_in(game_id=waiting.pk, by=alice, username="dave")
    with pytest.raises(Conflict):
        stand_ins.create_stand_in_link(game_id=waiting.pk, by=alice)


def test_replace_gives_the_seat_and_its_hand_to_the_stand_in(three, alice, bob, dave, clock):
    stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")
    gone(three, bob, clock, T0)
    clock.at = T0 + 121
    state = states.load_state(three)
    absence.replace(
        game_id=three.pk, by=alice, seat=1, invitee_membership_id=member(three, dave).pk
    )
    newcomer = member(three, dave)
    assert (newcomer.role, newcomer.seat, newcomer.must_act) == ("player", 1, True)
    assert not Membership.objects.filter(game=three, user=bob).exists()
    assert Invitation.objects.get(game=three, invitee=dave).state == Invitation.State.ACCEPTED
    html = logged_in_client(dave).get(url("table", three), headers=HX).content.decode()
    for card in state.hands[1]:
        assert f'data-card="{engine.format_card(card)}"' in html
    three.refresh_from_db()
    table.submit_move(game_id=three.pk, user=dave, choice=bid_choice(0), seen_version=three.version)
    assert active_seat(three) == 2
    assert logged_in_client(bob).get(url("table", three)).status_code == 404  # private


def test_replace_a_covered_seat_hands_it_back_to_a_human(three, alice, bob, dave):
    absence.cover(game_id=three.pk, by=alice, seat=1)
    stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")
    absence.replace(
        game_id=three.pk, by=alice, seat=1, invitee_membership_id=member(three, dave).pk
    )
    newcomer = member(three, dave)
    assert newcomer.seat == 1 and not newcomer.automated and newcomer.cover_note == ""


def test_only_the_organizer_replaces_and_only_an_absent_player(
    three, alice, bob, carol, dave, clock
):
    stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")
    stand_in = member(three, dave).pk
    with pytest.raises(NotOrganizer) as refused:
        absence.replace(game_id=three.pk, by=carol, seat=1, invitee_membership_id=stand_in)
    assert refused.value.status == 403
    with pytest.raises(NotAPlayer):
        absence.replace(game_id=three.pk, by=dave, seat=1, invitee_membership_id=stand_in)
    gone(three, bob, clock, T0)
    clock.at = T0 + 60
    with pytest.raises(RefusedMove, match="only 1 min; you can give the seat away after 2 min"):
        absence.replace(game_id=three.pk, by=alice, seat=1, invitee_membership_id=stand_in)
    with pytest.raises(RefusedMove, match="your own seat"):
        absence.replace(game_id=three.pk, by=alice, seat=0, invitee_membership_id=stand_in)
    with pytest.raises(UnreadableMove):  # carol plays; she is no invitee
        absence.replace(
            game_id=three.pk, by=alice, seat=1, invitee_membership_id=member(three, carol).pk
        )
    with pytest.raises(UnreadableMove):
        absence.replace(game_id=three.pk, by=alice, seat=1, invitee_membership_id=999999)
    assert member(three, bob).seat == 1


def test_a_stand_in_link_makes_its_follower_an_invitee_of_the_game(three, alice, bob, dave):
    link = stand_ins.create_stand_in_link(game_id=three.pk, by=alice)
    response = logged_in_client(dave).get(reverse("invite-link-landing", args=[link.token]))
    assert response.status_code == 302
    stand_in = member(three, dave)
    assert stand_in.role == Membership.Role.INVITEE
    link.refresh_from_db()
    assert link.invitee == dave and link.state == Invitation.State.PENDING
    absence.replace(game_id=three.pk, by=alice, seat=1, invitee_membership_id=stand_in.pk)
    assert member(three, dave).seat == 1
    link.refresh_from_db()
    assert link.state == Invitation.State.ACCEPTED
