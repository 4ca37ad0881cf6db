"""A game's addresses (games.addresses): worked out once per process, and where pages use them
they are the URL patterns' own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.consumers.user import turn_banner_html
from games.presenters import basis, context
from tests.conftest import logged_in_client
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db


def test_the_table_links_to_its_kinds_rules_its_replay_and_its_moves(alice, bob):
    game = start_table([alice, bob])
    page = logged_in_client(alice).get(reverse("table", kwargs={"game_id": game.pk}))
    html = page.content.decode()
    assert f'href="{reverse("rules", args=[game.kind])}"' in html
    assert f'href="{reverse("replay", kwargs={"game_id": game.pk})}"' in html
    assert f'hx-post="{reverse("move", kwargs={"game_id": game.pk})}"' in html


def test_the_turn_banner_links_to_the_table_of_the_awaiting_game(alice, bob):
    game = start_table([alice, bob])
    banners = [turn_banner_html(user) for user in (alice, bob)]
    table_url = reverse("table", kwargs={"game_id": game.pk})
    mine = [html for html in banners if "data-turn-url" in html]
    assert len(mine) == 1  # one of the two is to bid
    assert f'data-turn-url="{table_url}"' in mine[0] and f'href="{table_url}"' in mine[0]


def test_a_redraw_works_out_no_address(alice, bob, monkeypatch):
    """Once the game's table has been drawn in this process, drawing it again (every socket's
    redraw of every move) reverses no URL pattern."""
    game = start_table([alice, bob])
    context.table_context(game, alice)  # the first drawing works them out
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return reverse(*args, **kwargs)

    monkeypatch.setattr("games.addresses.reverse", counted)
    basis.clear_table_cache()  # a new version's basis is built...
    context.table_context(game, bob)
    assert calls == []  # ...from the addresses kept
