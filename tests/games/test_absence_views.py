"""games.services.absence: what the table offers (cover, replace, abandon, inviting a
stand-in) and to whom, and the views: who may do what (403/422), bad seats and ids (4xx,
never 500), the stand-in views, and every game's abandoned table.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import registry
from games.live import presence
from games.models import Invitation, Membership
from games.services import absence, stand_ins, states
from tests.conftest import HX, logged_in_client
from tests.games.conftest import T0, gone, here, member, start_table, url

# --- what the table offers ------------------------------------------------------------------


def test_the_table_offers_cover_for_a_disconnected_player_even_before_the_grace_time(
    three, alice, bob, carol, clock
):
    here(three, alice)
    here(three, carol)
    gone(three, bob, clock, T0)
    clock.at = T0 + 30
    offers = absence.offers(
        three, states.memberships(three), member(three, carol), presence.presence_of(three.pk)
    )
    assert offers is not None
    assert [(s.seat, s.name, s.cover, s.replace, s.early) for s in offers.seats] == [
        (1, "Bob", True, False, True)
    ]
    assert not offers.abandon and not offers.invite  # carol is not the organizer
    html = logged_in_client(carol).get(url("table", three), headers=HX).content.decode()
    assert "Ask a bot to cover Bob" in html and "Ask a bot to cover Alice" not in html
    assert "possible once away 2 min" in html
    # The hint stands by the button it is about, not after "Ask Bob to come back" (which
    # works at once): on a phone each sits on its own line, and it read as the last one's.
    cover = html.index("Ask a bot to cover Bob")
    assert cover < html.index("possible once away 2 min") < html.index("Ask Bob to come back")


def test_the_organizer_is_offered_stand_ins_and_abandon_when_everyone_is_gone(
    three, alice, bob, carol, dave
):
    stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")
    offers = absence.offers(
        three, states.memberships(three), member(three, alice), presence.presence_of(three.pk)
    )
    assert offers is not None
    assert [s.seat for s in offers.seats] == [1, 2]
    assert all(s.replace and s.cover and not s.early for s in offers.seats)
    assert offers.invitees == ((member(three, dave).pk, "Dave"),)
    assert offers.invite and offers.abandon and not offers.abandon_early
    html = logged_in_client(alice).get(url("table", three), headers=HX).content.decode()
    assert "Replace Bob with Dave" in html and "Abandon this game" in html
    assert "Invite a stand-in" in html
    dave_html = logged_in_client(dave).get(url("table", three), headers=HX).content.decode()
    assert "invited as a stand-in" in dave_html


def test_nothing_is_offered_while_everybody_is_here(three, alice, bob, carol):
    for user in (alice, bob, carol):
        here(three, user)
    members = states.memberships(three)
    for user in (alice, bob, carol):
        assert (
            absence.offers(three, members, member(three, user), presence.presence_of(three.pk))
            is None
        )


# --- the views ----------------------------------------------------------------------------


def test_cover_through_the_view(three, alice, bob):
    client = logged_in_client(alice)
    response = client.post(url("cover", three), {"seat": "1"}, headers=HX)
    assert response.status_code == 200
    assert 'id="table"' in response.content.decode()
    assert member(three, bob).automated
    plain = client.post(url("cover", three), {"seat": "1"})  # covered already: the page says so
    assert plain.status_code == 422 and "already" in plain.content.decode()


def test_a_plain_post_is_redirected_to_the_table(three, alice):
    response = logged_in_client(alice).post(url("abandon", three))
    assert response.status_code == 302 and response["Location"] == url("table", three)


@pytest.mark.parametrize(
    ("name", "data", "status"),
    [
        ("cover", {}, 400),
        ("cover", {"seat": "x"}, 400),
        ("cover", {"seat": "１"}, 400),
        ("cover", {"seat": "99999999999999999999"}, 400),
        ("cover", {"seat": "9"}, 400),
        ("replace", {"seat": "1"}, 400),
        ("replace", {"seat": "1", "invitee": "abc"}, 400),
        ("replace", {"seat": "1", "invitee": "424242"}, 400),
        ("stand-in-invite", {}, 400),
        ("stand-in-invite", {"username": "nobody-here"}, 400),
    ],
)
def test_bad_seats_and_ids_get_a_4xx_with_the_table(three, alice, name, data, status):
    response = logged_in_client(alice).post(url(name, three), data, headers=HX)
    assert response.status_code == status
    assert 'id="table"' in response.content.decode()


def test_who_may_not_gets_a_403_and_outsiders_of_a_private_game_a_404(three, bob, dave):
    assert logged_in_client(bob).post(url("abandon", three), headers=HX).status_code == 403
    assert logged_in_client(bob).post(url("stand-in-link", three), headers=HX).status_code == 403
    for name in ("cover", "replace", "abandon", "stand-in-invite", "stand-in-link"):
        assert logged_in_client(dave).post(url(name, three), headers=HX).status_code == 404
    missing = reverse("cover", kwargs={"game_id": 999999})
    assert logged_in_client(bob).post(missing, {"seat": "1"}, headers=HX).status_code == 404
    assert logged_in_client(bob).get(url("cover", three)).status_code == 405


def test_the_stand_in_views_invite_and_make_links(three, alice, dave):
    client = logged_in_client(alice)
    response = client.post(url("stand-in-invite", three), {"username": "dave"}, headers=HX)
    assert response.status_code == 200
    assert member(three, dave).role == Membership.Role.INVITEE
    response = client.post(url("stand-in-link", three), headers=HX)
    assert response.status_code == 200
    link = Invitation.objects.get(game=three, token__isnull=False)
    assert f"/invite/{link.token}/" in response.content.decode()  # shown to copy


@pytest.mark.parametrize("slug", sorted(registry.REGISTRY))
def test_every_game_draws_its_abandoned_table(slug, alice, bob):
    kind = registry.kind(slug)
    seats = min(kind.seat_counts)
    game = start_table([alice, bob], bots=seats - 2, kind=slug, seed=f"abandon-{slug}")
    absence.abandon(game_id=game.pk, by=alice)
    for user in (alice, bob):
        response = logged_in_client(user).get(url("table", game))
        assert response.status_code == 200
        html = response.content.decode()
        assert "Abandoned by Alice." in html and "is-my-turn" not in html
