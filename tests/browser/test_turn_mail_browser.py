"""A correspondence game mails the player whose turn it is when they are away, and the link
in the mail opens the table on their turn. Real parts throughout: a daphne process of its
own (its deadline sweep sends the mail), a real SMTP server (aiosmtpd) receiving it, and
Chromium; the address is verified the way people do it, through allauth's emailed link."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, expect

from tests.browser.helpers import (
    DESKTOP,
    PASSWORD,
    invite,
    leave,
    live,
    settled,
    sign_up,
    start,
    table,
)
from tests.servers import free_port, manage, server_env, start_daphne, stop_daphne

PREFIX = "mail"


class Inbox:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(message)
        return "250 Message accepted for delivery"

    def wait_for(self, to: str, subject: str, timeout: float = 30) -> EmailMessage:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                for message in self.messages:
                    if to in str(message["To"]) and subject in str(message["Subject"]):
                        return message
            time.sleep(0.2)
        raise AssertionError(f"no mail to {to} about {subject!r}: {self.subjects()}")

    def subjects(self) -> list[str]:
        with self.lock:
            return [f"{m['To']}: {m['Subject']}" for m in self.messages]


def link_in(message: EmailMessage, pattern: str) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    found = re.search(pattern, body.get_content())
    assert found, body.get_content()
    return found.group(0)


@pytest.fixture
def mailing_server(tmp_path: Path) -> Iterator[tuple[str, Inbox]]:
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # Its own database and layer (SQLite, in memory) even in the PostgreSQL run: another
    # server's sweep on a shared database would claim the mail and send it elsewhere.
    env = server_env(
        tmp_path,
        DATABASE_URL="",
        REDIS_URL="",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp.port),
        EMAIL_USE_TLS="0",
        SITE_URL=url,
        TURN_MAIL_DELAY_SECONDS="2",
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    proc, _ = start_daphne(env, tmp_path / "daphne.log", port=port)
    yield url, inbox
    stop_daphne(proc)
    smtp.stop()


def test_an_away_player_gets_the_turn_mail_and_its_link_opens_the_table(
    browser: Browser, mailing_server: tuple[str, Inbox]
) -> None:
    expect.set_options(timeout=15_000)
    url, inbox = mailing_server
    alice_name, bob_name = f"{PREFIX}alice", f"{PREFIX}bob"
    bob_address = f"{bob_name}@example.com"

    # Bob signs up with an address and verifies it from the mail allauth sends.
    bob_context = browser.new_context(viewport=DESKTOP)
    bob = bob_context.new_page()
    bob.goto(f"{url}/accounts/signup/")
    bob.get_by_label("Username").fill(bob_name)
    bob.get_by_label("Email").fill(bob_address)
    bob.get_by_label("Password", exact=True).fill(PASSWORD)
    bob.get_by_label("Password (again)").fill(PASSWORD)
    bob.get_by_role("button", name="Sign up").click()
    confirm = inbox.wait_for(bob_address, "Confirm")
    bob.goto(link_in(confirm, r"http://\S+/accounts/confirm-email/\S+"))
    bob.get_by_role("button", name="Confirm").click()
    bob.goto(f"{url}/")
    expect(bob.get_by_role("heading", name="Lobby")).to_be_visible()
    live(bob)

    alice = sign_up(browser, url, alice_name)
    alice.get_by_role("link", name="New game").first.click()
    alice.get_by_label("Name").fill("Letters")
    alice.get_by_label("Seats").select_option("2")
    alice.get_by_label("Clock").select_option(label="Correspondence: 1 day per move")
    alice.get_by_role("button", name="Create game").click()
    invite(alice, bob_name)
    notice = bob.locator("#notices .notice")
    expect(notice).to_contain_text("Letters")
    notice.get_by_role("button", name="Accept").click()
    expect(alice.locator(".room-seat-list")).to_contain_text(bob_name)
    expect(bob).to_have_url(re.compile(r"/games/\d+/$"))  # accepting opens the room
    live(bob)
    # A request of the room still on its way when the page closes counts as presence for two
    # more minutes (games/middleware.py): let the room settle and go quiet first.
    settled(bob)
    bob.wait_for_load_state("networkidle")
    leave(bob)  # bob goes away: no page of the game open

    live(alice)
    settled(alice)
    start(alice)
    live(alice)
    expect(table(alice)).to_have_attribute("data-phase", "bidding")
    if alice.locator("#table.is-my-turn").count():  # alice bids first: she passes to bob
        alice.get_by_role("button", name="Pass", exact=True).click()
        expect(alice.locator("#table.is-my-turn")).to_have_count(0)

    turn = inbox.wait_for(bob_address, "Your turn in “Letters”")
    assert turn.get_body(preferencelist=("html",)) is not None  # plain text and HTML
    assert "List-Unsubscribe" in turn
    link = link_in(turn, r"http://\S+/games/\d+/table/")

    back = bob_context.new_page()
    back.goto(link)
    expect(back).to_have_url(link)
    live(back)
    expect(back.locator("#table.is-my-turn")).to_be_visible()
    expect(back.locator(".turn-banner")).not_to_be_empty()
    # One turn, one mail.
    assert sum("Your turn" in s and bob_address in s for s in inbox.subjects()) == 1
