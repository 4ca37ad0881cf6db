"""A chat line is drawn once (games/talk/presenter.py `drawn`) and each socket decides from
the event alone whether its user reads it (`frame_for`). That decision must be the one the
per-socket path makes with queries (`pushed`), for every reader: players and spectators,
both channels, during play and once the game is over, mutes, blocks either way, an outsider
of a private game, a removed member, and the sender's own copy (no mute button on it).
"""

from __future__ import annotations

import itertools

import pytest

from accounts import blocking
from games.models import ChatMessage, ChatMute, Game, Membership
from games.talk import presenter
from games.talk.models import Channel
from tests.talk.conftest import duel_of

pytestmark = pytest.mark.django_db


def message(game, user, channel, text):
    member = Membership.objects.filter(game=game, user=user).first()
    return ChatMessage.objects.create(
        game=game,
        user=user,
        channel=channel,
        text=text,
        seat=member.seat if member else None,
        at_action=game.action_count,
    )


def decisions(game, readers, said):
    """(reader, message) -> (the frame drawn once, the frame drawn per socket)."""
    game = Game.objects.get(pk=game.pk)
    found = {}
    for reader, m in itertools.product(readers, said):
        line = presenter.drawn(m, game)
        assert line is not None
        found[reader.username, m.text] = (
            presenter.frame_for(line, reader.pk),
            presenter.pushed(game.pk, reader, m.pk),
        )
    return found


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("over", [False, True])
def test_every_reader_gets_from_the_line_drawn_once_what_a_socket_would_draw_itself(
    alice, bob, carol, dave, public, over
):
    game = duel_of(alice, bob, carol, public=public, rated="no")
    if over:
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    said = [
        message(game, alice, Channel.PLAYERS, "from alice"),
        message(game, bob, Channel.PLAYERS, "from bob"),
        message(game, carol, Channel.SPECTATORS, "from carol"),
    ]
    if public:
        said.append(message(game, dave, Channel.SPECTATORS, "from dave"))
    ChatMute.objects.create(user=alice, muted=bob)
    blocking.block(by=carol, other=alice)

    found = decisions(game, [alice, bob, carol, dave], said)

    for (reader, text), (once, per_socket) in found.items():
        assert once == per_socket, (reader, text)
    read = {key for key, (once, _) in found.items() if once}
    # Spot checks that the matrix is not empty either way (the equality does the rest).
    assert ("alice", "from bob") not in read  # muted
    assert ("carol", "from alice") not in read and ("alice", "from carol") not in read
    assert ("bob", "from carol") in read if over else ("bob", "from carol") not in read
    assert (("dave", "from alice") in read) is public  # a private game's outsider
    mine = found["alice", "from alice"][0]
    theirs = found["bob", "from alice"][0]
    assert "from alice" in mine and mine != theirs  # the sender's copy has no mute button


def test_a_member_removed_before_the_line_is_drawn_does_not_read_it(alice, bob, carol):
    game = duel_of(alice, bob, carol, rated="no")
    m = message(game, alice, Channel.PLAYERS, "just us")
    Membership.objects.filter(game=game, user=carol).delete()
    line = presenter.drawn(m, Game.objects.get(pk=game.pk))
    assert line is not None
    assert presenter.frame_for(line, carol.pk) == "" == presenter.pushed(game.pk, carol, m.pk)
    assert "just us" in presenter.frame_for(line, bob.pk)


def test_a_sender_hidden_from_very_many_is_left_to_each_socket(alice, bob, carol, monkeypatch):
    game = duel_of(alice, bob, carol, rated="no")
    m = message(game, alice, Channel.PLAYERS, "hello")
    ChatMute.objects.create(user=bob, muted=alice)
    monkeypatch.setattr(presenter, "MOST_HIDING", 0)
    assert presenter.drawn(m, Game.objects.get(pk=game.pk)) is None
