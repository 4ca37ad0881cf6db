"""Hundred and Ten's hard bot (games/kinds/hundred_and_ten/search.py).

The sampler deals only what the seat cannot see and keeps what it can: its own hand and
discards, every count, the cards played, and the hands shown to hold no trump. The fast
playout scores a round exactly as the engine's playout does. And in a few positions the
search does what is clearly right.
"""

from __future__ import annotations

import random

import pytest

from games.kinds.hundred_and_ten.bots import BOTS
from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    GameState,
    Play,
    SelectTrump,
    Status,
    apply,
    new_game,
    parse_card,
    perspective_of,
    playout,
    suggestion,
)
from games.kinds.hundred_and_ten.engine.cards import FULL_DECK, IS_TRUMP, Card
from games.kinds.hundred_and_ten.engine.moves import Move
from games.kinds.hundred_and_ten.engine.rules import legal_moves
from games.kinds.hundred_and_ten.playout import finish_round
from games.kinds.hundred_and_ten.search import HundredAndTenSearch, naive_move, voids, win_chance
from games.kinds.search import SearchBot

from .helpers import bids, cards, plays, table

HEARTS = 2
SEARCH = HundredAndTenSearch()


def positions(players: int, seed: str, games: int = 3, steps: int = 300) -> list[GameState]:
    """The first `steps` states of a few games played by the naive bot, with some random
    moves mixed in (so that odd discards, bids and plays show up too)."""
    rng = random.Random(seed)
    found: list[GameState] = []
    for game in range(games):
        state = new_game(f"{seed}:{game}", players)
        for _ in range(steps):
            if state.status is Status.WON:
                break
            found.append(state)
            seat = state.active_seat
            assert seat is not None
            move: Move
            if rng.random() < 0.3:
                if state.status is Status.DISCARD:
                    hand = state.hands[seat]
                    move = Discard(seat, tuple(c for c in hand if rng.random() < 0.5))
                else:
                    move = rng.choice(legal_moves(state, seat))
            else:
                move = suggestion(state)
            state = apply(state, move)
    return found


def whole_deck(state: GameState) -> list[Card]:
    """Every card of the round: hands, discards, the undrawn pile and the cards played."""
    found = [c for hand in state.hands for c in hand]
    found += [c for given in state.discards if given for c in given]
    found += state.pile[state.pile_pos :]
    found += [c for trick in state.tricks for _, c in trick.plays]
    found += [c for _, c in state.current_trick]
    return found


def voided_table() -> GameState:
    """Four players, hearts trump, seat 0 the bidder. Seat 0 gave up two clubs; in the first
    trick, led with the five of hearts, seat 2 (no trump) threw the two of diamonds; seat 1
    leads the six of hearts to the second, seat 2 throws again, and seat 3 is to play."""
    state = table(
        ["JH KH 2C 3C 4C", "5H 6H 7H 8H 9H", "2D 3D 4D 6D 7D", "AH QH 2S 3S 4S"],
        pile="10S 9S",
    )
    state = bids(state, 0, 0, 0, 15)
    state = apply(state, SelectTrump(0, "H"))
    for seat in (1, 2, 3):
        state = apply(state, Discard(seat, ()))
    state = apply(state, Discard(0, cards("2C 3C")))
    return plays(state, "5H", "2D", "QH", "JH", "6H", "3D")


def test_a_seat_that_threw_a_non_trump_on_a_trump_lead_gets_no_trump():
    state = voided_table()
    view = perspective_of(state, 3)
    assert voids(view) == {2}
    trumps = IS_TRUMP[HEARTS]
    others_got_trumps = 0
    for n in range(300):
        world = SEARCH.sample(view, random.Random(n))
        assert not any(trumps[c] for c in world.hands[2])
        others_got_trumps += any(trumps[c] for c in world.hands[0] + world.hands[1])
    # The trumps still hidden go elsewhere (so the check above is not vacuous).
    assert others_got_trumps > 250


def test_a_plain_lead_shows_no_void():
    state = table(
        ["JH KH 2C 3C 4C", "5H 6H 7H 8H 9C", "2D 3D 4D 6D 7D", "AH QH 2S 3S 4S"],
    )
    state = bids(state, 0, 0, 0, 15)
    state = apply(state, SelectTrump(0, "H"))
    for seat in (1, 2, 3, 0):
        state = apply(state, Discard(seat, ()))
    state = plays(state, "9C", "2D", "2S")  # nobody must follow a plain suit
    view = perspective_of(state, 0)
    assert voids(view) == frozenset()
    trumps = IS_TRUMP[HEARTS]
    assert any(
        any(trumps[c] for c in SEARCH.sample(view, random.Random(n)).hands[2]) for n in range(50)
    )


def test_own_cards_and_discards_stay_and_every_count_matches():
    state = voided_table()
    for seat in range(4):
        view = perspective_of(state, seat)
        for n in range(20):
            world = SEARCH.sample(view, random.Random(n))
            assert world.hands[seat] == state.hands[seat]
            assert world.discards[seat] == state.discards[seat]
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert [None if d is None else len(d) for d in world.discards] == [
                None if d is None else len(d) for d in state.discards
            ]
            assert world.draw_pile_size == state.draw_pile_size
            assert world.tricks == state.tricks
            assert world.current_trick == state.current_trick
            assert sorted(whole_deck(world)) == list(FULL_DECK)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_samples_keep_the_view_and_deal_the_hidden_cards_anew(players):
    redealt = 0
    states = positions(players, f"sample:{players}")[::5]
    for state in states:
        seat = state.active_seat
        assert seat is not None
        view = perspective_of(state, seat)
        worlds = [SEARCH.sample(view, random.Random(n)) for n in range(3)]
        for world in worlds:
            assert perspective_of(world, seat) == view
            assert sorted(whole_deck(world)) == list(FULL_DECK)
        others = [s for s in range(players) if s != seat]
        redealt += any(
            w.hands[s] != state.hands[s] or w.discards[s] != state.discards[s]
            for w in worlds
            for s in others
        ) or any(w.pile[w.pile_pos :] != state.pile[state.pile_pos :] for w in worlds)
    assert redealt == len(states)


def test_the_sampler_reads_the_view_only():
    state = voided_table()
    view = perspective_of(state, 3)
    other = SEARCH.sample(view, random.Random(7))  # the same view, other hidden cards
    for n in range(5):
        assert SEARCH.sample(perspective_of(other, 3), random.Random(n)) == SEARCH.sample(
            view, random.Random(n)
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fast_playout_scores_the_round_as_the_engine_does(players):
    for state in positions(players, f"fast:{players}"):
        if state.status is Status.BIDDING and not state.bids:
            continue  # a round's first state stands for the end of the round before it
        end = playout(state)
        assert finish_round(state) == (end.history[-1].round_scores, end.winner)


def test_the_chance_to_win_grows_with_the_points_and_counts_more_near_the_target():
    even = win_chance((40, 40, 40, 40), 110)
    assert even == pytest.approx([0.25] * 4)
    ahead = win_chance((50, 40, 40, 40), 110)
    assert sum(ahead) == pytest.approx(1.0)
    assert ahead[0] > 0.25 > ahead[1] == ahead[2] == ahead[3]
    # The same ten points ahead are worth more when the target is near.
    assert win_chance((100, 90, 90, 90), 110)[0] > win_chance((10, 0, 0, 0), 110)[0] > 0.25
    # A failed bid's debt is a longer way to go.
    assert win_chance((-20, 0), 110)[0] < 0.5


@pytest.mark.parametrize("players", [2, 4])
def test_a_playout_is_worth_the_chance_to_win_from_the_scores_it_leaves(players):
    for state in positions(players, f"value:{players}")[::2]:
        seat = state.active_seat
        assert seat is not None
        if not state.history and not state.bids:
            continue  # a game's first state: no round before it
        value = SEARCH.playout(state, seat, random.Random(0))
        if state.status is Status.BIDDING and not state.bids:
            # A round's first state stands for the end of the round before it, scored.
            assert value == pytest.approx(win_chance(state.scores, state.target)[seat])
            continue
        end = playout(state)
        if end.winner is not None:
            assert value == (1.0 if end.winner == seat else 0.0)
        else:
            assert value == pytest.approx(win_chance(end.scores, state.target)[seat])


def test_the_naive_move_comes_first_and_every_candidate_is_legal():
    for state in positions(4, "candidates")[::3]:
        seat = state.active_seat
        assert seat is not None
        view = perspective_of(state, seat)
        found = list(SEARCH.candidates(view))
        assert found[0] == naive_move(view) == suggestion(state)
        assert len(set(found)) == len(found)
        for move in found:
            apply(state, move)  # legal
        if state.status is Status.DISCARD:
            assert Discard(seat, ()) in found  # keeping the whole hand is always compared


def hard(seat_view_state: GameState, seat: int, seed: str = "hard") -> object:
    bot = BOTS["hard"]
    assert isinstance(bot, SearchBot)
    return bot.choose(seat_view_state, seat, random.Random(seed))


def test_the_five_top_trumps_shoot_the_moon_where_the_naive_bot_bids_fifteen():
    state = table(["2C 3C 4C 6C 7C", "5H JH JK AH KH", "2D 3D 4D 6D 7D", "2S 3S 4S 6S 7S"])
    assert suggestion(state) == Bid(1, 15)
    assert hard(state, 1) == Bid(1, 60)


def test_the_dealer_with_the_five_top_trumps_shoots_the_moon_after_three_passes():
    state = table(["5S JS JK AH AS", "2C 3C 4C 6C 7C", "2D 3D 4D 6D 7D", "2H 3H 4H 6H 7H"])
    state = bids(state, 0, 0, 0)
    assert state.active_seat == 0
    assert hard(state, 0) == Bid(0, 60)


def test_a_hand_without_a_trump_worth_having_passes():
    state = table(["2C 3C 4C 6C 7C", "2D 9C 8S 7H 10S", "3D 4D 6D 7D 8D", "2S 3S 4S 6S 7S"])
    assert hard(state, 1) == Bid(1, 0)


def test_the_bidder_names_the_suit_it_holds():
    state = table(["2C 3C 4C 6C 7C", "5D JD AD KD 9C", "3H 4H 6H 7H 8H", "2S 3S 4S 6S 7S"])
    state = bids(state, 25, 0, 0, 0)
    assert state.status is Status.TRUMP_SELECTION
    assert hard(state, 1) == SelectTrump(1, "D")


def test_the_last_player_takes_the_trick_that_wins_the_game():
    # Seat 3 (105 points) holds AH and 2S, last to play to the fourth trick (2C 6H 6D).
    # With AH it takes the trick and reaches 110 first; with 2S seat 1 (95) takes it and
    # reaches 110 first (a trick won earlier was the 10-point one), whoever takes the last.
    state = table(["JH KH 10H 2C 3C", "5H 6H 7H 9C 8C", "2D 3D 4D 6D 7D", "AH QH 2H 3H 2S"])
    state = state._replace(scores=(60, 95, 80, 105))
    state = bids(state, 0, 0, 0, 15)
    state = apply(state, SelectTrump(0, "H"))
    for seat in (1, 2, 3, 0):
        state = apply(state, Discard(seat, ()))
    state = plays(state, "9C", "2D", "2H", "10H", "JH", "5H", "3D", "3H", "8C", "4D", "QH", "KH")
    state = plays(state, "2C", "6H", "6D")
    assert state.active_seat == 3
    assert playout(apply(state, Play(3, parse_card("AH")))).winner == 3
    assert playout(apply(state, Play(3, parse_card("2S")))).winner == 1
    assert hard(state, 3) == Play(3, parse_card("AH"))
