"""Public pages (games/views/pages.py): the rules of each game, how to play here, and the
landing page a signed-out visitor gets at "/".

- Every game's rules page is public, names every option of its kind with each choice (drawn
  from the GameKind, so it cannot drift from the new-game form), and its seat counts:
  test_every_rules_page_is_public_and_lists_its_options; unknown games are a 404.
- The rules index and "how to play here" are public and link every game.
- "/" is the landing page when signed out (sign-up and sign-in links, every game's rules and
  a picture of its table that exists in static/), the lobby when signed in.
- The new-game form, the waiting room and the table link the game's rules; every page's
  header and footer link the rules and "how to play here".
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games.registry import REGISTRY
from tests.conftest import logged_in_client
from tests.games.conftest import seat_game, start_table

pytestmark = pytest.mark.django_db

SLUGS = sorted(REGISTRY)


def text(response) -> str:
    return html.unescape(response.content.decode())


def visitors(alice) -> dict[str, Client]:
    return {"signed out": Client(), "signed in": logged_in_client(alice)}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_rules_page_is_public_and_lists_its_options(alice, slug):
    kind = REGISTRY[slug]
    assert kind.rules_template, slug
    for who, client in visitors(alice).items():
        response = client.get(reverse("rules", args=[slug]))
        assert response.status_code == 200, who
        page = text(response)
        assert f"Rules of {kind.name}" in page
        assert kind.rules_template in [t.name for t in response.templates]
        options = page[page.index('id="options"') :]
        assert kind.seats_text in options
        assert kind.options, slug  # every game has at least one option today
        for option in kind.options:
            assert str(option.label) in options, option.name
            for _, label in option.choices:
                assert str(label) in options, label
        assert "default" in options


def test_the_rules_page_marks_the_default_choice(client):
    for slug, kind in REGISTRY.items():
        page = text(client.get(reverse("rules", args=[slug])))
        for option in kind.options:
            default = next(label for value, label in option.choices if value == option.default)
            assert f'<li>{default} <span class="tag">default</span></li>' in page, slug


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/no-such-game/").status_code == 404
    assert client.get("/rules/Hearts/").status_code == 404


def test_the_rules_index_links_every_game(alice):
    for client in visitors(alice).values():
        response = client.get(reverse("rules-index"))
        assert response.status_code == 200
        page = text(response)
        for slug, kind in REGISTRY.items():
            assert f'href="{reverse("rules", args=[slug])}"' in page
            assert str(kind.blurb) in page  # lazy: translated when shown


def test_how_to_play_is_public_and_covers_the_essentials(alice):
    for client in visitors(alice).values():
        response = client.get(reverse("how-to-play"))
        assert response.status_code == 200
        page = text(response)
        for words in (
            "New game",
            "private link",
            "Add a bot",
            "Hint",
            "Hand my seat to a bot",
            "Take my seat back",
            "When a clock runs out, a bot plays that move for you",
            "Tab",
            "your turn",
            "phone",
        ):
            assert words in page, words


def test_a_signed_out_visitor_gets_the_landing_page_at_the_root(client):
    response = client.get(reverse("lobby"))
    assert response.status_code == 200
    assert [t.name for t in response.templates][0] == "games/landing.html"
    page = text(response)
    assert f'href="{reverse("account_signup")}"' in page
    assert f'href="{reverse("account_login")}"' in page
    pictures = re.findall(
        r'<img class="landing-picture" src="/static/([^"]+)"[^>]*alt="([^"]+)"', page
    )
    assert len(pictures) == len(REGISTRY)
    for path, alt in pictures:
        assert finders.find(path), path
        assert len(alt) > 30
    for slug, kind in REGISTRY.items():
        assert f'href="{reverse("rules", args=[slug])}"' in page
        assert kind.seats_text in page
    assert 'id="lobby-lists"' not in page


def test_a_signed_in_user_still_gets_the_lobby_at_the_root(alice):
    response = logged_in_client(alice).get(reverse("lobby"))
    assert response.status_code == 200
    assert "games/lobby.html" in [t.name for t in response.templates]
    assert "games/landing.html" not in [t.name for t in response.templates]


def test_the_lobby_lists_still_need_a_sign_in(client):
    response = client.get(reverse("lobby-lists"))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_new_game_form_links_the_chosen_games_rules(alice, slug):
    page = text(logged_in_client(alice).get(reverse("new-game") + f"?kind={slug}"))
    setup = page[page.index('id="game-setup"') :]
    link = f'<a href="{reverse("rules", args=[slug])}" target="_blank" rel="noopener">'
    assert f"{link}Rules of {REGISTRY[slug].name}</a>" in setup


@pytest.mark.parametrize("slug", SLUGS)
def test_the_waiting_room_and_the_table_link_the_games_rules(alice, bob, slug):
    seats = max(REGISTRY[slug].seat_counts)
    href = f'href="{reverse("rules", args=[slug])}"'
    waiting = seat_game([alice, bob], seats - 2, kind=slug)
    room = text(logged_in_client(alice).get(reverse("waiting-room", args=[waiting.pk])))
    assert href in room[room.index('class="room-facts"') :]
    table = start_table([alice, bob], seats - 2, kind=slug, name="Started")
    page = text(logged_in_client(bob).get(reverse("table", args=[table.pk])))
    facts = page[page.index('class="table-facts"') :]
    assert href in facts[: facts.index("</ul>")]


def test_every_page_links_the_rules_and_how_to_play(alice):
    for client in visitors(alice).values():
        page = text(client.get(reverse("how-to-play")))
        header = page[page.index('class="site-header"') : page.index("</header>")]
        assert f'href="{reverse("rules-index")}"' in header
        footer = page[page.index('class="site-footer"') :]
        assert f'href="{reverse("rules-index")}"' in footer
        assert f'href="{reverse("how-to-play")}"' in footer


def test_team_games_say_so_and_need_every_seat(client):
    for slug, kind in REGISTRY.items():
        page = text(client.get(reverse("rules", args=[slug])))
        teams = kind.teams is not None
        assert ("in two teams" in page) is teams, slug
        assert ("Every seat must be taken before the start" in page) is teams, slug
    landing = text(client.get(reverse("lobby")))
    assert landing.count("in two teams") == sum(k.teams is not None for k in REGISTRY.values())


def test_each_game_keeps_its_look_in_its_own_folder():
    """Every game's styles and the landing page's picture of its table live in its folder (a
    new game adds no file elsewhere); the shared table.css names no game."""

    def found(path: str) -> Path:
        where = finders.find(path)
        assert isinstance(where, str), path
        return Path(where)

    shared = found("css/table.css").read_text()
    for slug, kind in REGISTRY.items():
        folder = Path(sys.modules[type(kind.rules).__module__].__file__ or "").parents[1]
        assert kind.stylesheet, slug
        for path in (kind.stylesheet, f"img/tables/{slug}.jpg"):
            assert found(path).is_relative_to(folder), (slug, path)
        assert f".table-kind-{slug}" not in shared, slug
