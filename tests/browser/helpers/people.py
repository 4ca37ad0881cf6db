"""People and pages in the browser tests: signing up (a browser context each), waiting for a
page's sockets and for htmx to settle, leaving, and gathering a table: a new game,
invitations, bots, the deal and the start.

Everything goes through the page like a person would, except `set_seed`, which fixes the
deal of a game that has not started (a `manage.py shell` subprocess with the daphne
server's environment, so it works on SQLite and PostgreSQL alike).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

from playwright.sync_api import Browser, Locator, Page, Request, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.conftest import ROOT

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "a-good-long-password-1"
TABLE_URL = re.compile(r"/games/(\d+)/table/$")
ROOM_URL = re.compile(r"/games/(\d+)/$")


# --- people and pages --------------------------------------------------------------------


def sign_up(browser: Browser, base_url: str, name: str, **context_options: Any) -> Page:
    """A new browser context (its own cookies) in which `name` signs up; on the lobby."""
    options = {"viewport": DESKTOP, **context_options}
    page = browser.new_context(**options).new_page()
    sign_up_on(page, base_url, name)
    return page


def sign_up_on(page: Page, base_url: str, name: str) -> None:
    """On `page` (its listeners already attached, say): `name` signs up; on the lobby."""
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()


def sign_up_agreeing(browser: Browser, base_url: str, *names: str) -> list[Page]:
    """Each of `names` signs up, in this order, on a page that accepts every confirmation it
    asks for (such as "Hand your seat to a bot?")."""
    pages = [sign_up(browser, base_url, name) for name in names]
    for page in pages:
        page.on("dialog", lambda dialog: dialog.accept())
    return pages


def live(page: Page) -> None:
    """Wait until the page's sockets are open; mark the document to prove no reload later."""
    expect(page.locator("#ws-status")).to_have_attribute("data-state", "connected")
    page.evaluate("window.__sameDocument = true")


def leave(page: Page) -> None:
    """The person closes the tab: the document unloads and its sockets close.

    By navigating to a blank page (bounded by the navigation timeout) rather than with
    `page.close()`, which Chromium can acknowledge without closing the page when it meets a
    navigation commit, and Playwright then waits for ever (microsoft/playwright#41900 and
    #42068, open for 1.64 and 1.65): one such close stalled a whole test run here. Wait for
    a navigation the test started (a click that opens a page) before leaving: it would
    interrupt this one."""
    page.goto("about:blank")


def not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def settled(page: Page) -> None:
    """Wait until htmx has wired up the page: loaded, and no swapped-in content still waiting
    for its settle step (until then an input has no htmx listeners, so typing is lost).
    A function, not an expression: Playwright evaluates an expression afresh on each poll,
    with eval, which the site's Content-Security-Policy refuses."""
    page.wait_for_function(
        "() => document.readyState === 'complete' && window.htmx !== undefined"
        " && !document.querySelector('.htmx-added, .htmx-settling')"
    )


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def create_game(
    page: Page,
    name: str,
    seats: int | None = 4,
    *,
    kind: str = "",
    played_by: str = "",
    form: Callable[[Page], None] | None = None,
    values: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
) -> int:
    """From the lobby: a new private game (of Hundred and Ten, or of `kind`: its radio, once
    the form says it "is played by `played_by`", then `form`'s checks of the form), for
    `seats` (None: the kind's one number), with the option of each label in `values` (by
    value) and `labels` (by label) chosen; returns its id (the page is in its waiting room)."""
    page.get_by_role("link", name="New game").first.click()
    if kind:
        settled(page)
        page.get_by_role("radio", name=kind).check()
        played = f"{kind} is played by {played_by}".rstrip()
        expect(page.locator("#game-setup")).to_contain_text(played)
        if form is not None:
            form(page)
        settled(page)
    page.get_by_label("Name").fill(name)
    if seats is not None:
        page.get_by_label("Seats").select_option(str(seats))
    for label, value in (values or {}).items():
        page.get_by_label(label).select_option(value)
    for label, option in (labels or {}).items():
        page.get_by_label(label).select_option(label=option)
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    found = ROOM_URL.search(page.url)
    assert found, page.url
    return int(found.group(1))


def invite(page: Page, username: str) -> None:
    """In the waiting room: search for `username` and invite them."""
    settled(page)  # the box an earlier invitation swapped in listens only once settled
    page.get_by_label("Username").fill(username)
    page.get_by_role("button", name=re.compile(f"Invite .*\\({re.escape(username)}\\)")).click()
    # Wait for the answer to swap the invite box: typing into the old box would be lost.
    expect(page.locator("#invite-box [role=status]")).to_contain_text(f"Invited {username}.")
    expect(page.locator(".invitee-list")).to_contain_text(username)


def invite_and_accept(
    organizer: Page, guests: dict[str, Page], game_id: int, game_name: str
) -> None:
    """The organizer (in the waiting room) invites each guest by name; the invitation reaches
    each guest's lobby live, and they accept from the notice into the waiting room."""
    for name in guests:
        invite(organizer, name)
    for page in guests.values():
        notice = page.locator("#notices .notice")
        expect(notice).to_contain_text(game_name)
        click_posting(page, notice.get_by_role("button", name="Accept"), f"/{game_id}/accept/")
        expect(page).to_have_url(re.compile(rf"/games/{game_id}/$"))


def click_posting(page: Page, button: Locator, path: str) -> None:
    """Click `button`, whose form POSTs to an address ending in `path`; click again if the
    page sent nothing. A push that redraws the button between the mouse's press and its
    release swallows the click, as it would a person's, who clicks again: seen under load
    with the room's push of the bot added before. Never a second POST: only a click that
    sent none is repeated."""

    def sent(request: Request) -> bool:
        return request.method == "POST" and request.url.endswith(path)

    try:
        with page.expect_request(sent, timeout=5_000):
            button.click()
    except PlaywrightTimeoutError:
        with page.expect_request(sent):
            button.click()


def add_bots(page: Page, seats: Iterable[int]) -> None:
    for seat in seats:  # 1-based, as the page says
        button = page.get_by_role("button", name=f"Add a bot to seat {seat}")
        click_posting(page, button, "/bots/")
        expect(button).to_have_count(0)


def set_seed(env: dict[str, str], game_id: int, seed: str) -> None:
    """Test set-up only: fix the deal of a game that has not started yet."""
    manage_shell(
        env,
        "from games.models import Game; "
        f"n = Game.objects.filter(pk={game_id}, status='waiting').update(seed={seed!r}); "
        "assert n == 1, n",
    )


def manage_shell(env: dict[str, str], code: str) -> None:
    """Test set-up only: run `code` in `manage.py shell` with the server's environment `env`
    (so it reaches the server's database, SQLite or PostgreSQL); it must not fail."""
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


def start(page: Page) -> None:
    """The organizer starts the game from the waiting room, which pushes redraw."""
    click_posting(page, page.get_by_role("button", name="Start game"), "/start/")
    expect(page).to_have_url(TABLE_URL)


# The deal of the Hundred and Ten solo tables most tests play (alice at seat 0, three bots):
# alice, the dealer, takes the bid in round 1, and a trump bleeds to her.
SOLO_SEED = "s1392"


def start_with_bots(
    page: Page,
    env: dict[str, str],
    game_id: int,
    seed: str,
    bots: Any = (2, 3, 4),
    add: Callable[[Page, Any], None] = add_bots,
) -> None:
    """In the waiting room of `game_id`: bots join (`add`, the game's way of adding them, takes
    `bots`: 1-based seats for `add_bots`), the deal is fixed to `seed` and the game starts;
    the table live."""
    add(page, bots)
    set_seed(env, game_id, seed)
    start(page)
    live(page)


def solo_table(
    browser: Browser,
    base_url: str,
    env: dict[str, str],
    name: str,
    seed: str,
    game: str = "",
    **context_options: Any,
) -> Page:
    """`name` signs up, creates `game` (by default "`name` vs bots"), seats three bots, fixes
    the seed and starts: on the table."""
    page = sign_up(browser, base_url, name, **context_options)
    game_id = create_game(page, game or f"{name} vs bots")
    start_with_bots(page, env, game_id, seed)
    return page


def sign_up_all(browser: Browser, base_url: str, names: Iterable[str]) -> dict[str, Page]:
    """Each of `names` signs up in a browser context of their own; each lobby live."""
    people = {name: sign_up(browser, base_url, name) for name in names}
    for page in people.values():
        live(page)
    return people
