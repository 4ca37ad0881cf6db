"""Table talk fixtures: alice (organizer, seat 0) and bob (seat 1) at a Hundred and Ten
duel; carol an unseated invitee; dave an outsider (or a spectator of a public game)."""

from __future__ import annotations

import pytest

from games.models import Membership
from tests.games.conftest import bid_choice, start_table


@pytest.fixture(autouse=True)
def _bots_without_pause(settings):
    settings.BOT_DELAY_SECONDS = 0


@pytest.fixture(autouse=True)
def _quick_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def duel_of(alice, bob, carol=None, **kwargs):
    game = start_table([alice, bob], name="Duel", **kwargs)
    if carol is not None:
        Membership.objects.create(game=game, user=carol, role="invitee")
    return game


@pytest.fixture
def duel(alice, bob, carol):
    """Private, rated (two people), just dealt: no move made yet (between hands)."""
    return duel_of(alice, bob, carol)


@pytest.fixture
def open_duel(alice, bob, carol):
    """The same, public and not rated: dave may watch (and talk to the spectators)."""
    return duel_of(alice, bob, carol, public=True, rated="no")


def bid(game, user, amount=15):
    from games.models import Game
    from games.services import table

    game = Game.objects.get(pk=game.pk)
    table.submit_move(
        game_id=game.pk, user=user, choice=bid_choice(amount), seen_version=game.version
    )
