"""The Content-Security-Policy (django-csp, hundredten/settings.py) and what it asks of pages.

- Every HTML answer carries the policy, and it allows no inline script or style and no eval:
  test_the_policy_allows_this_site_only, test_every_html_page_carries_the_policy (a crawl
  of every page linked from the lobby, a waiting room and a table of each game kind, the
  account pages, htmx partials and error pages, signed in and out).
- So no template may hold an inline <script>, a <style> element, a style="" attribute or an
  on...="" handler: test_templates_have_no_inline_script_style_or_handler.
- htmx is told not to inject its indicator <style> and not to evaluate code, on every page
  (htmx reads the first htmx-config meta only): checked by the crawl.
The browser side (no console error, no violation in Chromium) is
tests/browser/test_content_security_policy_browser.py.
"""

from __future__ import annotations

import html
import json
import re
from collections import deque
from pathlib import Path

import pytest
from django.test import Client

from games.registry import REGISTRY
from tests.conftest import HX, ROOT, logged_in_client
from tests.games.conftest import seat_game, start_table

TEMPLATE_DIRS = [ROOT / "templates", *sorted((ROOT / "games" / "kinds").glob("*/templates"))]
INLINE = {
    "an inline <script>": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "a <style> element": re.compile(r"<style\b", re.I),
    "a style attribute": re.compile(r"\sstyle\s*=", re.I),
    "an event handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "a javascript: URL": re.compile(r"javascript:", re.I),
}
# A data block is not a script: it is never run (allauth's pages use them).
DATA_BLOCK = re.compile(r"<script[^>]*type=\"application/(ld\+)?json\"", re.I)
# Template comments are never sent; blanked out (lines kept) before looking.
COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)


def directives(policy: str) -> dict[str, list[str]]:
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


def templates() -> list[Path]:
    return sorted(path for folder in TEMPLATE_DIRS for path in folder.rglob("*.html"))


def test_templates_have_no_inline_script_style_or_handler():
    assert len(templates()) > 20
    found = []
    for path in templates():
        text = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), path.read_text())
        for what, pattern in INLINE.items():
            for match in pattern.finditer(text):
                if what == "an inline <script>" and DATA_BLOCK.match(match.group(0)):
                    continue
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert found == []


@pytest.mark.django_db
def test_the_policy_allows_this_site_only(client: Client):
    policy = client.get("/accounts/login/")["Content-Security-Policy"]
    found = directives(policy)
    assert found["default-src"] == ["'self'"]
    for name in ("script-src", "style-src", "img-src", "connect-src", "media-src"):
        assert found[name] == ["'self'"], name
    assert found["object-src"] == ["'none'"]
    assert found["base-uri"] == ["'none'"]
    assert found["frame-ancestors"] == ["'none'"]
    assert found["form-action"] == ["'self'"]
    for unsafe in ("'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "data:"):
        assert unsafe not in policy


LINK = re.compile(r'\s(?:href|hx-get|action)="(/[^"]*)"')


def crawl(client: Client, starts: list[str], limit: int = 150) -> dict[str, tuple[int, str]]:
    """GET every same-site page reachable from `starts` (not static files, not sign-out):
    url -> (status, Content-Security-Policy) for each HTML answer."""
    seen: set[str] = set()
    queue = deque(starts)
    found: dict[str, tuple[int, str]] = {}
    while queue and len(seen) < limit:
        url = queue.popleft()
        if url in seen or url.startswith("/static/") or "logout" in url:
            continue
        seen.add(url)
        response = client.get(url, headers=HX if "part=" in url or "lists" in url else None)
        if not response["Content-Type"].startswith("text/html"):
            continue
        page = response.content.decode()
        found[url] = (response.status_code, response.get("Content-Security-Policy", ""))
        if "<html" in page:
            meta = re.search(r"<meta name=\"htmx-config\" content='([^']*)'", page)
            assert meta, f"{url}: no htmx-config"
            config = json.loads(html.unescape(meta.group(1)))
            assert config["includeIndicatorStyles"] is False, url
            assert config["allowEval"] is False, url
            assert "style" not in config["attributesToSettle"], url
        queue.extend(html.unescape(link) for link in LINK.findall(page))
    return found


@pytest.mark.django_db
def test_every_html_page_carries_the_policy(alice, bob, carol, settings):
    from games.services import lobby

    settings.BOT_DELAY_SECONDS = 0  # bots' moves due at once (tests/bots.py play_bots)

    starts = ["/", "/games/new/", "/accounts/profile/", "/no/such/page/", "/lobby/lists/"]
    for slug, kind in REGISTRY.items():
        starts.append(f"/games/new/?kind={slug}")
        seats = max(kind.seat_counts)
        waiting = seat_game([alice, bob], seats - 2, kind=slug, name=f"Waiting {slug}")
        starts += [f"/games/{waiting.pk}/", f"/games/{waiting.pk}/?part=invite-links"]
        table = start_table([alice, bob], seats - 2, kind=slug, name=f"Table {slug}")
        starts += [f"/games/{table.pk}/table/", f"/games/{table.pk}/"]
    link = lobby.create_invite_link(game_id=waiting.pk, by=alice)
    crawls = {
        "alice": crawl(logged_in_client(alice), starts),
        "visitor": crawl(
            Client(),
            ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
            + [f"/invite/{link.token}/", "/invite/nope/", "/no/such/page/"],
        ),
        "outsider": crawl(logged_in_client(carol), [f"/games/{table.pk}/table/"]),  # a 404
    }
    pages = [(who, url, *answer) for who, found in crawls.items() for url, answer in found.items()]
    assert {status for _, _, status, _ in pages} >= {200, 302, 404, 405}
    assert len(pages) > 40
    assert {url for _, url, status, _ in pages if status == 200} >= {
        f"/games/{table.pk}/table/",
        f"/games/{waiting.pk}/",
        "/accounts/email/",
        f"/invite/{link.token}/",
    }
    missing = [(who, url) for who, url, _, policy in pages if "default-src 'self'" not in policy]
    assert missing == []
    unsafe = [(who, url) for who, url, _, policy in pages if "unsafe" in policy]
    assert unsafe == []
