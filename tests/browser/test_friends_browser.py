"""Friends in Chromium (docs/friends.md), black-box against the daphne server: bob sends
alice a friend request from her player page, she accepts it in her lobby's friends panel,
then "Play again with ..." in bob's panel starts a rematch of the game they played last
(made in the server's database: playing one through takes a minute), which starts when
alice accepts. Screenshots of the friends panel and the player page at desktop and phone
width, light and dark (UPDATE_SCREENSHOTS=1 writes them to docs/screenshots/)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.helpers import live, no_sideways_scroll, sign_up
from tests.browser.helpers.people import ROOM_URL, TABLE_URL, click_posting
from tests.browser.helpers.pictures import DOCS_SHOTS, looks, picture
from tests.servers import shell_json

PREFIX = "fr"  # usernames unique to this module (the e2e database is shared)


def shots(page: Page, name: str, target: str | None = None) -> None:
    """`name` (or only the element `target`) at desktop and phone width, light and dark."""
    for size_name, scheme in looks(page):
        if size_name == "phone":
            no_sideways_scroll(page)
        shot = f"friends-{name}-{size_name}-{scheme}"
        if target:
            DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
            element_shot(page, target, str(DOCS_SHOTS / f"{shot}.png"))
        else:
            picture(page, shot)


def element_shot(page: Page, target: str, path: str) -> None:
    """A screenshot of `target`; again if a push of the lobby lists swapped it meanwhile
    (the element it had found is then no longer in the page)."""
    for attempt in range(5):
        try:
            page.locator(target).screenshot(path=path, animations="disabled")
            return
        except PlaywrightError:
            if attempt == 4:
                raise


def finished_game(env: dict[str, str], first: str, second: str) -> int:
    """Test set-up only: a finished Hundred and Ten game of `first`, `second` and a bot."""
    return int(
        shell_json(
            env,
            "import json; from django.utils import timezone; from accounts.models import User; "
            "from games.models import Game, Membership; "
            f"a = User.objects.get(username='{first}'); b = User.objects.get(username='{second}'); "
            "now = timezone.now(); "
            "g = Game.objects.create(name='Tuesday', kind='hundred-and-ten', organizer=a, "
            "max_players=3, status='finished', started_at=now, finished_at=now, "
            "outcome={'scores': [110, 60, 40], 'winners': [0], 'winning_team': None}); "
            "Membership.objects.create(game=g, user=a, role='organizer', seat=0); "
            "Membership.objects.create(game=g, user=b, role='player', seat=1); "
            "Membership.objects.create(game=g, role='player', seat=2, bot='naive', "
            "bot_name='Bot Ada'); "
            "print('SETUP' + json.dumps({'id': g.pk}))",
        )["id"]
    )


def test_a_friend_request_is_accepted_and_play_again_starts_a_game(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    alice_name, bob_name = f"{PREFIX}alice", f"{PREFIX}bob"
    alice = sign_up(browser, base_url, alice_name)
    bob = sign_up(browser, base_url, bob_name)
    finished_game(e2e_env, bob_name, alice_name)

    # Bob asks from alice's page.
    bob.goto(f"{base_url}/players/{alice_name}/")
    bob.get_by_role("button", name="Add friend").click()
    expect(bob.get_by_text(f"Friend request sent to {alice_name}.")).to_be_visible()
    expect(bob.get_by_role("button", name="Cancel request")).to_be_visible()

    # Alice accepts in her lobby.
    alice.goto(f"{base_url}/")
    panel = alice.locator("#friends")
    expect(panel).to_contain_text("Asking to be your friend")
    # Her lobby's panel is redrawn by pushes (bob coming online): a click the redraw
    # swallowed is made again (seen once with the browser tests in two processes).
    accept = panel.get_by_role("button", name=f"Accept {bob_name}'s friend request")
    click_posting(alice, accept, "/friends/accept/")
    expect(alice.get_by_text(f"You and {bob_name} are friends now.")).to_be_visible()
    expect(alice.locator("#friends")).to_contain_text("online")

    # Carol asks bob too (his panel then shows a request waiting).
    carol = sign_up(browser, base_url, f"{PREFIX}carol")
    carol.goto(f"{base_url}/players/{bob_name}/")
    carol.get_by_role("button", name="Add friend").click()
    expect(carol.get_by_role("button", name="Cancel request")).to_be_visible()
    carol.context.close()

    # Bob's panel: alice online, and one click to play again.
    bob.goto(f"{base_url}/")
    expect(bob.locator("#friends")).to_contain_text(f"{PREFIX}carol")
    friend = bob.locator("#friends .friend-item", has_text=alice_name)
    expect(friend).to_contain_text("online")
    live(bob)
    shots(bob, "lobby-panel", "#friends")
    bob.goto(f"{base_url}/players/{alice_name}/")
    expect(bob.get_by_text("Friend", exact=True)).to_be_visible()
    shots(bob, "player")

    bob.goto(f"{base_url}/")
    again = bob.locator("#friends").get_by_role(
        "button", name=re.compile(f"Play again with {alice_name}, Bot Ada")
    )
    click_posting(bob, again, "/rematch/")
    expect(bob).to_have_url(ROOM_URL)
    expect(bob.get_by_role("heading", name="Tuesday (rematch)")).to_be_visible()

    # Alice accepts the rematch from her lobby: it starts (everybody answered), her lobby
    # lists it under way and bob's waiting room moves on to the table.
    alice.goto(f"{base_url}/")
    invitations = alice.locator(
        "section", has=alice.get_by_role("heading", name="Invitations", exact=True)
    )
    accept = invitations.get_by_role("button", name="Accept the invitation to Tuesday (rematch)")
    click_posting(alice, accept, "/accept/")
    expect(invitations).not_to_contain_text("Tuesday (rematch)")
    expect(alice.locator("#lobby-lists .game-row", has_text="Tuesday (rematch)")).to_contain_text(
        "In progress"
    )
    expect(bob).to_have_url(TABLE_URL)
