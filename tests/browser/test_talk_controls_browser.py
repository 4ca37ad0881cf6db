"""Table talk's controls in Chromium against daphne (docs/talk.md, docs/friends.md):

- a mute from the chat panel's list of seated people (before they said anything) hides
  their next line from the one who muted, and from nobody else;
- a block from the player page hides each one's lines from the other at a running game
  where both are seated;
- the organizer's setting redraws the other player's composer live: off (no message box, no
  reactions; a POST is refused with a sentence), reactions only (buttons, no box), on again.

Each person has a browser context of their own; games are set up unrated (a rated game
closes the chat while a hand is played).
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.helpers import not_reloaded
from tests.browser.talk import at_table, people, say, say_and_see


def test_a_mute_from_the_seat_list_hides_the_next_line_from_the_muter_only(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=10_000)
    names, (ann, ben, cat) = people(browser, base_url, "tc", "ann", "ben", "cat")
    at_table(e2e_env, base_url, names, ann, ben, cat)
    # Ben has said nothing yet: Ann mutes him from the people at the table.
    ann.get_by_role("button", name=f"Mute {names[1]}").click()
    expect(ann.get_by_role("button", name=f"Unmute {names[1]}")).to_be_visible()
    say(ben, "muted words")
    expect(cat.locator("#chat-log")).to_contain_text("muted words")  # a spectator hears him
    say_and_see(ann, "after the mute")  # pushed after Ben's line: by now his would have arrived
    expect(ann.locator("#chat-log")).not_to_contain_text("muted words")
    sent_while_redrawn(ben, "while redrawn")
    expect(cat.locator("#chat-log")).to_contain_text("while redrawn")
    for page in (ann, ben, cat):
        not_reloaded(page)


def sent_while_redrawn(page: Page, text: str) -> None:
    """`text` sent, and the composer redrawn out of band (as the socket's first frame, or
    the organizer's setting, redraws it) while the POST is on its way: once the POST is
    answered the box is empty (before, the answer emptied the box of the form it came from,
    which the redraw had replaced, and the text stayed in the new box: a CI failure)."""
    held: list[Route] = []
    page.route("**/say/", lambda route: held.append(route))
    box = page.locator("#chat-text")
    box.fill(text)
    box.press("Enter")
    for _ in range(500):  # the route's handler runs while Playwright waits
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the message was not sent"
    page.evaluate(
        """() => {
            const compose = document.getElementById("chat-compose");
            const html = compose.outerHTML.replace('id="chat-compose"',
                'id="chat-compose" hx-swap-oob="true"');
            htmx.swap("#chat-answer", html, {swapStyle: "none"});
        }"""
    )
    expect(box).to_have_value(text)  # what was typed is carried over into the new box
    held[0].continue_()
    page.unroute("**/say/")
    expect(box).to_have_value("")


def test_a_block_hides_each_one_s_lines_from_the_other_at_a_running_game(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=10_000)
    names, (ann, ben) = people(browser, base_url, "tc", "ann", "ben")
    ann.goto(f"{base_url}/players/{names[1]}/")
    ann.get_by_role("button", name="Block").click()
    expect(ann.get_by_text("Blocked", exact=True)).to_be_visible()
    at_table(e2e_env, base_url, names, ann, ben)  # seated together anyway (set up so)
    expect(ann.get_by_role("button", name=f"Mute {names[1]}")).to_have_count(0)
    say(ben, "from ben")
    say_and_see(ann, "from ann")
    say_and_see(ben, "ben again")
    expect(ann.locator("#chat-log")).not_to_contain_text("from ben")
    expect(ben.locator("#chat-log")).not_to_contain_text("from ann")


def test_the_organizer_s_setting_redraws_the_other_player_s_composer_live(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=10_000)
    names, (ann, ben) = people(browser, base_url, "tc", "ann", "ben")
    at_table(e2e_env, base_url, names, ann, ben)
    expect(ben.locator("#chat-text")).to_be_visible()
    ben.locator("#chat-text").fill("half a sentence")

    def choose(label: str) -> None:
        ann.locator("#chat-mode").select_option(label=label)
        ann.locator(".chat-mode").get_by_role("button", name="Set").click()

    choose("No table talk")
    expect(ben.locator("#chat-text")).to_have_count(0)
    expect(ben.locator(".chat-reaction")).to_have_count(0)
    expect(ben.locator("#chat-rule")).to_have_text(
        "The organizer has turned table talk off for this game."
    )
    # A post anyway (a page drawn before, or a script): refused with a sentence.
    answer = ben.evaluate(
        """async () => {
            const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
            const body = new URLSearchParams({text: "still here?"});
            const url = document.getElementById("chat").dataset.logUrl + "say/";
            const response = await fetch(url, {method: "POST", body, headers: {
                "X-CSRFToken": token, "HX-Request": "true"}});
            return [response.status, await response.text()];
        }"""
    )
    assert answer[0] == 403
    assert "The organizer has turned table talk off for this game." in answer[1]

    choose("Reactions only")
    expect(ben.locator(".chat-reaction")).to_have_count(8)
    expect(ben.locator("#chat-text")).to_have_count(0)

    choose("Chat and reactions")
    expect(ben.locator("#chat-text")).to_be_visible()
    say(ben, "back again")
    expect(ann.locator("#chat-log")).to_contain_text("back again")
    expect(ann.locator("#chat-log")).not_to_contain_text("still here?")
    for page in (ann, ben):
        not_reloaded(page)
