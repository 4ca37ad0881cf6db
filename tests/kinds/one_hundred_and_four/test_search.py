"""One Hundred and Four's part of the hard bot (games/kinds/one_hundred_and_four/search.py):
the sampler deals only what the seat cannot see, in the sizes the view shows; the fast
policy is the naive bot's; the candidates; and positions where the search must find the
right action (the generic checks of every game's search are in tests/kinds/test_search.py).
"""

from __future__ import annotations

import random

from games.kinds.one_hundred_and_four.bots import BOTS, policy_row, suggest
from games.kinds.one_hundred_and_four.engine import (
    DECK,
    RULES,
    Choose,
    HundredAndFourState,
    TakeRow,
)
from games.kinds.one_hundred_and_four.engine.cards import HAND_SIZE
from games.kinds.one_hundred_and_four.search import (
    HundredAndFourSearch,
    bits,
    naive_action,
    naive_pick,
    naive_table,
    play_out,
    row_facts,
)
from games.kinds.search import SearchBot

from .helpers import choose, table

NAIVE = BOTS["naive"]


def positions(count, seed, seats_choices=range(2, 11), match_to=None):
    """`count` (state, seat to act) reached by random play: every phase, every number of
    seats already committed, pauses included."""
    rng = random.Random(seed)
    found: list[tuple[HundredAndFourState, int]] = []
    game = 0
    while len(found) < count:
        seats = rng.choice(list(seats_choices))
        state = RULES.initial_state(f"search-{seed}-{game}", seats, {"match_to": match_to})
        game += 1
        while RULES.to_act(state) and len(found) < count:
            seat = rng.choice(sorted(RULES.to_act(state)))
            if rng.random() < 0.15:
                found.append((state, seat))
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return found


def seen_by(view):
    """Every card the viewer can place: its hand and committed card, the rows, the piles
    and (in a pause) the revealed cards."""
    seen = set(view.hand)
    if view.my_choice is not None:
        seen.add(view.my_choice)
    seen.update(c for row in view.rows for c in row)
    seen.update(c for pile in view.piles for c in pile)
    seen.update(c for _, c in view.revealed)
    return seen


def test_a_sample_deals_only_unseen_cards_in_the_sizes_the_view_shows():
    game = HundredAndFourSearch()
    for state, seat in positions(150, 1):
        view = RULES.view(state, seat)
        seen = seen_by(view)
        table = naive_table(*row_facts(view.rows))
        for n in range(3):
            world = game.sample(view, random.Random(n))
            assert RULES.view(world, seat) == view
            assert world.hands[seat] == view.hand
            deal = world.source.deal(view.deal, view.seats)
            assert not seen & set(deal.rest), "an unused card the seat has seen"
            for other in range(view.seats):
                if other == seat:
                    continue
                assert len(world.hands[other]) == view.hand_sizes[other]
                assert not seen & set(world.hands[other]), "a dealt card the seat has seen"
                committed = world.choices[other] != 0
                assert committed == view.committed[other]
                if committed and view.phase == "choose":
                    assert world.choices[other] not in seen
                    # The naive policy's card of the hand it was dealt.
                    hand = (*world.hands[other], world.choices[other])
                    assert naive_pick(bits(hand), table) == world.choices[other]
            # Every card exactly once: rows, piles, hands, this turn's cards, unused.
            held = [c for row in world.rows for c in row]
            held += [c for pile in world.piles for c in pile]
            held += [c for hand in world.hands for c in hand]
            held += [c for c in world.choices if c]
            held += deal.rest
            assert sorted(held) == list(DECK)
            # The deal's hands are what each seat holds, played and committed.
            for other in range(view.seats):
                played = [c for turn in view.played for s, c in turn if s == other]
                choice = [world.choices[other]] if world.choices[other] else []
                assert sorted([*world.hands[other], *played, *choice]) == sorted(deal.hands[other])
                assert len(deal.hands[other]) == HAND_SIZE


def test_samples_redeal_the_other_hands_and_the_unused_cards():
    game = HundredAndFourSearch()
    state = RULES.initial_state("redeal", 4, {"match_to": None})
    view = RULES.view(state, 2)
    worlds = [game.sample(view, random.Random(n)) for n in range(5)]
    assert len({w.hands[0] for w in worlds}) == 5
    assert len({w.source.deal(0, 4).rest for w in worlds}) == 5
    # The same generator gives the same sample.
    assert game.sample(view, random.Random(3)) == worlds[3]


def test_a_sample_in_a_pause_keeps_the_revealed_cards():
    rows = ((20, 30), (40,), (50, 51, 52), (60,))
    state = choose(table(rows, [[5], [95], [45]]), 5, 95, 45)
    assert state.phase == "pause"
    for seat in range(3):
        view = RULES.view(state, seat)
        world = HundredAndFourSearch().sample(view, random.Random(seat))
        assert world.choices == (5, 95, 45)
        assert world.asked == 0
        assert RULES.view(world, seat) == view


def test_a_sample_of_a_match_deals_on_past_the_deal():
    game = HundredAndFourSearch()
    for state, seat in positions(40, 2, seats_choices=(3, 10), match_to=66):
        world = game.sample(RULES.view(state, seat), random.Random(0))
        deal = world.deal
        while RULES.to_act(world) and world.deal == deal:
            actor = min(RULES.to_act(world))
            world = RULES.apply(world, actor, NAIVE.choose(world, actor, random.Random(0)))
        # The deal ended: the game is over or the next deal was dealt from the sample.
        assert world.phase == "over" or (world.deal == deal + 1 and world.turn == 0)


def test_the_fast_policy_is_the_naive_bot():
    for state, seat in positions(600, 3):
        view = RULES.view(state, seat)
        assert naive_action(view) == suggest(view)


def test_a_playout_plays_the_deal_as_the_naive_bots_would():
    game = HundredAndFourSearch()
    rng = random.Random(4)
    for state, seat in positions(200, 5):
        ends, lengths, costs = row_facts(state.rows)
        penalties = list(state.penalties)
        hands = [bits(hand) for hand in state.hands]
        turns = HAND_SIZE - state.turn
        play_out(ends, lengths, costs, hands, list(state.choices), penalties, turns)
        played = state
        while RULES.to_act(played):
            actor = min(RULES.to_act(played))
            played = RULES.apply(played, actor, NAIVE.choose(played, actor, rng))
        assert tuple(penalties) == played.history[-1].penalties
        assert tuple(ends) == tuple(row[-1] for row in played.rows)
        assert game.playout(state, seat, rng) == -played.history[-1].penalties[seat]


def test_the_candidates_are_the_legal_actions_the_naive_choice_first():
    game = HundredAndFourSearch()
    for state, seat in positions(200, 6):
        view = RULES.view(state, seat)
        candidates = game.candidates(view)
        assert sorted(candidates, key=repr) == sorted(RULES.legal_actions(state, seat), key=repr)
        if candidates:
            assert candidates[0] == suggest(view)


def test_the_budget_grows_as_playouts_get_cheaper():
    game = HundredAndFourSearch()
    state = RULES.initial_state("budget", 4, {"match_to": None})
    first = game.budget(RULES.view(state, 0), 60)
    assert first == 60
    later = RULES.view(state._replace(turn=6), 0)
    crowded = RULES.view(RULES.initial_state("budget", 10, {"match_to": None}), 0)
    assert game.budget(later, 60) > first > game.budget(crowded, 60)


def hard(playouts=60):
    return SearchBot(RULES, HundredAndFourSearch(), playouts=playouts, min_samples=4)


def test_the_hard_bot_does_not_play_a_costly_sixth_card():
    full = (55, 60, 61, 62, 63)  # 7 + 3 + 1 + 1 + 1 bullheads
    state = table(((10,), (20,), (30,), full), [[64, 35, 36, 37], [99], [98], [97]])
    for seed in range(3):
        action = hard().choose(state, 0, random.Random(seed))
        assert action != Choose(64)


def last_turn_pauses(count):
    """Pauses at the ninth turn of ten-seat deals played by the naive bots, with the outcome
    of each row for the seat asked: every card is dealt at ten seats, so the last turn plays
    the cards nobody has shown yet whoever holds them, and the asked seat's points are
    certain for each row it may take."""
    found: list[tuple[HundredAndFourState, int, int]] = []
    game = 0
    while len(found) < count and game < 400:
        state = RULES.initial_state(f"pause-{game}", 10, {"match_to": None})
        game += 1
        while RULES.to_act(state):
            if state.phase == "pause" and state.turn == HAND_SIZE - 2:
                asked = state.asked
                outcomes = []
                for row in range(4):
                    after = RULES.apply(state, asked, TakeRow(row))
                    while RULES.to_act(after):
                        actor = min(RULES.to_act(after))
                        after = RULES.apply(
                            after, actor, NAIVE.choose(after, actor, random.Random(0))
                        )
                    outcomes.append(after.totals[asked])
                best = min(outcomes)
                naive_row = policy_row(state.rows)
                if outcomes.count(best) == 1 and outcomes[naive_row] > best:
                    found.append((state, asked, outcomes.index(best)))
                break
            actor = min(RULES.to_act(state))
            state = RULES.apply(state, actor, NAIVE.choose(state, actor, random.Random(0)))
    return found


def test_the_hard_bot_takes_the_row_that_spares_its_last_card():
    # The naive bot takes the cheapest row; the search sees what that does to its last card.
    found = last_turn_pauses(3)
    assert found, "no position found"
    for state, asked, best in found:
        assert policy_row(state.rows) != best
        assert hard().choose(state, asked, random.Random(0)) == TakeRow(best)
