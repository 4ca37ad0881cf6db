"""Fifty-Six's machine players behind the protocol's `Bot` (pure: no Django).

"naive" decides from the seat's view only (`RULES.view(state, seat)`), so it cannot cheat,
and `suggest(view)` gives the same choice as a hint for a human player:

* auction: values its hand (card points, Jacks, length of its best suit) against the
  average hand, and bids the lowest allowed value up to that estimate, else passes (the
  opener, who must bid, bids the lowest allowed value). Over a partner it bids only when
  clearly stronger; it never bids 56 without a near-certain hand;
* trump card: the suit with the most length and points; it lays down that suit's weakest
  card, keeping its Jacks and Nines to play;
* lead: a "master" card (nothing higher left outside its hand) with points, else its
  cheapest, weakest card;
* follow: never overtakes a partner who is winning (gives the partner points when the trick
  is safe, else plays low); against an opponent it takes the trick when it can (last to play:
  with the card worth most; otherwise only with a master card), else plays its cheapest card;
* cannot follow: asks for the trump when an opponent is winning a trick with points (the
  bidder: when it would then have a trump), trumps an opponent's trick with its weakest
  winning trump, never trumps a partner's trick, and otherwise discards low.

"random" takes a uniformly random legal action: for tests and benchmarks. Both are
deterministic for a given `rng`.

The levels a seat can be given (games/kinds/levels.py): "medium" is the naive bot, "easy" the
naive bot with a random action now and then, and "hard" the determinized search
(games/kinds/search.py) with this game's part in search.py and its fast playouts in
playout.py (the naive policy on card masks in policy.py).
"""

from __future__ import annotations

import random

from games.kinds.levels import EasyBot
from games.kinds.protocol import Bot, ViewBot
from games.kinds.search import SearchBot

from .engine.actions import ASK_TRUMP, PASS, PLAYS, TRUMPS, Action, make_bid
from .engine.cards import DECK_MASKS, POINTS, RANK_OF, SUIT_OF, SUITS, Card, cards_of, mask_of
from .engine.play import trick_winner_index
from .engine.rules import legal_actions
from .engine.seam import RULES
from .engine.state import FiftySixState
from .engine.view import FiftySixView
from .search import FiftySixSearch

# --- Valuing a hand ------------------------------------------------------------------------------


def suit_score(hand: tuple[Card, ...], suit: int) -> int:
    """How good `suit` is as the trump suit for `hand`: length first, then its points."""
    cards = [c for c in hand if SUIT_OF[c] == suit]
    return len(cards) * 3 + sum(POINTS[c] for c in cards)


def best_suit(hand: tuple[Card, ...]) -> int:
    """The suit the naive bot would make trumps."""
    return max(range(4), key=lambda s: (suit_score(hand, s), -s))


def estimate(hand: tuple[Card, ...], seats: int) -> int:
    """The contract the naive bot believes its team makes with `hand` (about 30 for an
    average hand: the bidder's trump control is worth a little)."""
    average_points = 56 / seats
    points = sum(POINTS[c] for c in hand)
    jacks = sum(1 for c in hand if RANK_OF[c] == 0)
    trump = best_suit(hand)
    length = sum(1 for c in hand if SUIT_OF[c] == trump)
    strength = (points - average_points) + 2 * (jacks - 8 / seats) + 2.5 * max(0, length - 3)
    # Tuned on naive self-play: about 70% of low contracts made (break-even is 2/3).
    return int((31 if seats == 4 else 29) + 1.5 * strength)


def choose_bid(view: FiftySixView) -> Action:
    """Pass, or the lowest allowed bid within the hand's estimate (the opener must bid)."""
    allowed = [option.value for option in view.bid_options if option.allowed]
    if not view.can_pass:
        return make_bid(allowed[0])
    target = estimate(view.hand, view.seats)
    high_bidder = view.high_bidder
    if high_bidder is not None and view.team == high_bidder % 2:
        target -= 4  # a partner holds the bid: overcall only when clearly stronger
    if target >= 56 or not allowed or allowed[0] > min(target, 55):
        return PASS
    return make_bid(allowed[0])


def choose_trump(view: FiftySixView) -> Card:
    """The card laid face down: the weakest card of the best suit."""
    hand = view.hand
    suit = best_suit(hand)
    return max((c for c in hand if SUIT_OF[c] == suit), key=lambda c: (RANK_OF[c], c))


# --- Play ----------------------------------------------------------------------------------------


def _revealed_trump(view: FiftySixView) -> int:
    return SUITS.index(view.trump_suit) if view.trump_revealed and view.trump_suit else -1


def _wins(view: FiftySixView, card: Card) -> bool:
    """Whether `card`, played now, would be winning the trick."""
    assert view.seat is not None
    plays = (*view.trick, (view.seat, card))
    trumps_from = view.trumps_from if view.trumps_from is not None else 0
    return trick_winner_index(plays, _revealed_trump(view), trumps_from) == len(plays) - 1


def _unseen(view: FiftySixView) -> int:
    """The cards the viewer has not seen: not in its hand, not played, not its face-down card."""
    seen = mask_of(view.hand) | mask_of(c for t in view.tricks for _, c in t.plays)
    seen |= mask_of(c for _, c in view.trick)
    if view.trump_card is not None:
        seen |= 1 << view.trump_card
    return DECK_MASKS[view.seats] & ~seen


def _master(card: Card, unseen: int) -> bool:
    """No unseen card of `card`'s suit ranks higher."""
    suit = SUIT_OF[card]
    return not any(SUIT_OF[c] == suit and RANK_OF[c] < RANK_OF[card] for c in cards_of(unseen))


def _cheap(card: Card) -> tuple[int, int, int]:
    return POINTS[card], -RANK_OF[card], card


def _to_play_after(view: FiftySixView) -> int:
    size = view.seats // 2 + 1 if view.tani else view.seats
    return size - len(view.trick) - 1


def _discard(view: FiftySixView, cards: list[Card], give: bool) -> Card:
    trump = SUITS.index(view.trump_suit) if view.trump_suit else -1
    plain = [c for c in cards if SUIT_OF[c] != trump] or cards
    if give:  # a partner's safe trick: give it points, but no trump and no sure winner
        unseen = _unseen(view)
        spare = [c for c in plain if not _master(c, unseen)] or plain
        return max(spare, key=lambda c: (POINTS[c], RANK_OF[c], -c))
    return min(plain, key=_cheap)


def _lead(view: FiftySixView, legal: list[Card]) -> Card:
    unseen = _unseen(view)
    masters = [c for c in legal if _master(c, unseen) and POINTS[c]]
    if masters:
        return max(masters, key=lambda c: (POINTS[c], -c))
    trump = _revealed_trump(view)
    plain = [c for c in legal if SUIT_OF[c] != trump] or legal
    return min(plain, key=_cheap)


def _partner_winning(view: FiftySixView) -> bool:
    winning = view.trick_winning
    return winning is not None and view.team == winning % 2


def _trick_points(view: FiftySixView) -> int:
    return sum(POINTS[c] for _, c in view.trick)


def _follow(view: FiftySixView, legal: list[Card]) -> Card:
    last = _to_play_after(view) == 0
    winners = [c for c in legal if _wins(view, c)]
    if _partner_winning(view):
        keep = [c for c in legal if c not in winners] or legal
        return _discard(view, keep, give=_partner_safe(view))
    if winners:
        if last:
            return max(winners, key=lambda c: (POINTS[c], RANK_OF[c], -c))
        unseen = _unseen(view)
        masters = [c for c in winners if _master(c, unseen)]
        if masters:
            return min(masters, key=_cheap)
    return min(legal, key=_cheap)


def _partner_safe(view: FiftySixView) -> bool:
    """The partner's winning card will hold: nobody plays after the viewer, or nothing
    unseen of its suit ranks higher (trumps aside)."""
    if _to_play_after(view) == 0:
        return True
    best = next(c for seat, c in view.trick if seat == view.trick_winning)
    return _master(best, _unseen(view))


def _void(view: FiftySixView, legal: list[Card]) -> Card:
    if _partner_winning(view):
        keep = [c for c in legal if not _wins(view, c)] or legal
        return _discard(view, keep, give=_partner_safe(view))
    winners = [c for c in legal if _wins(view, c)]
    if winners and (_trick_points(view) or _to_play_after(view) == 0 or view.must_play_after_ask):
        return min(winners, key=_cheap)  # the weakest trump that wins
    return _discard(view, legal, give=False)


def _wants_to_ask(view: FiftySixView) -> bool:
    if len(view.legal_actions) == 1:
        return True  # the forced reveal of the bidder's last card
    if _partner_winning(view):
        return False
    return _trick_points(view) >= 2 or _to_play_after(view) == 0


def choose_play(view: FiftySixView) -> Action:
    """The naive bot's play (or ask) for the viewer, who must have something to do."""
    legal = list(view.legal_plays)
    if view.can_ask_trump and _wants_to_ask(view):
        return ASK_TRUMP
    if not legal:
        raise ValueError("The viewer has no card to play.")
    if not view.trick:
        return PLAYS[_lead(view, legal)]
    led = SUIT_OF[view.trick[0][1]]
    if any(SUIT_OF[c] == led for c in view.hand):
        return PLAYS[_follow(view, legal)]
    return PLAYS[_void(view, legal)]


def suggest(view: FiftySixView) -> Action | None:
    """The naive bot's action for the viewer (a hint), or None if it has nothing to do."""
    if not view.legal_actions:
        return None
    if view.phase == "auction":
        return choose_bid(view)
    if view.phase == "trump_choice":
        return TRUMPS[choose_trump(view)]
    return choose_play(view)


class RandomBot:
    def choose(self, state: FiftySixState, seat: int, rng: random.Random) -> Action:
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError(f"Seat {seat} has nothing to do.")
        return rng.choice(actions)


NAIVE = ViewBot(RULES, suggest)

# The hard bot's budget: playouts per decision, and the fewest samples per candidate.
PLAYOUTS = 60
MIN_SAMPLES = 8

BOTS: dict[str, Bot[FiftySixState, Action]] = {
    "easy": EasyBot(RULES, NAIVE),
    "hard": SearchBot(RULES, FiftySixSearch(suggest), playouts=PLAYOUTS, min_samples=MIN_SAMPLES),
    "medium": NAIVE,
    "naive": NAIVE,
    "random": RandomBot(),
}
