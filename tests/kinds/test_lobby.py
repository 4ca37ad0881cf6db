"""The lobby rules of the seed library (rules section 2), as pure functions."""

from __future__ import annotations

import pytest

from games.kinds.lobby import (
    LobbyError,
    Role,
    add_bot,
    decline,
    find,
    invite,
    join,
    leave,
    new_lobby,
    players,
    remove,
    start,
)


def person(lobby, person_id):
    found = find(lobby, person_id)
    assert found is not None
    return found


def refused(words, function, *args):
    with pytest.raises(LobbyError, match=words):
        function(*args)


def test_the_organizer_is_organizer_and_first_player():
    lobby = new_lobby("alice")
    assert person(lobby, "alice").roles == frozenset({Role.ORGANIZER, Role.PLAYER})
    assert players(lobby) == ("alice",) and lobby.public is False


def test_any_player_may_invite_but_not_twice_and_not_a_player():
    lobby = join(new_lobby("alice", public=True), "bob")
    lobby = invite(lobby, "bob", "carol")
    assert person(lobby, "carol").roles == frozenset({Role.INVITEE})
    refused("already been invited", invite, lobby, "alice", "carol")
    refused("already playing", invite, lobby, "alice", "bob")
    refused("Only players", invite, lobby, "carol", "dave")
    refused("Only players", invite, lobby, "dave", "erin")


def test_private_games_admit_only_invitees_who_become_players_in_join_order():
    lobby = new_lobby("alice")
    refused("private", join, lobby, "dave")
    lobby = invite(invite(lobby, "alice", "carol"), "alice", "bob")
    lobby = join(join(lobby, "bob"), "carol")
    assert players(lobby) == ("alice", "bob", "carol")
    assert person(lobby, "carol").roles == frozenset({Role.PLAYER})
    refused("already playing", join, lobby, "bob")


def test_public_games_admit_anyone_up_to_four():
    lobby = new_lobby("alice", public=True)
    for who in ("bob", "carol", "dave"):
        lobby = join(lobby, who)
    refused("This game is full.", join, lobby, "erin")
    refused("This game is full.", add_bot, lobby, "alice", "bot")


def test_decline_and_leave():
    lobby = invite(new_lobby("alice"), "alice", "carol")
    assert find(decline(lobby, "carol"), "carol") is None
    refused("no invitation", decline, lobby, "dave")
    lobby = join(lobby, "carol")
    refused("no invitation", decline, lobby, "carol")
    assert players(leave(lobby, "carol")) == ("alice",)
    refused("organizer cannot leave", leave, lobby, "alice")
    refused("not playing", leave, lobby, "dave")


def test_only_the_organizer_adds_bots_removes_people_and_starts():
    lobby = join(new_lobby("alice", public=True), "bob")
    refused("Only the organizer can add a bot", add_bot, lobby, "bob", "bot-1")
    lobby = add_bot(lobby, "alice", "bot-1")
    assert person(lobby, "bot-1").bot and players(lobby) == ("alice", "bob", "bot-1")
    refused("already taken", add_bot, lobby, "alice", "bob")
    refused("Only the organizer can remove", remove, lobby, "bob", "bot-1")
    refused("cannot remove yourself", remove, lobby, "alice", "alice")
    refused("nobody by that name", remove, lobby, "alice", "zed")
    assert players(remove(lobby, "alice", "bot-1")) == ("alice", "bob")
    refused("Only the organizer can start the game.", start, lobby, "bob")


def test_start_needs_two_players_happens_once_and_closes_the_lobby():
    lonely = invite(new_lobby("alice"), "alice", "carol")
    refused("At least two players", start, lonely, "alice")
    lobby = start(join(lonely, "carol"), "alice")
    assert lobby.started and players(lobby) == ("alice", "carol")
    refused("already started", start, lobby, "alice")
    refused("already started", join, lobby, "dave")
    refused("already started", invite, lobby, "alice", "dave")
    refused("already started", leave, lobby, "carol")
    refused("already started", add_bot, lobby, "alice", "bot")
    refused("already started", remove, lobby, "alice", "carol")


def test_invitations_lapse_at_the_start():
    lobby = invite(join(new_lobby("alice", public=True), "bob"), "alice", "carol")
    assert find(start(lobby, "alice"), "carol") is None
