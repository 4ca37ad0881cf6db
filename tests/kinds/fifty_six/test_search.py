"""Fifty-Six's hard bot (games/kinds/fifty_six/search.py, policy.py, playout.py): the fast
policy is the naive bot, the sampler keeps what the seat knows (voids, the concealed trump,
counts, tani), and the search takes a few clearly right decisions. (The generic checks of
every game's hard bot are in tests/kinds/test_search.py.)"""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.kinds.fifty_six.bots import BOTS, suggest
from games.kinds.fifty_six.engine import RULES, FiftySixState, make_bid, make_play, parse_card
from games.kinds.fifty_six.engine.actions import ChooseTrump
from games.kinds.fifty_six.engine.cards import BIT, DECK_MASKS, SUIT_MASKS, SUIT_OF
from games.kinds.fifty_six.engine.state import AUCTION, PLAY, TRUMP_CHOICE
from games.kinds.fifty_six.playout import VOID, fast_action, finish_hand
from games.kinds.fifty_six.search import FiftySixSearch, bid_candidates, decided
from games.kinds.search import SearchBot

from .helpers import act, deal, start

SEARCH = FiftySixSearch(suggest)


def positions(count: int, seed: str, naive_share: float = 0.8):
    """`count` (state, seat to act) from 4- and 6-seat matches played mostly by the naive
    bot (so auctions and contracts look real), with some random actions mixed in."""
    rng = random.Random(seed)
    found: list[tuple[FiftySixState, int]] = []
    game = 0
    while len(found) < count:
        seats = (4, 6)[game % 2]
        state = RULES.initial_state(f"{seed}:{game}", seats, {"tables_per_team": 12})
        game += 1
        for _ in range(rng.randrange(20, 400)):
            if not RULES.to_act(state):
                break
            (seat,) = RULES.to_act(state)
            if rng.random() < 0.25:
                found.append((state, seat))
            if rng.random() < naive_share:
                suggested = suggest(RULES.view(state, seat))
                assert suggested is not None
                action = suggested
            else:
                action = rng.choice(RULES.legal_actions(state, seat))
            state = RULES.apply(state, seat, action)
    return found[:count]


@pytest.fixture(scope="module")
def many():
    return positions(600, "search")


def played_mask(state: FiftySixState) -> int:
    mask = 0
    for trick in state.tricks:
        for _, card in trick.plays:
            mask |= BIT[card]
    for _, card in state.trick:
        mask |= BIT[card]
    return mask


def shown_voids(state: FiftySixState) -> list[int]:
    """Suits (bits) each seat showed it lacks by not following (in its hand, for the bidder
    the face-down card aside)."""
    voids = [0] * state.seats
    for plays in [t.plays for t in state.tricks] + [state.trick]:
        if plays:
            led = SUIT_OF[plays[0][1]]
            for seat, card in plays:
                if SUIT_OF[card] != led:
                    voids[seat] |= 1 << led
    return voids


# --- The fast policy is the naive bot --------------------------------------------------------


def test_the_fast_policy_takes_the_naive_bots_action_everywhere(many):
    for state, seat in positions(3000, "agree", naive_share=0.6) + many:
        assert fast_action(state, seat) == suggest(RULES.view(state, seat))


def test_a_fast_playout_ends_the_hand_as_the_naive_bots_would(many):
    checked = 0
    for state, _ in many:
        if state.phase not in (AUCTION, TRUMP_CHOICE, PLAY):
            continue
        end = finish_hand(state)
        hand = state.hand_index
        engine = state
        while engine.hand_index == hand and RULES.to_act(engine):
            (seat,) = RULES.to_act(engine)
            engine = RULES.apply(engine, seat, fast_action(engine, seat))
        record = engine.history[-1]
        if record.outcome == "void":
            assert end == VOID
        else:
            assert (end.bidder, end.contract, end.made) == (
                record.bidder,
                record.contract,
                record.made,
            )
            # The playout stops once the contract is made or beaten: points so far.
            assert all(a <= b for a, b in zip(end.points, record.points, strict=True))
            if record.contract < 56:  # … which the points so far show
                team = record.bidder & 1
                if end.made:
                    assert end.points[team] >= record.contract
                else:
                    assert end.points[1 - team] > 56 - record.contract
        checked += 1
    assert checked > 500


# --- The sampler -----------------------------------------------------------------------------


def test_samples_keep_counts_voids_and_the_deck(many):
    for state, seat in many:
        view = RULES.view(state, seat)
        voids = shown_voids(state)
        played = played_mask(state)
        for n in range(3):
            world = SEARCH.sample(view, random.Random(n))
            assert RULES.view(world, seat) == view
            assert world.hands[seat] == state.hands[seat]
            # Every card of the deck once: in a hand, played, or face down.
            cards = played
            for hand in world.hands:
                assert not hand & cards
                cards |= hand
            if world.trump >= 0 and not world.revealed:
                assert not cards & BIT[world.trump]
                cards |= BIT[world.trump]
            assert cards == DECK_MASKS[state.seats]
            for other in range(state.seats):
                hand = world.hands[other]
                if world.revealed and other == world.bidder:
                    hand &= ~BIT[world.trump]  # shown: it joined that hand after any void
                for suit in range(4):
                    if voids[other] >> suit & 1:
                        assert not hand & SUIT_MASKS[suit], (other, suit)


def test_the_face_down_card_is_sampled_only_by_those_who_have_not_seen_it(many):
    varied = fixed = 0
    for state, seat in many:
        if state.phase != PLAY:
            continue
        view = RULES.view(state, seat)
        downs = {SEARCH.sample(view, random.Random(n)).trump for n in range(24)}
        if state.revealed or seat == state.bidder:
            assert downs == {state.trump}  # the bidder's own card, or the shown one
            fixed += 1
        else:
            # Never a card the seat holds or saw played.
            assert not any(state.hands[seat] & BIT[c] or played_mask(state) & BIT[c] for c in downs)
            varied += len(downs) > 1
    assert fixed > 50 and varied > 50


def test_the_defenders_held_a_card_of_the_sampled_trump_suit(many):
    for state, seat in many:
        if state.phase != PLAY:
            continue
        view = RULES.view(state, seat)
        defenders = 1 - (state.bidder & 1)
        for n in range(4):
            world = SEARCH.sample(view, random.Random(n))
            held = 0
            for trick in [t.plays for t in world.tricks] + [world.trick]:
                for s, card in trick:
                    if s & 1 == defenders:
                        held |= BIT[card]
            for s in range(defenders, world.seats, 2):
                held |= world.hands[s]
            assert held & SUIT_MASKS[SUIT_OF[world.trump]]


# Seat 1 opens; as the bidder it lays down the 10♣ (seat 2, a defender, holds a club).
LEADS = deal(
    4,
    "JD0 10D0 JS0 JS1 9S0 9S1 AS0 AS1",
    "AD0 JH0 9H0 10H0 JC0 9C0 AC0 10C1",
    "JD1 9D1 AH0 AH1 10H1 10S0 10S1 10C0",
    "9D0 10D1 AD1 JH1 9H1 JC1 9C1 AC1",
)
CONTRACT = ("28", "pass", "pass", "pass", "trump:10C1")


def sampled_trumps(state: FiftySixState, seat: int, count: int) -> set[int]:
    view = RULES.view(state, seat)
    return {SEARCH.sample(view, random.Random(n)).trump for n in range(count)}


def test_a_suit_the_bidder_led_while_holding_another_is_not_the_trump():
    # The bidder leads the A♦ (seat 0 wins it), then shows a heart on a spade lead: had it
    # laid down a diamond, it could not have led a diamond while holding a heart.
    state = act(start(LEADS), *CONTRACT, "AD0", "9D1", "10D1", "JD0", "JS0", "JH0")
    suits = {SUIT_OF[c] for c in sampled_trumps(state, 2, 80)}
    diamonds, spades = SUIT_OF[parse_card("AD0")], SUIT_OF[parse_card("JS0")]
    assert diamonds not in suits
    # Not following spades says nothing of the face-down card: it may be a spade.
    assert spades in suits and len(suits) >= 2


def test_the_face_down_card_is_fixed_for_the_bidder_and_once_shown():
    state = act(start(LEADS), *CONTRACT, "AD0", "9D1")
    assert sampled_trumps(state, 1, 20) == {parse_card("10C1")}
    assert len(sampled_trumps(state, 3, 20)) > 1  # the bidder's partner has not seen it
    state = act(state, "AD1", "10D0", "AH0", "9H1", "ask")  # seat 0, void in hearts, asks
    for seat in range(4):
        assert sampled_trumps(state, seat, 10) == {parse_card("10C1")}


def test_a_void_holds_whatever_the_bidder_led():
    # The opener's forced 28 stands (its calls say nothing), it leads a heart and seat 0
    # discards a diamond: seat 0 holds no heart, in every sample, whatever the face-down
    # card (the bidder that led is dealt first; the other seats keep their constraints).
    state = act(start(LEADS), *CONTRACT, "JH0", "AH0", "9H1", "10D0")
    view = RULES.view(state, 2)
    hearts = SUIT_MASKS[SUIT_OF[parse_card("JH0")]]
    for n in range(60):
        world = SEARCH.sample(view, random.Random(n))
        assert not world.hands[0] & hearts
        assert RULES.view(world, 2) == view


def test_an_asker_that_then_played_no_trump_holds_none():
    # Seat 2 wins the first trick and leads a heart; seat 0 cannot follow, asks (clubs are
    # trumps) and plays a spade: it holds no club.
    state = act(start(LEADS), *CONTRACT, "AD0", "9D1", "AD1", "10D0", "AH0", "9H1", "ask")
    state = act(state, "9S0")
    assert state.revealed and state.revealed_by == 0
    view = RULES.view(state, 1)
    clubs = SUIT_MASKS[SUIT_OF[parse_card("JC0")]]
    hearts = SUIT_MASKS[SUIT_OF[parse_card("JH0")]]
    for n in range(30):
        world = SEARCH.sample(view, random.Random(n))
        assert not world.hands[0] & (clubs | hearts)
        assert RULES.view(world, 1) == view


def test_tani_partners_keep_their_eight_hidden_cards():
    state = act(start(LEADS), "56", "trump:10C1", "AD0")
    assert state.contract == 56 and state.sits_out(3)
    view = RULES.view(state, 0)
    for n in range(5):
        world = SEARCH.sample(view, random.Random(n))
        assert world.hands[3].bit_count() == 8
        assert RULES.view(world, 0) == view


# --- Candidates and decisions ----------------------------------------------------------------


def bid_values(state: FiftySixState, seat: int) -> list[int | None]:
    return [getattr(a, "value", None) for a in bid_candidates(RULES.view(state, seat))]


def test_bid_candidates_are_a_pass_and_a_few_values_by_the_hands_worth():
    opened = act(start(LEADS), "28")
    assert bid_values(opened, 2) == [None, 29]  # a weak hand: pass, or the lowest bid
    # Seat 0 (three Jacks, six spades): also the lowest of the 40s, and 56.
    assert bid_values(act(opened, "pass", "pass"), 0) == [None, 29, 40, 56]
    # Far above its hand's worth, seat 3 is offered no bid over a 40.
    assert bid_values(act(opened, "40"), 3) == [None]
    view = RULES.view(opened, 2)
    assert SEARCH.candidates(view)[0] == suggest(view)


def test_play_candidates_hold_one_of_two_identical_cards():
    state = act(start(LEADS), "28", "pass", "pass", "pass", "trump:10C1")
    view = RULES.view(state, 1)
    plays = [a for a in SEARCH.candidates(view) if hasattr(a, "card")]
    assert len({a.card >> 1 for a in plays}) == len(plays)
    assert SEARCH.candidates(view)[0] == suggest(view)


def test_no_search_once_the_contract_is_made_or_beaten():
    state = act(start(LEADS), *CONTRACT, "AD0", "9D1")  # seat 1 bid 28; seat 3 to play
    view = RULES.view(state, 3)
    assert not decided(view) and len(SEARCH.candidates(view)) > 1
    for points in ((0, 28), (29, 0)):  # made by seat 1's team, beaten by the other
        done = dataclasses.replace(view, points=points)
        assert decided(done)
        assert SEARCH.candidates(done) == [suggest(done)]
    assert not decided(dataclasses.replace(view, points=(28, 27)))


HARD = BOTS["hard"]


def test_the_hard_bot_is_the_search():
    assert isinstance(HARD, SearchBot)


def test_a_forced_opener_with_a_poor_hand_bids_the_minimum():
    poor = deal(4, "", "10D0 10D1 10H0 10H1 10S0 AS0 AH0 AD0")
    state = start(poor)
    assert HARD.choose(state, 1, random.Random(1)) == make_bid(28)


def test_the_bidder_lays_down_a_card_of_its_long_strong_suit():
    strong = deal(4, "", "JH0 JH1 9H0 AH0 10H0 10S0 AD0 10C0")
    state = act(start(strong), "28", "pass", "pass", "pass")
    action = HARD.choose(state, 1, random.Random(2))
    assert isinstance(action, ChooseTrump)
    assert SUIT_OF[action.card] == SUIT_OF[parse_card("JH0")]


def test_last_to_play_it_takes_an_opponents_trick_with_its_jack():
    # The bidder (seat 1) leads the A♦, seat 2 plays a 10, seat 3 (the bidder's partner)
    # wins with a 9: seat 0, last, takes the trick with the J♦ rather than the A♦.
    take = deal(
        4,
        "JD0 AD1 JS0 JS1 9S0 9S1 AS0 AS1",
        "AD0 JH0 9H0 10H0 JC0 9C0 AC0 10C1",
        "10D0 10D1 AH0 AH1 10H1 10S0 10S1 10C0",
        "9D0 9D1 JD1 JH1 9H1 JC1 9C1 AC1",
    )
    state = act(start(take), *CONTRACT, "AD0", "10D0", "9D0")
    assert RULES.view(state, 0).trick_winning == 3
    assert HARD.choose(state, 0, random.Random(3)) == make_play("JD0")
