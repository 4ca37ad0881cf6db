"""games.services.absence and its views: getting past an absent player.

* cover: after the grace time away (a player who never opened the table counts as away long
  enough), any other seated player asks a bot to play the seat; it plays at once on its turn.
* replace: the organizer gives an absent player's seat to an invitee (invited by name or by
  link while the game is on); the newcomer plays that seat, hand and all.
* abandon: the organizer ends a game once every other human has been away 15 min (at once
  with nobody else human); an abandoned game takes no moves and says who abandoned it.
* who may do what (403/422), bad seats and ids (4xx, never 500), and what the table offers.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import presence, registry
from games.kinds.hundred_and_ten import engine
from games.models import Game, GameAction, Invitation, Membership
from games.services import absence, lobby, stand_ins, table
from games.services.absence import NotOrganizer
from games.services.lobby import Conflict, NotAllowed
from games.services.table import NotAPlayer, RefusedMove, UnreadableMove
from tests.conftest import logged_in_client
from tests.games.conftest import active_seat, bid_choice, start_table

T0 = 1_700_000_000.0
HX = {"HX-Request": "true"}


@pytest.fixture
def clock(monkeypatch):
    """presence's clock, set by the test: clock.at = seconds since the epoch."""

    class Clock:
        at = T0

    monkeypatch.setattr(presence, "now", lambda: Clock.at)
    return Clock


@pytest.fixture
def three(alice, bob, carol):
    """alice (organizer, seat 0, dealer), bob (seat 1, first to bid), carol (seat 2)."""
    return start_table([alice, bob, carol], seed="absence")


def here(game, user):
    presence.join(game.pk, user.pk)


def gone(game, user, clock, at):
    """`user` had the table open and left it at `at`."""
    clock.at = at
    presence.join(game.pk, user.pk)
    presence.leave(game.pk, user.pk)


def member(game, user):
    return Membership.objects.get(game=game, user=user)


def url(name, game):
    return reverse(name, kwargs={"game_id": game.pk})


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
    state = table.load_state(three)
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


# --- abandon ------------------------------------------------------------------------------


def test_abandon_waits_until_everybody_else_has_been_away_long_enough(
    three, alice, bob, carol, clock, pushes, django_capture_on_commit_callbacks
):
    here(three, bob)
    with pytest.raises(RefusedMove, match="Bob is at the table"):
        absence.abandon(game_id=three.pk, by=alice)
    presence.leave(three.pk, bob.pk)  # left at T0
    clock.at = T0 + 10 * 60
    with pytest.raises(RefusedMove) as refused:
        absence.abandon(game_id=three.pk, by=alice)
    assert refused.value.message == (
        "Bob has been away only 10 min; you can abandon the game after 15 min."
    )
    clock.at = T0 + 15 * 60
    with django_capture_on_commit_callbacks(execute=True):
        absence.abandon(game_id=three.pk, by=alice)  # carol never came: away long enough
    three.refresh_from_db()
    assert three.status == Game.Status.ABANDONED and three.finished_at is not None
    assert not Membership.objects.filter(game=three, must_act=True).exists()
    assert not Membership.objects.filter(game=three, deadline__isnull=False).exists()
    assert ("game_changed", (three.pk, three.version)) in pushes
    assert any(name == "lobby_changed" for name, _ in pushes)


def test_abandon_at_once_with_only_bots_left(alice):
    game = start_table([alice], bots=2, seed="alone")
    here(game, alice)
    absence.abandon(game_id=game.pk, by=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


def test_only_the_organizer_abandons_a_game_in_progress(three, alice, bob, dave):
    with pytest.raises(NotOrganizer):
        absence.abandon(game_id=three.pk, by=bob)
    with pytest.raises(NotAPlayer):
        absence.abandon(game_id=three.pk, by=dave)
    absence.abandon(game_id=three.pk, by=alice)
    with pytest.raises(RefusedMove):
        absence.abandon(game_id=three.pk, by=alice)


def test_moves_on_an_abandoned_game_are_refused(three, alice, bob):
    absence.abandon(game_id=three.pk, by=alice)
    three.refresh_from_db()
    with pytest.raises(RefusedMove) as refused:
        table.submit_move(
            game_id=three.pk, user=bob, choice=bid_choice(0), seen_version=three.version
        )
    assert refused.value.status == 422
    assert not GameAction.objects.filter(game=three).exists()


def test_an_abandoned_table_says_who_abandoned_it_and_offers_no_play(three, alice, bob):
    absence.abandon(game_id=three.pk, by=alice)
    html = logged_in_client(bob).get(url("table", three), headers=HX).content.decode()
    assert "Abandoned by Alice." in html
    assert 'id="automate-button"' not in html and "your turn" not in html
    assert 'name="amount"' not in html  # no bidding controls
    assert "Abandon this game" not in html and "Ask a bot to cover" not in html


# --- what the table offers ------------------------------------------------------------------


def test_the_table_offers_cover_for_a_disconnected_player_even_before_the_grace_time(
    three, alice, bob, carol, clock
):
    here(three, alice)
    here(three, carol)
    gone(three, bob, clock, T0)
    clock.at = T0 + 30
    offers = absence.offers(
        three, table.memberships(three), member(three, carol), presence.presence_of(three.pk)
    )
    assert offers is not None
    assert [(s.seat, s.name, s.cover, s.replace, s.early) for s in offers.seats] == [
        (1, "Bob", True, False, True)
    ]
    assert not offers.abandon and not offers.invite  # carol is not the organizer
    html = logged_in_client(carol).get(url("table", three), headers=HX).content.decode()
    assert "Ask a bot to cover Bob" in html and "Ask a bot to cover Alice" not in html
    assert "possible once away 2 min" in html


def test_the_organizer_is_offered_stand_ins_and_abandon_when_everyone_is_gone(
    three, alice, bob, carol, dave
):
    stand_ins.invite_stand_in(game_id=three.pk, by=alice, username="dave")
    offers = absence.offers(
        three, table.memberships(three), member(three, alice), presence.presence_of(three.pk)
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
    members = table.memberships(three)
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
