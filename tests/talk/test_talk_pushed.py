"""The line a socket draws for a new message (games/talk/presenter.py `pushed`), asked once
per socket of the game: it hides exactly what the history hides (mutes by the viewer,
blocks either way, the spectators' channel from the players during play, everything from
a private game's outsider), and costs two queries whoever the viewer is.

alice (seat 0) and bob (seat 1) play a public, unrated duel; carol is an unseated invitee;
dave watches.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts import blocking
from games.talk import presenter, rules, service
from games.talk.models import ChatMute

pytestmark = pytest.mark.django_db


def say(game, user, text):
    return service.say(game_id=game.pk, user=user, text=text, limiter=lambda: True)


def mute(viewer, other):
    ChatMute.objects.create(user=viewer, muted=other)


def block(viewer, other):
    blocking.block(by=viewer, other=other)


def blocked_by(viewer, other):
    blocking.block(by=other, other=viewer)


@pytest.mark.parametrize(
    ("hide", "hidden"),
    [(None, False), (mute, True), (block, True), (blocked_by, True)],
    ids=["nothing", "muted", "blocked", "blocked-by"],
)
def test_a_line_is_hidden_from_its_viewer_as_in_the_history(
    open_duel, alice, bob, carol, dave, hide, hidden
):
    if hide is not None:
        hide(alice, bob)
        hide(carol, dave)  # between others: hides nothing from alice or of bob
    message = say(open_duel, bob, "from bob")
    frame = presenter.pushed(open_duel.pk, alice, message.pk)
    assert ("from bob" in frame) is not hidden
    assert (bob.pk in rules.hidden_senders(alice.pk)) is hidden  # the same rule
    assert "from bob" in presenter.pushed(open_duel.pk, dave, message.pk)
    assert "from bob" in presenter.pushed(open_duel.pk, bob, message.pk)


def test_a_mute_hides_from_the_one_who_muted_only(open_duel, alice, bob, dave):
    mute(dave, bob)
    message = say(open_duel, bob, "from bob")
    assert presenter.pushed(open_duel.pk, dave, message.pk) == ""
    assert "from bob" in presenter.pushed(open_duel.pk, alice, message.pk)


def test_the_spectators_channel_is_not_pushed_to_the_players_during_play(
    open_duel, alice, carol, dave
):
    message = say(open_duel, dave, "coaching")
    assert presenter.pushed(open_duel.pk, alice, message.pk) == ""
    assert "coaching" in presenter.pushed(open_duel.pk, carol, message.pk)


def test_a_private_games_outsider_and_a_signed_out_viewer_get_nothing(duel, alice, dave):
    message = say(duel, alice, "private")
    assert presenter.pushed(duel.pk, dave, message.pk) == ""
    assert presenter.pushed(duel.pk, AnonymousUser(), message.pk) == ""
    assert presenter.pushed(duel.pk, alice, message.pk + 1) == ""  # no such message
    assert presenter.pushed(duel.pk + 1, alice, message.pk) == ""  # not this game's


def test_a_line_costs_two_queries_per_socket(
    open_duel, alice, bob, dave, django_assert_num_queries
):
    mute(alice, dave)
    block(alice, bob)
    message = say(open_duel, bob, "from bob")
    for viewer in (alice, bob, dave):
        with django_assert_num_queries(2):  # was five: game, message, member, mutes, blocks
            presenter.pushed(open_duel.pk, viewer, message.pk)
