"""Lobby pages and endpoints, per persona: alice (organizer), bob (player), carol (invitee),
dave (outsider). Each asserts the HTML that persona gets and the database effect; refused
requests show a message and change nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import registry
from games.models import Game, Invitation, Membership
from games.services import lobby
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import active_seat

pytestmark = pytest.mark.django_db

# htmx request headers, as the buttons in each partial send them.
HTMX = {"HX-Request": "true", "HX-Target": "room"}
FROM_LOBBY = {"HX-Request": "true", "HX-Target": "lobby-lists"}
FROM_INVITE_BOX = {"HX-Request": "true", "HX-Target": "invite-box"}


def snapshot(game):
    game.refresh_from_db()
    members = sorted(
        Membership.objects.filter(game=game).values_list("user_id", "bot_name", "role", "seat"),
        key=str,
    )
    invitations = sorted(
        Invitation.objects.filter(game=game).values_list("pk", "invitee_id", "state"), key=str
    )
    return game.version, game.status, members, invitations


def text(response):
    return response.content.decode()


def section(html, heading):
    """The HTML of the lobby section titled `heading`."""
    match = re.search(rf"<h2[^>]*>{heading}</h2>(.*?)</section>", html, re.S)
    assert match, heading
    return match.group(1)


def endpoints(game, membership_id, invitation_id):
    posts = [
        reverse("invite", args=[game.pk]),
        reverse("invite-link", args=[game.pk]),
        reverse("revoke-invitation", args=[game.pk, invitation_id]),
        reverse("accept", args=[game.pk]),
        reverse("decline", args=[game.pk]),
        reverse("join", args=[game.pk]),
        reverse("leave", args=[game.pk]),
        reverse("add-bot", args=[game.pk]),
        reverse("remove", args=[game.pk, membership_id]),
        reverse("start", args=[game.pk]),
    ]
    gets = [
        reverse("waiting-room", args=[game.pk]),
        reverse("user-search", args=[game.pk]) + "?q=a",
    ]
    return gets, posts


# --- lobby home ----------------------------------------------------------------------------


def test_the_lobby_lists_each_personas_games_in_order(friday, alice, bob, carol, dave):
    open_game = lobby.create_game(
        organizer=dave, name="Dave's open table", public=True, max_players=2
    )
    html = text(logged_in_client(carol).get(reverse("lobby")))
    headings = re.findall(r"<h2[^>]*>([^<]+)</h2>", html)
    assert headings == [
        "Your turn",
        "Your games in progress",
        "Invitations",
        "Waiting to start",
        "Open public games",
        "Watch a game",
        "Past games",
    ]
    invitations = section(html, "Invitations")
    assert "Friday cards" in invitations and "invited by Alice" in invitations
    assert reverse("accept", args=[friday.pk]) in invitations
    assert reverse("decline", args=[friday.pk]) in invitations
    assert "Dave&#x27;s open table" in section(html, "Open public games")
    assert reverse("join", args=[open_game.pk]) in html

    bob_html = text(logged_in_client(bob).get(reverse("lobby")))
    assert "Friday cards" in section(bob_html, "Waiting to start")
    # The names link to the player pages: the text between the links reads "Alice, Bob".
    assert "Alice, Bob" in re.sub(r"<[^>]+>", "", section(bob_html, "Waiting to start"))
    assert "Friday cards" not in section(bob_html, "Invitations")

    dave_html = text(logged_in_client(dave).get(reverse("lobby")))
    assert "Friday cards" not in dave_html  # private means private
    assert "Dave&#x27;s open table" not in section(dave_html, "Open public games")  # his own
    assert "New game" in dave_html


def test_the_lobby_shows_whose_turn_it_is(friday, alice, bob):
    lobby.start_game(game_id=friday.pk, by=alice)
    friday.refresh_from_db()
    seat_user = {0: alice, 1: bob}[active_seat(friday)]
    other = bob if seat_user == alice else alice
    turn_html = text(logged_in_client(seat_user).get(reverse("lobby")))
    assert "Friday cards" in section(turn_html, "Your turn")
    assert reverse("table", args=[friday.pk]) in section(turn_html, "Your turn")
    other_html = text(logged_in_client(other).get(reverse("lobby")))
    assert "Friday cards" in section(other_html, "Your games in progress")
    assert f"{seat_user.shown_name} to play" in section(other_html, "Your games in progress")
    assert "Friday cards" not in section(other_html, "Your turn")


def test_a_game_on_your_turn_is_not_called_no_games_under_way(friday, alice, bob):
    lobby.start_game(game_id=friday.pk, by=alice)
    friday.refresh_from_db()
    seat_user = {0: alice, 1: bob}[active_seat(friday)]
    html = text(logged_in_client(seat_user).get(reverse("lobby")))
    assert "Friday cards" in section(html, "Your turn")
    progress = section(html, "Your games in progress")
    assert "No games under way" not in progress
    assert "No other games under way" in progress


def test_an_empty_lobby_has_friendly_empty_states(dave):
    html = text(logged_in_client(dave).get(reverse("lobby")))
    assert "Nobody is waiting for you" in html
    assert "No invitations right now" in html
    assert 'id="lobby-lists"' in html


def test_the_lobby_lists_partial_is_just_the_lists(friday, carol):
    response = logged_in_client(carol).get(reverse("lobby-lists"))
    html = text(response)
    assert html.lstrip().startswith('<div id="lobby-lists"')
    assert "<html" not in html and "Friday cards" in html


def test_the_lobby_does_not_query_per_game(alice, bob, django_assert_max_num_queries):
    for n in range(6):
        game = lobby.create_game(organizer=alice, name=f"G{n}", public=True, max_players=4)
        lobby.join(game_id=game.pk, user=bob)
    from games.views.lobby import lobby_context

    with django_assert_max_num_queries(12):
        context = lobby_context(bob)
    assert len(context["waiting"]) == 6


def test_a_signed_out_visitor_is_sent_to_sign_in(client):
    response = client.get(reverse("lobby-lists"))  # "/" itself is the landing page
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


# --- accept / decline / join from the lobby ------------------------------------------------


def test_carol_accepts_from_her_lobby_and_gets_the_lists_back(friday, carol):
    response = logged_in_client(carol).post(reverse("accept", args=[friday.pk]), headers=FROM_LOBBY)
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="lobby-lists"')
    assert "Friday cards" in section(html, "Waiting to start")
    assert Membership.objects.get(game=friday, user=carol).seat == 2


def test_carol_declines_from_her_lobby(friday, carol):
    response = logged_in_client(carol).post(
        reverse("decline", args=[friday.pk]), headers=FROM_LOBBY
    )
    assert response.status_code == 200
    assert "Friday cards" not in text(response)
    assert not Membership.objects.filter(game=friday, user=carol).exists()


def test_joining_a_full_public_game_from_the_lobby_shows_why(alice, bob, dave):
    game = lobby.create_game(organizer=alice, name="Duo", public=True, max_players=2)
    lobby.join(game_id=game.pk, user=bob)
    before = snapshot(game)
    response = logged_in_client(dave).post(reverse("join", args=[game.pk]), headers=FROM_LOBBY)
    assert response.status_code == 409
    assert "This game is full." in text(response)
    assert snapshot(game) == before


# --- new game ------------------------------------------------------------------------------


def test_a_new_game_form_leads_to_its_waiting_room(dave):
    client = logged_in_client(dave)
    page = text(client.get(reverse("new-game")))
    assert "Private: only people you invite" in page and "4 players" in page
    response = client.post(
        reverse("new-game"), {"name": "Sunday", "visibility": "public", "max_players": "3"}
    )
    game = Game.objects.get(name="Sunday")
    assert response.status_code == 302
    assert response["Location"] == reverse("waiting-room", args=[game.pk])
    assert game.public and game.max_players == 3 and game.organizer == dave


def test_a_database_too_busy_to_create_the_game_gets_a_503_page_not_a_500(dave, monkeypatch):
    from django.db import OperationalError

    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(lobby, "create_game", locked)
    response = logged_in_client(dave).post(
        reverse("new-game"), {"name": "Sunday", "visibility": "public", "max_players": "3"}
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "The server is busy right now and nothing was changed." in response.content.decode()
    assert not Game.objects.filter(name="Sunday").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "", "visibility": "private", "max_players": "4"}, "Give the game a name."),
        ({"name": "x", "visibility": "secret", "max_players": "4"}, "Choose private or public."),
        (
            {"name": "x", "visibility": "private", "max_players": "5"},
            "Hundred and Ten is played by 2 to 4 players.",
        ),
        (
            {"name": "x", "visibility": "private", "max_players": "two"},
            "Hundred and Ten is played by 2 to 4 players.",
        ),
    ],
)
def test_a_bad_new_game_form_says_what_is_wrong(dave, data, message):
    response = logged_in_client(dave).post(reverse("new-game"), data)
    assert response.status_code == 400
    assert message in text(response)
    assert not Game.objects.exists()


# --- the waiting room, per persona ---------------------------------------------------------


def test_alice_sees_every_organizer_control(friday, alice):
    html = text(logged_in_client(alice).get(reverse("waiting-room", args=[friday.pk])))
    assert 'id="room"' in html and "Friday cards" in html
    assert "Organizer" in html and "Player" in html and "Empty seat" in html
    bob_seat = Membership.objects.get(game=friday, user__username="bob")
    assert reverse("remove", args=[friday.pk, bob_seat.pk]) in html
    assert "Add a bot to seat 3" in html
    assert "Start game</button>" in html and "disabled" not in html.split("Start game")[0][-200:]
    assert "Carol" in html and "pending" in html
    assert reverse("user-search", args=[friday.pk]) in html
    assert 'hx-trigger="input changed delay:250ms' in html
    assert "Create invite link" in html


def test_bob_may_invite_and_leave_but_not_manage(friday, bob):
    html = text(logged_in_client(bob).get(reverse("waiting-room", args=[friday.pk])))
    assert "Leave game" in html and "Invite friends" in html
    assert "Add a bot" not in html and ">Remove<" not in html and "Start game" not in html
    assert "Alice starts the game" in html


def test_carol_sees_accept_and_decline(friday, carol):
    html = text(logged_in_client(carol).get(reverse("waiting-room", args=[friday.pk])))
    assert "<strong>Alice</strong> invited you to play" in html
    assert reverse("accept", args=[friday.pk]) in html
    assert reverse("decline", args=[friday.pk]) in html
    assert "Invite friends" not in html and "Leave game" not in html


def test_an_invitee_sees_who_invited_her(friday, bob, dave):
    lobby.invite(game_id=friday.pk, by=bob, username="dave")
    html = text(logged_in_client(dave).get(reverse("waiting-room", args=[friday.pk])))
    assert "<strong>Bob</strong> invited you to play" in html


def test_an_outsider_of_a_public_game_sees_a_join_button(alice, dave):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=2)
    html = text(logged_in_client(dave).get(reverse("waiting-room", args=[game.pk])))
    assert reverse("join", args=[game.pk]) in html
    assert "Invite friends" not in html and "Create invite link" not in html


def test_the_start_button_is_disabled_alone(alice):
    game = lobby.create_game(organizer=alice, name="Alone", public=False, max_players=4)
    html = text(logged_in_client(alice).get(reverse("waiting-room", args=[game.pk])))
    assert re.search(r"<button[^>]*disabled[^>]*>Start game</button>", html)
    assert "Hundred and Ten starts with 2 to 4 players" in html


def test_dave_gets_a_404_from_every_endpoint_of_a_private_game(friday, alice, dave):
    membership = Membership.objects.get(game=friday, user=alice)
    invitation = Invitation.objects.get(game=friday, invitee__username="carol")
    gets, posts = endpoints(friday, membership.pk, invitation.pk)
    client = logged_in_client(dave)
    before = snapshot(friday)
    for url in gets:
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Friday" not in text(response)
    for url in posts:
        for headers in ({}, HTMX, FROM_LOBBY):
            response = client.post(url, {"username": "bob", "seat": "2"}, headers=headers)
            assert response.status_code == 404, (url, headers)
            assert "Friday" not in text(response)
    assert snapshot(friday) == before


def test_the_waiting_room_of_a_missing_game_is_a_404(dave):
    assert logged_in_client(dave).get(reverse("waiting-room", args=[424242])).status_code == 404


def test_lobby_actions_refuse_get(friday, alice):
    client = logged_in_client(alice)
    assert client.get(reverse("start", args=[friday.pk])).status_code == 405
    assert client.get(reverse("invite", args=[friday.pk])).status_code == 405


# --- inviting ------------------------------------------------------------------------------


def test_alice_invites_dave_by_name_and_the_room_shows_him_pending(friday, alice, dave):
    response = logged_in_client(alice).post(
        reverse("invite", args=[friday.pk]), {"username": "dave"}, headers=HTMX
    )
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<section id="room"')
    assert "Dave" in html and "pending" in html
    assert Membership.objects.get(game=friday, user=dave).role == "invitee"


@pytest.mark.parametrize(
    ("username", "status", "message"),
    [
        ("nobody", 400, "There is nobody called “nobody”."),
        ("carol", 409, "They have already been invited."),
        ("bob", 409, "They are already playing in this game."),
        ("", 400, "Type the username of the person to invite."),
    ],
)
def test_bad_invitations_show_a_message_and_change_nothing(
    friday, alice, username, status, message
):
    before = snapshot(friday)
    response = logged_in_client(alice).post(
        reverse("invite", args=[friday.pk]), {"username": username}, headers=HTMX
    )
    assert response.status_code == status
    assert message in text(response) and 'id="room"' in text(response)
    assert snapshot(friday) == before


def test_the_invite_box_answers_with_itself_and_the_room_out_of_band(friday, alice, dave):
    response = logged_in_client(alice).post(
        reverse("invite", args=[friday.pk]), {"username": "dave"}, headers=FROM_INVITE_BOX
    )
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<section id="invite-box"')
    assert "Invited dave." in html
    room = html[html.index('<section id="room"') :]
    assert 'hx-swap-oob="true"' in room.split(">")[0]
    assert "Dave" in room and "pending" in room


def test_a_refusal_in_the_invite_box_shows_there(friday, alice):
    before = snapshot(friday)
    response = logged_in_client(alice).post(
        reverse("invite", args=[friday.pk]), {"username": "nobody"}, headers=FROM_INVITE_BOX
    )
    assert response.status_code == 400
    box = text(response).split('<section id="room"')[0]
    assert "There is nobody called “nobody”." in box and "message-error" in box
    assert snapshot(friday) == before


def test_a_plain_form_refusal_becomes_a_message_after_a_redirect(friday, alice):
    client = logged_in_client(alice)
    response = client.post(reverse("invite", args=[friday.pk]), {"username": "bob"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("waiting-room", args=[friday.pk])
    assert "They are already playing in this game." in text(response)


def test_carol_cannot_invite(friday, carol):
    before = snapshot(friday)
    response = logged_in_client(carol).post(
        reverse("invite", args=[friday.pk]), {"username": "dave"}, headers=HTMX
    )
    assert response.status_code == 403
    assert "Only players of this game can invite." in text(response)
    assert snapshot(friday) == before


def test_user_search_matches_prefixes_and_skips_members(friday, alice):
    make_user("dan")
    erin = make_user("erin")
    erin.display_name = "Daphne"
    erin.save()
    for n in range(10):
        make_user(f"zed{n}")
    client = logged_in_client(alice)
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"q": "da"}))
    assert html.lstrip().startswith('<div id="user-results"')
    assert "@dave" in html and "@dan" in html and "@erin" in html
    assert "@alice" not in html
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"q": "ca"}))
    assert "@carol" not in html  # already invited
    assert "Nobody found" in html
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"q": "zed"}))
    assert html.count('class="user-result"') == 8
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"username": "zed1"}))
    assert "@zed1" in html


def test_an_invitee_cannot_search_users(friday, carol):
    response = logged_in_client(carol).get(reverse("user-search", args=[friday.pk]), {"q": "d"})
    assert response.status_code == 403


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
    html = text(logged_in_client(alice).get(url, headers={"HX-Request": "true"}))
    assert html.lstrip().startswith('<div id="invite-links"') and link.token in html
    bob_html = text(logged_in_client(bob).get(url, headers={"HX-Request": "true"}))
    assert link.token not in bob_html and "Create another link" not in bob_html
    lobby.use_invite_link(token=str(link.token), user=dave)
    html = text(logged_in_client(alice).get(url, headers={"HX-Request": "true"}))
    assert link.token not in html and "Create invite link" in html
    assert logged_in_client(carol).get(url, headers={"HX-Request": "true"}).status_code == 204
    outsider = logged_in_client(make_user("erin")).get(url, headers={"HX-Request": "true"})
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


# --- seats, bots, removal, leaving ---------------------------------------------------------


def test_alice_adds_a_bot_to_an_empty_seat(friday, alice):
    response = logged_in_client(alice).post(
        reverse("add-bot", args=[friday.pk]), {"seat": "3"}, headers=HTMX
    )
    assert response.status_code == 200
    assert "Bot Ada" in text(response)
    assert Membership.objects.get(game=friday, seat=3).bot == "medium"


@pytest.mark.parametrize("kind", sorted(registry.REGISTRY))
def test_the_organizer_picks_each_bots_level_and_the_seats_say_which(alice, kind):
    game = lobby.create_game(organizer=alice, name="Levels", public=False, max_players=4, kind=kind)
    client = logged_in_client(alice)
    url = reverse("add-bot", kwargs={"game_id": game.pk})
    room = client.get(reverse("waiting-room", kwargs={"game_id": game.pk})).content.decode()
    assert "Add a bot to seat 2" in room  # the default: medium
    assert 'name="level" value="easy"' in room and "Add a easy bot to seat 2" not in room
    assert "Add an easy bot to seat 2" in room and "Add a hard bot to seat 2" in room
    for seat, level in ((1, "easy"), (2, "hard")):
        assert client.post(url, {"seat": seat, "level": level}, headers=HTMX).status_code == 200
    answer = client.post(url, {"seat": 3}, headers=HTMX)
    assert answer.status_code == 200
    levels = dict(Membership.objects.filter(game=game, seat__gt=0).values_list("seat", "bot"))
    assert levels == {1: "easy", 2: "hard", 3: "medium"}
    shown = text(answer)
    assert "Easy bot" in shown and "Hard bot" in shown and "Medium bot" in shown
    for bad in ("random", "naive", "wizard", "x" * 40):
        response = client.post(url, {"seat": 1, "level": bad}, headers=HTMX)
        assert response.status_code == 400, bad
    assert Membership.objects.filter(game=game).count() == 4


@pytest.mark.parametrize(
    ("seat", "status", "message"),
    [
        ("1", 409, "That seat is taken."),
        ("9", 400, "That seat does not exist."),
        ("-1", 400, "That seat does not exist."),
        ("two", 400, "That seat does not exist."),
        ("", 400, "Choose a seat."),
    ],
)
def test_forged_seats_are_refused(friday, alice, seat, status, message):
    before = snapshot(friday)
    response = logged_in_client(alice).post(
        reverse("add-bot", args=[friday.pk]), {"seat": seat}, headers=HTMX
    )
    assert response.status_code == status
    assert message in text(response)
    assert snapshot(friday) == before


def test_bob_cannot_add_bots_or_remove_people(friday, alice, bob):
    alice_seat = Membership.objects.get(game=friday, user=alice)
    client = logged_in_client(bob)
    before = snapshot(friday)
    response = client.post(reverse("add-bot", args=[friday.pk]), {"seat": "2"}, headers=HTMX)
    assert response.status_code == 403 and "Only the organizer can add a bot." in text(response)
    response = client.post(reverse("remove", args=[friday.pk, alice_seat.pk]), headers=HTMX)
    assert response.status_code == 403 and "Only the organizer can remove people." in text(response)
    assert snapshot(friday) == before


def test_a_forged_membership_id_gets_a_message(friday, alice):
    before = snapshot(friday)
    response = logged_in_client(alice).post(
        reverse("remove", args=[friday.pk, 987654]), headers=HTMX
    )
    assert response.status_code == 400
    assert "That person is not in this game." in text(response)
    assert snapshot(friday) == before


def test_alice_removes_bob(friday, alice, bob):
    bob_seat = Membership.objects.get(game=friday, user=bob)
    response = logged_in_client(alice).post(
        reverse("remove", args=[friday.pk, bob_seat.pk]), headers=HTMX
    )
    assert response.status_code == 200
    assert not Membership.objects.filter(game=friday, user=bob).exists()
    assert logged_in_client(bob).get(reverse("waiting-room", args=[friday.pk])).status_code == 404


def test_bob_leaves_and_is_sent_back_to_the_lobby(friday, bob):
    response = logged_in_client(bob).post(reverse("leave", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("lobby")
    assert not Membership.objects.filter(game=friday, user=bob).exists()


def test_carol_accepts_in_the_waiting_room(friday, carol):
    response = logged_in_client(carol).post(reverse("accept", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 200
    assert "Leave game" in text(response)
    assert Membership.objects.get(game=friday, user=carol).role == "player"


def test_dave_joins_a_public_game(alice, dave):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=3)
    response = logged_in_client(dave).post(reverse("join", args=[game.pk]))
    assert response.status_code == 302
    assert Membership.objects.get(game=game, user=dave).seat == 1


# --- starting ------------------------------------------------------------------------------


def test_alice_starts_and_everyone_goes_to_the_table(friday, alice, bob):
    response = logged_in_client(alice).post(reverse("start", args=[friday.pk]), headers=HTMX)
    table_url = reverse("table", args=[friday.pk])
    assert response.status_code == 200 and response["HX-Redirect"] == table_url
    friday.refresh_from_db()
    assert friday.status == Game.Status.ACTIVE
    room = logged_in_client(bob).get(reverse("waiting-room", args=[friday.pk]))
    assert room.status_code == 302 and room["Location"] == table_url


def test_bob_cannot_start(friday, bob):
    before = snapshot(friday)
    response = logged_in_client(bob).post(reverse("start", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 403
    assert "Only the organizer can start the game." in text(response)
    assert snapshot(friday) == before


def test_starting_alone_is_refused_in_the_page(alice):
    game = lobby.create_game(organizer=alice, name="Alone", public=False, max_players=4)
    before = snapshot(game)
    response = logged_in_client(alice).post(reverse("start", args=[game.pk]), headers=HTMX)
    assert response.status_code == 409
    assert "At least two players are needed to start." in text(response)
    assert snapshot(game) == before


def test_actions_after_the_start_get_409_not_500(friday, alice, bob):
    lobby.start_game(game_id=friday.pk, by=alice)
    before = snapshot(friday)
    client = logged_in_client(bob)
    response = client.post(reverse("leave", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 409 and "already started" in text(response)
    response = logged_in_client(alice).post(
        reverse("add-bot", args=[friday.pk]), {"seat": "3"}, headers=HTMX
    )
    assert response.status_code == 409
    assert snapshot(friday) == before
