"""The felt of a version is drawn once for every viewer, from a spectator's chair (issue 37,
docs/render-once.md): every seat and the middle are the same bytes on each player's page and
a spectator's, whatever the game (the registry's kinds, each at its fewest seats).

Each viewer's own part (banner, hand, controls) is still drawn for them; where the felt sits
and which seat is "you" are static/css/seats.css's (tests/games/test_seats_css.py)."""

from __future__ import annotations

import pytest
from django.template import Template
from django.template.loader import render_to_string
from django.test.signals import template_rendered

from games.gamekind import GameKind
from games.live.presence import Presence
from games.presenters.basis import clear_table_cache, table_basis
from games.presenters.context import table_context
from games.presenters.felt import Public, draw
from games.registry import REGISTRY
from games.steps import Steps
from tests.conftest import make_user
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", REGISTRY.values(), ids=lambda k: k.slug)
def test_every_viewer_gets_the_one_felt_drawn_from_a_spectators_chair(kind: GameKind):
    players = min(kind.seat_counts)
    people = [make_user(f"{kind.slug[:3]}{i}") for i in range(players)]
    stranger = make_user(f"{kind.slug[:3]}x")
    game = start_table(people, kind=kind.slug, seed="once")
    clear_table_cache()
    drawn: list[str] = []

    def count(sender: Template, **kwargs: object) -> None:
        if sender.name == "games/_felt.html":
            drawn.append(sender.name)

    # The version's basis, as every redraw of a committed version in a process shares it (a
    # test's transaction never commits, so each call would otherwise build its own).
    basis = table_basis(game)
    template_rendered.connect(count)
    try:
        tables = [table_context(game, viewer, basis=basis) for viewer in [*people, stranger]]
    finally:
        template_rendered.disconnect(count)
    assert len(drawn) == 1  # once, for the first viewer; the others share it
    felts = {t["felt"].html for t in tables}
    assert len(felts) == 1
    # It is what a spectator's chair draws: nothing any seat sees alone.
    spectator = draw(
        kind,
        basis.names,
        basis.seated,
        basis.state,
        None,
        to_act=kind.rules.to_act(basis.state),
        automated=False,
        version=game.version,
        here=Presence(),
        me=None,
        ratings=basis.ratings,
    )
    assert felts == {render_to_string("games/table.html#felt", {**spectator, "kind": kind})}
    # Each page's table carries those bytes, and names its own chair for the CSS to place.
    for seat, table in enumerate(tables):
        page = render_to_string("games/table.html#table", table)
        assert table["felt"].html in page
        own = f' data-own-seat="{seat}"' if seat < players else ""
        assert f'data-view-seat="{seat if seat < players else 0}"{own}' in page


def test_who_is_here_is_part_of_what_the_felt_is_kept_by(alice, bob):
    """A presence dot changes the felt without a new version: it is drawn again then."""
    game = start_table([alice, bob])
    clear_table_cache()
    basis = table_basis(game)
    first = table_context(game, alice, basis=basis)["felt"]
    assert table_context(game, bob, basis=basis)["felt"] is first
    to_act = basis.kind.rules.to_act(basis.state)
    alone = Presence(connected={alice.pk})
    here = Public(basis, to_act, False, alone, None).felt()
    assert here.html != first.html and 'data-seat="0"' in here.html
    assert Public(basis, to_act, False, alone, None).felt() is here


def test_a_moves_answer_and_the_sockets_share_the_drawing_of_a_version(alice, bob):
    """The mover's answer draws the table without a record of steps, each socket with its
    own (games/steps.py): when no resolution is being played out, both are the current
    state, drawn once for both."""
    game = start_table([alice, bob])
    clear_table_cache()
    basis = table_basis(game)
    answer = table_context(game, alice, basis=basis)
    pushed = table_context(game, bob, basis=basis, steps=Steps())
    assert pushed["felt"] is answer["felt"]
    assert pushed["head"] is answer["head"]
