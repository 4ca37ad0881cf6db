"""The `Game` facade: lobby + state + automation (rules section 16)."""

from __future__ import annotations

import pytest

from games.kinds.hundred_and_ten.engine import (
    Bid,
    Game,
    IllegalMove,
    LobbyError,
    Status,
    suggestion,
)


def three_player_game(seed="facade"):
    game = Game("alice", seed=seed, public=True)
    game.join("bob")
    game.join("carol")
    return game


def test_before_the_start_it_waits_for_players():
    game = three_player_game()
    assert game.status is Status.WAITING_FOR_PLAYERS
    assert game.active_player is None and game.scores == (0, 0, 0) and game.rounds == ()
    with pytest.raises(IllegalMove):
        game.act(Bid(1, 15))
    with pytest.raises(LobbyError):
        game.start("bob")


def test_acting_moves_the_game_and_refusals_leave_it_unchanged():
    game = three_player_game()
    assert game.start("alice") == ()
    assert game.status is Status.BIDDING and game.active_player == "bob"
    before = game.state
    with pytest.raises(IllegalMove):
        game.act(Bid(2, 15))
    assert game.state is before
    (step,) = game.act(Bid(1, 15))
    assert (step.before, step.auto, step.after) == (before, False, game.state)
    assert game.active_player == "carol"


def test_an_automated_seat_plays_at_once_across_rounds_until_the_end():
    game = three_player_game("auto")
    game.automate("bob")
    game.automate("carol")
    game.start("alice")
    assert game.active_player == "alice"
    steps = game.act(game.suggestion())
    assert steps[0].auto is False and all(s.auto for s in steps[1:])
    for step in steps[1:]:
        assert step.move == suggestion(step.before)
        assert step.move.seat in (1, 2)
    assert game.status is Status.WON or game.active_player == "alice"


def test_automating_the_active_seat_acts_immediately_and_can_finish_the_game():
    game = three_player_game("finish")
    game.start("alice")
    assert game.automate(0) == ()  # seat 0 is not active: nothing happens yet
    game.automate("carol")
    steps = game.automate(1)
    assert steps and steps[0].move.seat == 1
    assert game.status is Status.WON
    assert game.winner in ("alice", "bob", "carol") and game.active_player is None
    assert max(game.scores) >= 110 and game.rounds[-1].outcome in ("made", "failed", "moon")
    with pytest.raises(LobbyError):
        game.automate("zed")


def test_bots_added_in_the_lobby_play_by_themselves_from_the_start():
    game = Game("alice", seed="bots")
    game.add_bot("alice", "bot-1")
    steps = game.start("alice")
    assert game.is_automated(1) and not game.is_automated(0)
    assert all(s.move.seat == 1 for s in steps)
    assert game.active_player == "alice" or game.status is Status.WON
    assert game.seat_of("bot-1") == 1
    with pytest.raises(LobbyError):
        game.seat_of("zed")


def test_games_without_a_seed_deal_differently_and_a_seed_repeats_the_deal():
    def dealt(seed=None):
        game = Game("alice", seed=seed)
        game.add_bot("alice", "bot")
        game.automate("bot")
        game.start("alice")
        assert game.state is not None
        return game.state.dealt

    assert dealt() != dealt()
    assert dealt("same") == dealt("same")
