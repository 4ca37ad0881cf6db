"""Hearts' hard bot (games/kinds/hearts/search.py, sampling.py, playout.py): the sampler
keeps what the seat knows (voids, the cards passed and received, hand sizes), the fast
playout policy is the naive bot's, the candidates, and positions where the search must beat
the naive play.
(The generic checks of every game's search are in tests/kinds/test_search.py.)"""

from __future__ import annotations

import random

import pytest

from games.kinds.hearts.bots import BOTS, choose_pass, choose_play
from games.kinds.hearts.engine import RULES, HeartsState, Pass, Play, cards_of, parse_card
from games.kinds.hearts.engine.cards import (
    BIT,
    DECK,
    HEARTS_MASK,
    POINTS,
    POINTS_MASK,
    SUIT_MASKS,
    mask_of,
)
from games.kinds.hearts.engine.state import pass_offset
from games.kinds.hearts.playout import hand_points, naive_pass, state_card
from games.kinds.hearts.sampling import Dealer, Sampler
from games.kinds.hearts.search import HeartsSearch, pass_candidates, play_candidates, value
from games.kinds.search import SearchBot

from .helpers import HOLD_INDEX, cards, hand_at
from .helpers import play as play_cards

HARD = BOTS["hard"]
NAIVE = BOTS["naive"]


def codes(text):
    """A hand (trace form) from card codes separated by spaces."""
    return text.split()


def positions(count, seed, naive_share=0.7):
    """(state, seat to act) pairs from games played by a mix of naive and random moves, so
    that voids, passes and points turn up as in real games."""
    rng = random.Random(seed)
    found: list[tuple[HeartsState, int]] = []
    game = 0
    state = RULES.initial_state(f"{seed}:0", 4, {"target": 100})
    while len(found) < count:
        waiting = sorted(RULES.to_act(state))
        if not waiting:
            game += 1
            state = RULES.initial_state(f"{seed}:{game}", 4, {"target": 100})
            continue
        seat = rng.choice(waiting)
        if rng.random() < 0.3:
            found.append((state, seat))
        if rng.random() < naive_share:
            action = NAIVE.choose(state, seat, rng)
        else:
            action = rng.choice(list(RULES.legal_actions(state, seat)))
        state = RULES.apply(state, seat, action)
    return found


def shown_constraints(state):
    """Per seat, the cards it may still hold as the play shows them, worked out here
    independently of the sampler: not following the led suit shows a void, a point card
    thrown on the first trick shows nothing but points, a heart led before hearts broke
    shows nothing but hearts."""
    allowed = [(1 << 52) - 1] * 4
    tricks = [t.plays for t in state.tricks]
    if state.trick:
        seats = [(state.leader + i) % 4 for i in range(len(state.trick))]
        tricks.append(tuple(zip(seats, state.trick, strict=True)))
    broken = False
    for index, plays in enumerate(tricks):
        leader, led = plays[0]
        if led // 13 == 2 and not broken:
            allowed[leader] &= HEARTS_MASK
        for seat, card in plays[1:]:
            if card // 13 != led // 13:
                allowed[seat] &= ~SUIT_MASKS[led // 13]
                if index == 0 and POINTS[card]:
                    allowed[seat] &= POINTS_MASK
        broken = broken or any(card // 13 == 2 for _, card in plays)
    return allowed


def played_by(state):
    out = [0, 0, 0, 0]
    for trick in state.tricks:
        for seat, card in trick.plays:
            out[seat] |= BIT[card]
    for i, card in enumerate(state.trick):
        out[(state.leader + i) % 4] |= BIT[card]
    return out


# --- The sampler -------------------------------------------------------------------------------


def test_samples_respect_voids_passes_and_hand_sizes():
    voids = passes_checked = 0
    for state, seat in positions(400, "sampler"):
        view = RULES.view(state, seat)
        sampler = Sampler(view)
        allowed = shown_constraints(state)
        by = played_by(state)
        played = by[0] | by[1] | by[2] | by[3]
        offset = pass_offset(state.hand_index)
        for n in range(4):
            world = sampler.draw(random.Random(n))
            assert RULES.view(world, seat) == view
            hands = world.hands
            # Every card once: in a hand or played.
            assert hands[0] | hands[1] | hands[2] | hands[3] | played == (1 << 52) - 1
            assert sum(h.bit_count() for h in hands) + played.bit_count() == 52
            assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]
            assert hands[seat] == state.hands[seat]
            for other in range(4):
                assert hands[other] & ~allowed[other] == 0, (other, cards_of(hands[other]))
                if allowed[other] != (1 << 52) - 1 and other != seat:
                    voids += 1
            if state.phase == "play" and offset:
                receiver, giver = (seat + offset) % 4, (seat - offset) % 4
                mine = world.passes[seat]
                assert mine == state.passes[seat]
                # What the seat passed is in the receiver's hand unless played since.
                assert mine & ~played & ~hands[receiver] == 0
                assert mine & ~played & hands[receiver] == mine & ~played
                assert world.passes[giver] == state.passes[giver]  # what it received
                for other in range(4):
                    gift = world.passes[other]
                    assert gift.bit_count() == 3
                    taker = (other + offset) % 4
                    assert gift & ~(hands[taker] | by[taker]) == 0
                passes_checked += 1
            elif state.phase == "pass":
                for other in range(4):
                    assert (world.passes[other] != 0) == (state.passes[other] != 0)
                    assert world.passes[other] & ~hands[other] == 0
    assert voids > 100 and passes_checked > 100


def test_samples_deal_the_hidden_cards_anew():
    moved = 0
    for state, seat in positions(60, "anew"):
        view = RULES.view(state, seat)
        sampler = Sampler(view)
        worlds = {sampler.draw(random.Random(n)).hands for n in range(6)}
        moved += len(worlds) > 1
    assert moved > 50


# A hold hand of one suit a seat: clubs, diamonds, spades, hearts.
SUITED_DEAL = [
    codes("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
    codes("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"),
    codes("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"),
    codes("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
]


def test_a_void_in_the_led_suit_holds_no_card_of_it():
    state = hand_at(HOLD_INDEX, SUITED_DEAL)
    # Seats 1, 2, 3 are void in clubs; a point card on trick 1 is allowed only to a hand of
    # nothing else, so seat 3's A♥ shows it holds only hearts and maybe the Q♠.
    state = play_cards(state, "2C", "AD", "AS", "AH")
    view = RULES.view(state, 0)
    sampler = Sampler(view)
    for n in range(20):
        world = sampler.draw(random.Random(n))
        for seat in (1, 2, 3):
            assert world.hands[seat] & SUIT_MASKS[0] == 0
        assert world.hands[3] & ~POINTS_MASK == 0


def test_the_dealer_refuses_an_impossible_deal_and_fills_tight_ones():
    clubs = SUIT_MASKS[0]
    with pytest.raises(ValueError):
        Dealer(clubs, [5, 4, 4], [0, clubs, clubs])  # seat 0 may hold nothing
    # Seat 0 may hold only clubs and needs 13: the other two share the rest at random.
    unseen = (1 << 39) - 1
    dealer = Dealer(unseen, [13, 13, 13], [clubs, unseen & ~clubs, unseen])
    for n in range(10):
        hands = dealer.deal(random.Random(n))
        assert hands[0] == clubs
        assert hands[1] & clubs == 0
        assert hands[0] | hands[1] | hands[2] == unseen
        assert [h.bit_count() for h in hands] == [13, 13, 13]


# --- The fast playout policy is the naive bot's -------------------------------------------------


def test_the_fast_policy_plays_the_naive_card():
    compared = 0
    for state, seat in positions(3000, "policy", naive_share=0.5):
        if state.phase == "play":
            assert state_card(state, seat) == choose_play(RULES.view(state, seat))
            compared += 1
    assert compared > 2000


def test_the_fast_pass_is_the_naive_pass():
    rng = random.Random(5)
    for _ in range(3000):
        hand = mask_of(rng.sample(DECK, 13))
        assert naive_pass(hand) == mask_of(choose_pass(cards_of(hand)))


def test_a_fast_playout_ends_the_hand_as_the_naive_bot_does():
    for state, _ in positions(150, "playout"):
        expected = hand_points(state)
        index = state.hand_index
        while state.hand_index == index and RULES.to_act(state):
            seat = min(RULES.to_act(state))
            state = RULES.apply(state, seat, NAIVE.choose(state, seat, random.Random(0)))
        assert list(state.history[-1].taken) == expected


def test_the_value_counts_the_moon():
    assert value((0, 26, 0, 0), 1) == 26
    assert value((0, 26, 0, 0), 0) == pytest.approx(-26 + 52 / 3)
    assert value((13, 5, 4, 4), 0) == pytest.approx(13 / 3 - 13)
    assert value((13, 5, 4, 4), 2) > value((13, 5, 4, 4), 1) > value((13, 5, 4, 4), 0)


# --- Candidates --------------------------------------------------------------------------------


def test_candidates_put_the_naive_choice_first_and_are_legal():
    search = HeartsSearch()
    for state, seat in positions(500, "candidates"):
        view = RULES.view(state, seat)
        candidates = list(search.candidates(view))
        naive = NAIVE.choose(state, seat, random.Random(0))
        assert candidates[0] == naive
        assert len(set(candidates)) == len(candidates)
        for action in candidates:
            RULES.apply(state, seat, action)  # raises if refused
        if view.can_pass:
            assert 1 <= len(candidates) <= 6
            assert all(isinstance(a, Pass) and len(set(a.cards)) == 3 for a in candidates)


def test_equivalent_cards_are_one_candidate():
    state = hand_at(HOLD_INDEX, SUITED_DEAL)
    state = play_cards(state, "2C", "2D", "2S", "AH")
    # Seat 0 holds every other club: all its clubs play alike, one candidate.
    assert play_candidates(RULES.view(state, 0)) == [Play(parse_card("3C"))]


def test_pass_candidates_include_a_void_and_keeping_a_guarded_queen():
    hand = list(cards("2S 3S 4S 5S QS 3C 9D 10D JD QD KD AD 2H"))
    passes = pass_candidates(hand)
    assert passes[0] == Pass(choose_pass(tuple(sorted(hand))))
    assert Pass(cards("3C KD AD")) in passes  # club void
    assert all(parse_card("QS") not in p.cards for p in passes[1:2])  # the guarded Q♠ stays


# --- Positions the search must get right --------------------------------------------------------

DUCK_DEAL = [
    codes("2C 8C JC 4D JD AD 5D 2H 3H 4H 5H 10H 6H"),
    codes("AC KC QC 3C KD QD 9D AS KS JS 10S AH 9H"),
    codes("4C 6C 9C 2D 6D 8D 2S 5S 8S 4S QS QH 8H"),
    codes("5C 7C 10C 3D 10D 7D 3S 6S 9S 7S JH 7H KH"),
]
DUCK_PLAY = (
    "2C AC 4C 5C",  # seat 1 wins every trick up to the twelfth
    "KC 6C 7C 8C",
    "QC 9C 10C JC",
    "KD 2D 3D 4D",
    "QD 6D 10D JD",
    "AS 2S 3S 2H",  # seat 0 is void in spades: hearts are broken
    "KS 5S 6S 3H",
    "JS 8S 9S 4H",
    "10S 4S 7S 5H",
    "AH QH JH 10H",
    "9H 8H 7H 6H",
    "9D 8D 7D",
)


def position(deal: list[list[str]], tricks: tuple[str, ...]) -> HeartsState:
    """A hold hand of `deal` played up to the end of `tricks` (the last one maybe unfinished)."""
    state = hand_at(HOLD_INDEX, deal)
    for trick in tricks:
        state = play_cards(state, *trick.split())
    return state


def hard_not_naive(state: HeartsState, naive: str, hard: str) -> None:
    """Seat 0 plays `naive` as the naive bot, `hard` as the hard bot (whatever its seed)."""
    assert NAIVE.choose(state, 0, random.Random(0)) == Play(parse_card(naive))
    for seed in range(3):
        assert HARD.choose(state, 0, random.Random(seed)) == Play(parse_card(hard))


def test_the_hard_bot_ducks_a_clean_trick_it_would_pay_for_later():
    state = position(DUCK_DEAL, DUCK_PLAY)
    # Seat 0 is last on a clean trick holding A♦ 5♦, and no other seat has a diamond: the
    # naive bot takes it with the A♦ and must then lead the 5♦, winning the Q♠ and K♥ on
    # the last trick; ducking with the 5♦ leaves the last lead to seat 1 and costs nothing.
    assert RULES.to_act(state) == {0}
    hard_not_naive(state, "AD", "5D")


MOON_DEAL = [
    codes("2C 8C JC 6D 9D 2H 6S 8S 4H 10H 6H AH 3H"),
    codes("AC KC QC AD KD QD AS KS JS KH 9H 5H 4C"),
    codes("3C 6C 9C 4D 7D 10D 4S QS 9S QH 8H 2D 3D"),
    codes("5C 7C 10C 5D 8D JD 5S 7S 10S JH 7H 2S 3S"),
]
MOON_PLAY = (
    "2C AC 3C 5C",  # seat 1 takes every trick, the Q♠ and ten hearts among them
    "KC 6C 7C 8C",
    "QC 9C 10C JC",
    "AD 4D 5D 6D",
    "KD 7D 8D 9D",
    "QD 10D JD 2H",
    "AS 4S 5S 6S",
    "KS QS 7S 8S",
    "JS 9S 10S 4H",
    "KH QH JH 10H",
    "9H 8H 7H 6H",
    "5H 3D 3S",
)


def test_the_hard_bot_stops_a_moon_shot():
    state = position(MOON_DEAL, MOON_PLAY)
    # Seat 1 has 23 points and leads the 5♥; seat 0 holds the last two hearts. Ducking with
    # the 3♥ (the naive play) lets seat 1 take every heart and shoot the moon: 26 for seat
    # 0. Taking with the A♥ costs seat 0 three points and stops it.
    assert state.taken[1] == 23
    hard_not_naive(state, "3H", "AH")


def test_the_hard_bot_is_the_search():
    assert isinstance(HARD, SearchBot)
    assert isinstance(HARD.game, HeartsSearch)
