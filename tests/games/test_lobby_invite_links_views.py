"""Lobby pages and endpoints, per persona: alice (organizer), bob (player), carol (invitee),
dave (outsider). Invite links: making one, following it signed in or out, signing up
through it, used, revoked, expired and unknown links, the live list of links. Each asserts
the HTML that persona gets and the database effect; refused requests show a message and
change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Invitation, Membership
from games.services import lobby
from tests.conftest import HX, logged_in_client, make_user
from tests.games.lobby_helpers import FROM_INVITE_BOX, snapshot, text

pytestmark = pytest.mark.django_db


# --- invite links --------------------------------------------------------------------------


def test_bob_creates_a_link_and_sees_it_ready_to_copy(friday, bob):
    response = logged_in_client(bob).post(
        reverse("invite-link", args=[friday.pk]), headers=FROM_INVITE_BOX
    )
    assert response.status_code == 200
    link = Invitation.objects.get(game=friday, token__isnull=False)
    html = text(response)
    assert reverse("invite-link-landing", args=[link.token]) in html
    assert "data-copy=" in html and "readonly" in html
    assert "A new invite link is ready" in html
    assert "Revoke this link" not in html  # only the organizer revokes
    alice_html = text(
        logged_in_client(friday.organizer).get(reverse("waiting-room", args=[friday.pk]))
    )
    assert link.token in alice_html and "Revoke this link" in alice_html


def test_a_signed_out_visitor_following_a_link_is_asked_to_sign_up_and_come_back(
    friday, alice, client
):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    here = reverse("invite-link-landing", args=[link.token])
    before = snapshot(friday)
    response = client.get(here)
    assert response.status_code == 200
    html = text(response)
    assert "invited to a game" in html
    assert f"{reverse('account_signup')}?next=%2Finvite%2F{link.token}%2F" in html
    assert f"{reverse('account_login')}?next=%2Finvite%2F{link.token}%2F" in html
    assert "Friday" not in html
    assert snapshot(friday) == before  # nothing is used up by a signed-out visit


def test_the_headers_sign_up_and_sign_in_links_keep_the_invitation_too(friday, alice, client):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    html = text(client.get(reverse("invite-link-landing", args=[link.token])))
    header = html.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]
    back = f"?next=%2Finvite%2F{link.token}%2F"
    assert f'href="{reverse("account_signup")}{back}"' in header
    assert f'href="{reverse("account_login")}{back}"' in header
    # ...and on the sign-up page it leads to, the header's "Sign in" still does.
    signup = text(client.get(f"{reverse('account_signup')}{back}"))
    header = signup.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]
    assert f"{reverse('account_login')}{back}" in header


def test_signing_up_through_the_link_lands_in_the_waiting_room(friday, alice, client):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    here = reverse("invite-link-landing", args=[link.token])
    response = client.post(
        f"{reverse('account_signup')}?next={here}",
        {
            "username": "erin",
            "password1": "a-long-password-42",
            "password2": "a-long-password-42",
            "next": here,
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("waiting-room", args=[friday.pk])
    html = text(response)
    assert "Leave game" in html and ">Accept<" not in html  # seated: no Accept step
    erin = Membership.objects.get(game=friday, user__username="erin")
    assert (erin.role, erin.seat) == ("player", 2)


def test_dave_following_a_link_takes_a_seat(friday, alice, dave):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    response = logged_in_client(dave).get(reverse("invite-link-landing", args=[link.token]))
    assert response.status_code == 302
    assert response["Location"] == reverse("waiting-room", args=[friday.pk])
    assert Membership.objects.get(game=friday, user=dave).role == "player"


def test_used_revoked_expired_and_unknown_links_show_a_clear_page(friday, alice, dave, client):
    used = lobby.create_invite_link(game_id=friday.pk, by=alice)
    lobby.use_invite_link(token=str(used.token), user=dave)
    revoked = lobby.create_invite_link(game_id=friday.pk, by=alice)
    lobby.revoke_invitation(game_id=friday.pk, by=alice, invitation_id=revoked.pk)
    expired = lobby.create_invite_link(game_id=friday.pk, by=alice)
    Invitation.objects.filter(pk=expired.pk).update(expires_at="2000-01-01T00:00:00Z")
    erin = logged_in_client(make_user("erin"))
    before = snapshot(friday)
    cases = [
        (used.token, 410, "already been used"),
        (revoked.token, 410, "revoked"),
        (expired.token, 410, "expired"),
        ("not-a-token", 404, "does not exist"),
    ]
    for visitor in (erin, client):
        for token, status, words in cases:
            response = visitor.get(reverse("invite-link-landing", args=[token]))
            assert response.status_code == status, token
            assert words in text(response) and "This link doesn" in text(response)
    assert snapshot(friday) == before


def test_the_link_list_refreshes_after_a_room_push(friday, alice, bob, carol, dave):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    url = reverse("waiting-room", args=[friday.pk]) + "?part=invite-links"
    html = text(logged_in_client(alice).get(url, headers=HX))
    assert html.lstrip().startswith('<div id="invite-links"') and link.token in html
    bob_html = text(logged_in_client(bob).get(url, headers=HX))
    assert link.token not in bob_html and "Create another link" not in bob_html
    lobby.use_invite_link(token=str(link.token), user=dave)
    html = text(logged_in_client(alice).get(url, headers=HX))
    assert link.token not in html and "Create invite link" in html
    assert logged_in_client(carol).get(url, headers=HX).status_code == 204
    outsider = logged_in_client(make_user("erin")).get(url, headers=HX)
    assert outsider.status_code == 404 and outsider.content == b""


def test_the_organizer_revokes_a_link(friday, alice):
    link = lobby.create_invite_link(game_id=friday.pk, by=alice)
    client = logged_in_client(alice)
    assert link.token in text(client.get(reverse("waiting-room", args=[friday.pk])))
    response = client.post(
        reverse("revoke-invitation", args=[friday.pk, link.pk]), headers=FROM_INVITE_BOX
    )
    assert response.status_code == 200
    assert "The invitation is revoked." in text(response)
    assert link.token not in text(response)
    assert Invitation.objects.get(pk=link.pk).state == "revoked"
