"""Races between a page's own requests and the pushes over its sockets, made to happen every
time in Chromium (the network is held where the race would go one way or the other):

- a move's answer that arrives after the push of its own version (the push replaced the
  table the move was made from) leaves the console clean and the table right;
- pressing Start loads the organizer's table once, although both the answer to the press
  and the waiting room's socket say where to go;
- the answer to "Create invite link" that arrives after the push of the room it caused (the
  push refreshes the invite links, where the button lives) still finds #room for its
  out-of-band part, and the console stays clean;
- "Create invite link" pressed while a refresh of the links is on its way cancels that
  refresh without a word on the console, and the new link stays.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from playwright.sync_api import Browser, ConsoleMessage, Page, Request, Route, expect

from games.kinds.hundred_and_ten.engine import Play, Status
from tests.browser.helpers import (
    SOLO_SEED,
    TABLE_URL,
    Mirror,
    add_bots,
    create_game,
    live,
    move_control,
    not_reloaded,
    play_out,
    set_seed,
    sign_up,
    solo_table,
    table,
    wait_for_version,
)

PREFIX = "rc"  # usernames unique to this module (the e2e database is shared)
MOVE_URL = re.compile(r"/games/\d+/move/$")
INVITE_LINK_URL = re.compile(r"/games/\d+/invite-link/$")
LINKS_REFRESH_URL = re.compile(r"/games/\d+/\?part=invite-links$")


def console_errors(page: Page) -> list[str]:
    errors: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", note)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def wait_until_held(page: Page, held: list[Any]) -> None:
    """Wait (bounded) until a route handler has held a request: handlers run while the test
    waits in Playwright."""
    for _ in range(500):
        if held:
            return
        page.wait_for_timeout(20)


def seat_a_bot_elsewhere(page: Page, base_url: str, game_id: int) -> None:
    """Seat a bot in the room by a request of its own (not the page's), so that the room
    changes and is pushed while the page waits."""
    token = page.locator("#room input[name=csrfmiddlewaretoken]").first.input_value()
    seated = page.request.post(
        f"{base_url}/games/{game_id}/bots/", form={"csrfmiddlewaretoken": token, "seat": "1"}
    )
    assert seated.ok, seated.status


def test_a_moves_answer_after_the_push_of_its_version_leaves_the_console_clean(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=20_000)
    page = solo_table(browser, base_url, e2e_env, f"{PREFIX}alice", SOLO_SEED)
    errors = console_errors(page)
    mirror = Mirror.solo(page)

    # On to a trick that alice's card completes: her answer then carries the side panel
    # too (the trick count changed), out of band.
    def alice_ends_a_trick(m: Mirror) -> bool:
        s = m.state
        return s.status == Status.TRICKS and s.active_seat == 0 and len(s.current_trick) == 3

    play_out(mirror, {0: page}, until=alice_ends_a_trick)
    expect(page.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
    side_before = page.locator("#table-side").get_attribute("data-side")

    # Hold the move's answer until the push of the version it made has been swapped in.
    held: list[tuple[Route, Any]] = []

    def hold(route: Route) -> None:
        held.append((route, route.fetch()))

    page.route(MOVE_URL, hold)
    state = mirror.state
    move = mirror.suggestion()
    assert isinstance(move, Play)
    mirror.apply(move)
    answer_version = mirror.version
    mirror.run_bots()
    move_control(page, state, move).click()
    wait_until_held(page, held)
    page.wait_for_function(  # a function: an expression is eval'ed per poll, which CSP refuses
        f"() => parseInt(document.getElementById('table').dataset.version, 10) >= {answer_version}"
    )
    assert page.locator("#table-side").get_attribute("data-side") != side_before
    assert len(held) == 1
    route, response = held[0]
    body = response.text()
    assert f'data-version="{answer_version}"' in body and 'id="table-side"' in body
    route.fulfill(response=response)
    page.unroute(MOVE_URL)

    wait_for_version([page], mirror.version)
    page.wait_for_timeout(300)  # the answer has been handled (or dropped) by now
    assert not errors, errors
    not_reloaded(page)
    # The table goes on: alice's next turn still works from this page.
    if not mirror.over:
        play_out(mirror, {0: page}, until=lambda m: m.over or m.state.round_index > 0)
    assert not errors, errors


def test_pressing_start_loads_the_organizers_table_once(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=20_000)
    page = sign_up(browser, base_url, f"{PREFIX}org")
    game_id = create_game(page, "Start once")
    add_bots(page, (2, 3, 4))
    set_seed(e2e_env, game_id, SOLO_SEED)
    live(page)
    loads: list[str] = []

    def note(request: Request) -> None:
        if request.is_navigation_request() and TABLE_URL.search(request.url):
            loads.append(request.url)

    page.on("request", note)
    page.get_by_role("button", name="Start game").click()
    expect(page).to_have_url(TABLE_URL)
    expect(table(page)).to_be_visible()
    live(page)
    page.wait_for_timeout(1_000)  # a second navigation, if any, has started by now
    assert loads == [f"{base_url}/games/{game_id}/table/"], loads


def waiting_room(browser: Browser, base_url: str, name: str) -> tuple[Page, int, list[str]]:
    """A new organizer in the waiting room of a new game, its socket open: the page, the
    game's id and the console errors from now on."""
    expect.set_options(timeout=20_000)
    page = sign_up(browser, base_url, f"{PREFIX}{name}")
    game_id = create_game(page, f"{name.capitalize()} race")
    live(page)
    return page, game_id, console_errors(page)


def test_an_invite_links_answer_after_a_push_of_the_room_leaves_the_console_clean(
    browser: Browser, base_url: str
) -> None:
    page, game_id, errors = waiting_room(browser, base_url, "links")

    # Hold the answer to "Create invite link" while the room changes (a bot is seated by
    # another request) and its push, which refreshes the invite links, has been handled.
    held: list[tuple[Route, Any]] = []
    page.route(INVITE_LINK_URL, lambda route: held.append((route, route.fetch())))
    page.get_by_role("button", name="Create invite link").click()
    wait_until_held(page, held)
    seat_a_bot_elsewhere(page, base_url, game_id)
    expect(page.get_by_role("button", name="Add a bot to seat 2")).to_have_count(0)
    page.wait_for_timeout(500)  # time for the refresh of the links to come back, if sent
    route, response = held[0]
    assert 'id="room"' in response.text()  # the answer carries the room out of band
    route.fulfill(response=response)
    page.unroute(INVITE_LINK_URL)

    expect(page.locator(".invite-link-url")).to_have_count(1)
    page.wait_for_timeout(300)  # the answer has been handled by now
    assert not errors, errors
    # The links still follow the room's pushes: revoking the link takes it away.
    page.get_by_role("button", name="Revoke this link").click()
    expect(page.locator(".invite-link-url")).to_have_count(0)
    page.wait_for_timeout(300)
    assert not errors, errors


def test_a_link_created_while_the_links_refresh_is_on_its_way_cancels_it_quietly(
    browser: Browser, base_url: str
) -> None:
    page, game_id, errors = waiting_room(browser, base_url, "refresh")

    # Hold the links' refresh that a push of the room starts (a bot is seated by another
    # request), and create a link meanwhile.
    held: list[Route] = []
    page.route(LINKS_REFRESH_URL, lambda route: held.append(route))
    seat_a_bot_elsewhere(page, base_url, game_id)
    wait_until_held(page, held)
    assert held, "the push of the room did not refresh the links"
    page.get_by_role("button", name="Create invite link").click()
    expect(page.locator(".invite-link-url")).to_have_count(1)
    with contextlib.suppress(Exception):  # the page cancelled it: nothing to answer
        held[0].continue_()
    page.unroute(LINKS_REFRESH_URL)
    page.wait_for_timeout(500)  # a refresh that was not cancelled would have landed by now

    expect(page.locator(".invite-link-url")).to_have_count(1)
    assert not errors, errors
