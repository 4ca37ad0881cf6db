"""Live pages in Chromium, black-box against the daphne server: nobody reloads.

alice organizes a two-seat game and invites bob, who sits on his lobby: the invitation
appears there live and he accepts from the notice. The start moves his waiting room to the
table. bob bids on his table, alice's table changes and tells her it is her turn; alice
passes, and bob is told it is his turn on his table and on a lobby tab (banner, title,
favicon). A socket that drops shows "Reconnecting…" and heals.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.browser.helpers import DESKTOP, live, not_reloaded, sign_up, sign_up_on

PREFIX = "rt"  # usernames unique to this module (the e2e database is shared)
TABLE_URL = re.compile(r"/games/\d+/table/$")


def test_invitation_start_and_turns_reach_every_page_live(
    browser: Browser, base_url: str, shoot
) -> None:
    alice_name, bob_name = f"{PREFIX}alice", f"{PREFIX}bob"
    bob = sign_up(browser, base_url, bob_name)
    live(bob)
    alice = sign_up(browser, base_url, alice_name)

    alice.get_by_role("link", name="New game").first.click()
    alice.get_by_label("Name").fill("Live duel")
    alice.get_by_label("Seats").select_option("2")
    alice.get_by_role("button", name="Create game").click()
    expect(alice.get_by_role("heading", name="Live duel")).to_be_visible()
    live(alice)
    alice.get_by_label("Username").fill(bob_name)
    alice.get_by_role("button", name=re.compile(f"Invite .*{bob_name}")).click()

    # The invitation appears in bob's lobby while he looks at it: a notice and the list.
    notice = bob.locator("#notices .notice")
    expect(notice).to_contain_text(alice_name)
    expect(notice).to_contain_text("Live duel")
    invitations = bob.locator("section", has=bob.get_by_role("heading", name="Invitations"))
    expect(invitations).to_contain_text("Live duel")
    not_reloaded(bob)
    shoot(bob, "realtime-invitation-notice")

    # He accepts from the notice and lands in the waiting room; alice sees him arrive.
    notice.get_by_role("button", name="Accept").click()
    expect(bob).to_have_url(re.compile(r"/games/\d+/$"))
    expect(alice.locator(".room-seat").nth(1)).to_contain_text(bob_name)
    not_reloaded(alice)
    live(bob)

    # The start moves bob's waiting room to the table by itself.
    alice.get_by_role("button", name="Start game").click()
    expect(alice).to_have_url(TABLE_URL)
    expect(bob).to_have_url(TABLE_URL)
    table_url = bob.url

    # bob (left of the dealer) bids first; a lobby tab of his shows the turn too.
    bob_lobby = bob.context.new_page()
    bob_lobby.goto(f"{base_url}/")
    expect(bob_lobby.locator("#turn-banner")).to_contain_text("Your turn")
    live(bob_lobby)
    live(bob)
    live(alice)
    expect(alice.locator("#turn-banner")).to_be_hidden()
    assert not alice.title().startswith("● Your turn")
    # Both are at the table: each sees the other's presence dot lit.
    expect(alice.locator("#presence-1")).to_have_class(re.compile("is-connected"))
    expect(bob.locator("#presence-0")).to_have_class(re.compile("is-connected"))

    bob.locator("#table").get_by_role("button", name="Bid 15").click()
    # alice's table changes without a reload and tells her it is her turn.
    expect(alice.locator("#table").get_by_role("button", name="Pass")).to_be_visible()
    expect(alice.locator("#turn-banner")).to_contain_text("Your turn")
    expect(alice).to_have_title(re.compile(r"^● Your turn · "))
    expect(alice.locator("#favicon")).to_have_attribute("href", re.compile("favicon-turn"))
    not_reloaded(alice)
    # ...and bob's lobby tab lets go of it.
    expect(bob_lobby.locator("#turn-banner")).to_be_hidden()
    expect(bob_lobby).not_to_have_title(re.compile(r"^● Your turn"))

    alice.locator("#table").get_by_role("button", name="Pass").click()
    expect(alice.locator("#turn-banner")).to_be_hidden()
    expect(alice).not_to_have_title(re.compile(r"^● Your turn"))
    # bob won the bid: his table asks for trump, and his lobby tab says it is his turn.
    expect(bob.locator("#table .trump-form")).to_be_visible()
    expect(bob.locator("#turn-banner")).to_contain_text("Your turn")
    banner = bob_lobby.locator("#turn-banner")
    expect(banner).to_contain_text("Your turn")
    expect(banner).to_contain_text("Live duel")
    expect(bob_lobby).to_have_title(re.compile(r"^● Your turn · "))
    expect(bob_lobby.locator("#favicon")).to_have_attribute("href", re.compile("favicon-turn"))
    not_reloaded(bob)
    not_reloaded(bob_lobby)
    shoot(bob_lobby, "realtime-turn-banner-lobby")
    shoot(bob, "realtime-table-presence")
    banner.get_by_role("link", name="Go to the table").click()
    expect(bob_lobby).to_have_url(table_url)


def test_the_turn_sound_is_off_until_switched_on_and_remembered(
    browser: Browser, base_url: str
) -> None:
    page = sign_up(browser, base_url, f"{PREFIX}carol")
    page.locator(".user-menu summary").click()
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_text("Sounds: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_text("Sounds: on")
    page.reload()
    page.locator(".user-menu summary").click()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    # Notifications are never asked for on load: only the control is offered.
    assert page.evaluate("Notification.permission") != "granted"


# Wraps WebSocket so a test can cut the page's connections like a network loss does, and
# keep new ones failing (a refused handshake: abnormal closure 1006) until it lets them
# through. The failing ones go to a path no route knows on the same server: another port
# would be another origin, which the Content-Security-Policy (connect-src) refuses outright.
NETWORK_SWITCH = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__offline = false;
  function Patched(url, protocols) {
    const target = window.__offline ? url.replace('/ws/', '/ws/offline/') : url;
    const socket = protocols === undefined ? new Real(target) : new Real(target, protocols);
    window.__sockets.push(socket);
    return socket;
  }
  Patched.prototype = Real.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) { Patched[k] = Real[k]; }
  window.WebSocket = Patched;
})();
"""


def test_a_dropped_socket_shows_reconnecting_then_the_current_page(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NETWORK_SWITCH)
    page = context.new_page()
    sign_up_on(page, base_url, f"{PREFIX}dave")
    live(page)
    status = page.locator("#ws-status")
    lists = page.locator("#lobby-lists")
    expect(lists).to_contain_text("Open public games")

    # The network goes: every open socket closes and reconnects keep failing.
    opened = page.evaluate("""() => {
        window.__offline = true;
        window.__sockets.forEach(s => s.close(4000));
        return window.__sockets.length;
    }""")
    expect(status).to_have_attribute("data-state", "reconnecting")
    expect(status).to_have_text("Reconnecting…")
    expect(status).to_be_visible()
    # Retries fail while the network is down, and the page keeps saying so.
    # A function: an expression would be eval'ed on each poll, which the site's CSP refuses.
    page.wait_for_function(f"() => window.__sockets.length >= {opened + 2}", timeout=15_000)
    expect(status).to_have_attribute("data-state", "reconnecting")
    # Meanwhile the page goes stale.
    page.evaluate("document.getElementById('lobby-lists').innerHTML = '<p>stale</p>'")
    expect(lists).to_have_text("stale")

    # The network comes back: the socket reopens and the server sends the current lists.
    page.evaluate("window.__offline = false")
    expect(status).to_have_attribute("data-state", "connected", timeout=15_000)
    expect(status).to_be_hidden()
    expect(lists).to_contain_text("Open public games")
    not_reloaded(page)
