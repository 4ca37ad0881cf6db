"""Table talk in the browser tests (used by test_talk_*_browser.py): people signed up under
names unique to the run, a Hearts game begun for the first two of them (two bots in the other
seats, unrated: a rated game closes the chat while a hand is played) with their pages at its
table, and a line said in the chat (and seen in the sayer's own log)."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import live, sign_up
from tests.servers import shell_json

SETUP = """
import json
from django.db import transaction
from accounts.models import User
from games.models import Game, Membership
from games.services import table
ann, ben = (User.objects.get(username=n) for n in {names!r})
game = Game.objects.create(name={name!r}, kind="hearts", organizer=ann, public=True,
                           max_players=4, rated="no", seed={seed!r})
Membership.objects.create(game=game, user=ann, role="organizer", seat=0)
Membership.objects.create(game=game, user=ben, role="player", seat=1)
for seat in (2, 3):
    Membership.objects.create(
        game=game, role="player", seat=seat, bot="medium", bot_name=f"Bot {{seat}}"
    )
with transaction.atomic():
    table.begin(game)
print("SETUP" + json.dumps({{"id": game.pk}}))
"""


def people(browser: Browser, base_url: str, prefix: str, *who: str) -> tuple[list[str], list[Page]]:
    """Each of `who` signs up as `prefix` + who + a stamp of the run (the e2e database is
    shared, and reruns must not meet the names of earlier runs); their names and pages."""
    stamp = str(int(time.time() * 1000))[-7:]
    names = [f"{prefix}{w}{stamp}" for w in who]
    return names, [sign_up(browser, base_url, name) for name in names]


def at_table(
    e2e_env: dict[str, str],
    base_url: str,
    names: list[str],
    *pages: Page,
    name: str = "Talk controls",
    seed: str = "talk-controls",
) -> str:
    """A game `name` begun for the first two of `names`; `pages` open its table, live. Returns
    the table's address."""
    game_id = shell_json(e2e_env, SETUP.format(names=names[:2], name=name, seed=seed))["id"]
    url = f"{base_url}/games/{game_id}/table/"
    for page in pages:
        page.goto(url)
        live(page)
    return url


def say(page: Page, text: str) -> None:
    box = page.locator("#chat-text")
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("")  # accepted: the box empties


def say_and_see(page: Page, text: str) -> None:
    """`text` said on `page`, and then shown in its own chat log (a line pushed to the page
    before it has arrived by then)."""
    say(page, text)
    expect(page.locator("#chat-log")).to_contain_text(text)
