"""What every viewer of a version sees alike (the head: title and facts; the felt: every seat
and the middle) is drawn once per version and put as the same bytes in each viewer's table
(issue 37, docs/render-once.md): each player's `#table` carries byte for byte what a
spectator's does, drawn from a spectator's chair, at every version of a game played through
the services, for every game of the registry."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.conf import settings
from django.template.loader import render_to_string

from games.clocks.turns import pace_text
from games.gamekind import GameKind
from games.live.presence import Presence
from games.models import Game
from games.presenters import felt as felt_module
from games.presenters.basis import TableBasis, clear_table_cache, table_basis
from games.presenters.context import table_context
from games.presenters.felt import Public, draw
from games.registry import REGISTRY
from games.services import table
from tests.conftest import make_user
from tests.games.conftest import active_seat, bid_choice, start_table

pytestmark = pytest.mark.django_db

# Versions drawn per game (or to its end): through the first round's phases of each game
# (bidding, passing, choosing trump, the play), a few seconds a game.
MOVES = 40


def spectators_drawing(basis: TableBasis) -> tuple[str, str]:
    """The head and the felt drawn straight from a spectator's chair, nothing kept."""
    kind, state = basis.kind, basis.state
    seen = draw(
        kind,
        basis.names,
        basis.seated,
        state,
        None,
        to_act=kind.rules.to_act(state),
        automated=False,
        version=basis.game.version,
        here=Presence(),
        me=None,
        ratings=basis.ratings,
    )
    felt = render_to_string("games/table.html#felt", {**seen, "kind": kind})
    game = basis.game
    heading = {"g": seen["g"], "game": game, "kind": kind, "urls": basis.urls, "watching": 0}
    heading["pace"] = pace_text(game.move_seconds)
    return render_to_string("games/table.html#head", heading), felt


@pytest.mark.parametrize("kind", REGISTRY.values(), ids=lambda k: k.slug)
def test_each_player_gets_the_spectators_public_bytes_drawn_once_a_version(
    kind: GameKind, monkeypatch: pytest.MonkeyPatch
):
    players = min(kind.seat_counts)
    people = [make_user(f"{kind.slug[:3]}p{i}") for i in range(players)]
    stranger = make_user(f"{kind.slug[:3]}px")
    game = start_table(people, kind=kind.slug, seed="public", public=True)
    heads: list[int] = []

    head = felt_module.head

    def counted(*args: Any) -> Any:
        heads.append(1)
        return head(*args)

    monkeypatch.setattr(felt_module, "head", counted)
    rng = random.Random(kind.slug)
    versions = 0
    while versions < MOVES:
        # The version's basis, as every redraw of a committed version in a process shares it.
        clear_table_cache()
        basis = table_basis(game)
        public = spectators_drawing(basis)
        heads.clear()
        for viewer in [stranger, *people]:
            page = render_to_string(
                "games/table.html#table", table_context(game, viewer, basis=basis)
            )
            for part in public:
                assert part in page, (kind.slug, game.version, viewer.username)
        assert len(heads) == 1, (kind.slug, game.version)  # for the first viewer alone
        versions += 1
        if game.status != Game.Status.ACTIVE:  # drawn at its end too (the hands open)
            break
        state = basis.state
        seat = rng.choice(sorted(kind.rules.to_act(state)))
        action = rng.choice(list(kind.rules.legal_actions(state, seat)))

        def chosen(kind: GameKind, seat: int, action: Any = action) -> Any:
            return action

        table.submit_move(
            game_id=game.pk, user=people[seat], choice=chosen, seen_version=game.version
        )
        game.refresh_from_db()
    assert versions >= 20  # the game went on long enough to compare many versions


def test_only_a_spectators_page_shows_that_they_watch(alice, bob, dave):
    """The head is the same bytes for all: "You are watching" is in each, and
    static/css/table.css hides it where the table names the viewer's own seat."""
    game = start_table([alice, bob], public=True)
    basis = table_basis(game)
    pages = {
        user.username: render_to_string(
            "games/table.html#table", table_context(game, user, basis=basis)
        )
        for user in (alice, dave)
    }
    assert 'data-own-seat="0"' in pages["alice"]
    assert "data-own-seat" not in pages["dave"]
    assert all('<li class="watching-chip">You are watching</li>' in p for p in pages.values())
    css = (settings.BASE_DIR / "static/css/table.css").read_text()
    assert ".table[data-own-seat] .watching-chip { display: none; }" in css


def test_the_head_is_drawn_again_only_when_what_it_shows_changes(alice, bob):
    game = start_table([alice, bob], public=True)
    clear_table_cache()
    first = table_context(game, alice)["head"]
    seat = active_seat(game)
    table.submit_move(
        game_id=game.pk, user=[alice, bob][seat], choice=bid_choice(0), seen_version=game.version
    )
    game.refresh_from_db()
    later = table_context(game, alice)  # a pass: the bidding goes on, the facts stay
    assert later["version"] > 0 and later["head"] is first
    assert table_context(game, alice, basis=table_basis(game))["head"] is first
    watched = Public(table_basis(game), frozenset(), False, Presence(), None).head(watching=2)
    assert watched is not first and "2 watching" in watched
