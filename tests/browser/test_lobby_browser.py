"""Alice organizes a private game in Chromium: she invites bob by name and carol by link,
bob accepts from his lobby, carol signs up through the link and has a seat, dave cannot see
the game, alice adds a bot and starts. Black-box against the daphne server."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, no_sideways_scroll, settled
from tests.browser.helpers.pictures import looks

PREFIX = "lb"  # usernames unique to this module (the e2e database is shared)


def new_page(browser: Browser) -> Page:
    context = browser.new_context(viewport=DESKTOP)
    return context.new_page()


def sign_up(page: Page, name: str) -> None:
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def shoot_looks(shoot, page: Page, name: str) -> None:
    """Test artefacts of `name` at desktop width, then on the phone (which must not scroll
    sideways), light and dark."""
    shoot(page, f"{name}-desktop")
    for _, scheme in looks(page, sizes=(("phone", PHONE),)):
        shoot(page, f"{name}-phone" if scheme == "light" else f"{name}-phone-dark")
        no_sideways_scroll(page)


def test_alice_gathers_friends_in_a_private_game_and_starts_it(
    browser: Browser, base_url: str, shoot
) -> None:
    alice_name, bob_name, carol_name, dave_name = (
        f"{PREFIX}{who}" for who in ("alice", "bob", "carol", "dave")
    )

    bob = new_page(browser)
    bob.goto(f"{base_url}/accounts/signup/")
    sign_up(bob, bob_name)
    expect(bob.get_by_role("heading", name="Lobby")).to_be_visible()

    # Alice signs up and creates a private game.
    alice = new_page(browser)
    alice.goto(f"{base_url}/accounts/signup/")
    sign_up(alice, alice_name)
    expect(alice.get_by_role("heading", name="Lobby")).to_be_visible()
    expect(alice.get_by_text("None of your games is waiting to start.")).to_be_visible()
    alice.get_by_role("link", name="New game").first.click()
    alice.get_by_label("Name").fill("Friday cards")
    expect(alice.get_by_label("Private: only people you invite")).to_be_checked()
    alice.get_by_label("Seats").select_option("4")
    alice.set_viewport_size(PHONE)
    shoot(alice, "new-game-phone")
    alice.set_viewport_size(DESKTOP)
    alice.get_by_role("button", name="Create game").click()
    expect(alice.get_by_role("heading", name="Friday cards")).to_be_visible()
    room_url = alice.url
    assert re.search(r"/games/\d+/$", room_url)
    expect(alice.locator(".room-seat").first).to_contain_text(alice_name)

    # She invites bob by name: search as you type, then pick him.
    settled(alice)
    alice.get_by_label("Username").fill(bob_name[:4])
    pick = alice.get_by_role("button", name=re.compile(f"Invite .*{bob_name}"))
    expect(pick).to_be_visible()
    pick.click()
    expect(alice.locator(".invitee-list")).to_contain_text(bob_name)
    expect(alice.locator(".invitee-list")).to_contain_text("pending")

    # And makes a private link for carol.
    alice.get_by_role("button", name="Create invite link").click()
    link_input = alice.locator("input.invite-link-url")
    expect(link_input).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/invite/[\w-]{20,}/$"))
    link = link_input.input_value()

    # Bob accepts from his lobby.
    bob.goto(f"{base_url}/")
    invitations = bob.locator("section", has=bob.get_by_role("heading", name="Invitations"))
    expect(invitations).to_contain_text("Friday cards")
    expect(invitations).to_contain_text(f"invited by {alice_name}")
    shoot_looks(shoot, bob, "lobby")
    invitations.get_by_role("button", name="Accept the invitation to Friday cards").click()
    waiting = bob.locator("section", has=bob.get_by_role("heading", name="Waiting to start"))
    expect(waiting).to_contain_text("Friday cards")
    # Each name with its rating (provisional: "1500?").
    expect(waiting).to_contain_text(re.compile(rf"{alice_name}\d+\??, {bob_name}\d+\??"))

    # Carol, signed out, follows the link, signs up (with the header's link: it keeps the
    # invitation too) and lands in the waiting room in a seat: following it was accepting it.
    carol = new_page(browser)
    carol.goto(link)
    expect(carol.get_by_role("heading", name="You're invited to a game")).to_be_visible()
    shoot(carol, "invite-landing-desktop")
    carol.locator(".site-header").get_by_role("link", name="Sign up").click()
    expect(carol.get_by_role("heading", name="Create your account")).to_be_visible()
    sign_up(carol, carol_name)
    expect(carol).to_have_url(room_url)
    expect(carol.locator(".room-seat-list")).to_contain_text(carol_name)
    expect(carol.get_by_role("button", name="Leave game")).to_be_visible()
    expect(carol.get_by_role("button", name="Accept")).to_have_count(0)
    carol.set_viewport_size(PHONE)
    shoot(carol, "waiting-room-linked-player-phone")
    carol.set_viewport_size(DESKTOP)

    # The link is used up: following it again as someone else says so.
    dave = new_page(browser)
    dave.goto(f"{base_url}/accounts/signup/")
    sign_up(dave, dave_name)
    expect(dave.get_by_role("heading", name="Lobby")).to_be_visible()
    used = dave.goto(link)
    assert used is not None and used.status == 410
    expect(dave.get_by_text("This invite link has already been used.")).to_be_visible()

    # Dave cannot see the private game at all.
    response = dave.goto(room_url)
    assert response is not None and response.status == 404
    expect(dave.get_by_text("Friday cards")).to_have_count(0)
    dave.goto(f"{base_url}/")
    expect(dave.get_by_text("Friday cards")).to_have_count(0)

    # Alice sees both players seated, adds a bot to the last seat and starts.
    # No reload: the room was pushed to her as bob and carol took their seats.
    seats = alice.locator(".room-seat")
    expect(seats.nth(1)).to_contain_text(bob_name)
    expect(seats.nth(2)).to_contain_text(carol_name)
    alice.get_by_role("button", name="Add a bot to seat 4").click()
    expect(seats.nth(3)).to_contain_text("Bot Ada")
    # Carol used the first link: it left alice's list when the room was pushed.
    expect(alice.locator("input.invite-link-url")).to_have_count(0)
    alice.get_by_role("button", name="Create invite link").click()  # a spare link, to see it
    expect(alice.locator("input.invite-link-url")).to_have_count(1)
    shoot_looks(shoot, alice, "waiting-room")
    alice.get_by_role("button", name="Start game").click()
    expect(alice).to_have_url(re.compile(r"/games/\d+/table/$"))
    assert alice.url == room_url + "table/"

    # Back in her lobby the game is under way: on her turn, or waiting for someone else's.
    alice.goto(f"{base_url}/")
    under_way = alice.locator(".lobby-section", has_text="Friday cards")
    expect(under_way.get_by_role("heading")).to_have_text(
        re.compile("^(Your turn|Your games in progress)$")
    )
    shoot(alice, "lobby-games-desktop")
