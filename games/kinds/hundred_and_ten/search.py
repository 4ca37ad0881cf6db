"""What Hundred and Ten gives the generic search bot (`games.kinds.search`): the hard bot.

Pure Python (no Django). Everything here starts from the seat's view (`SeatView`), never from
the state the platform holds:

* `sample` deals the cards the seat has not seen (the other hands, their discards of this
  round, the undrawn pile) at random, keeping every count the view shows and the one thing
  the rules make certain about the other hands: a player who played a non-trump on a trump
  lead held no trump then, and cannot have gained one since (section 11: bleeding). A plain
  lead obliges nobody to follow, so it shows nothing. The others' bids, the named trump and
  how many cards each discarded steer the deal as the medium bot would mean them
  (`inference.py`).
* `candidates` are the legal moves with the naive bot's (the "medium" level's) first; for the
  discard, whose legal set has 32 members, the naive one (every non-trump) and the few
  variations that were ever worth more.
* `playout` plays the round out with the naive bot for everybody (`playout.scores_after_round`)
  and values it for the seat as its chance to win the game: 1 or 0 when the round ends the
  game, else what `win_chance` makes of the scores it leaves. A point is worth more near the
  target, and the leader's points cost the seat more than a straggler's (against three
  medium bots, valuing a round as the seat's points minus the best opponent's won 44.1% of
  2,000 games, this 53.0%: docs/benchmarks.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .engine.bots import best_suit, choose_card, max_bid
from .engine.cards import FULL_DECK, IS_TRUMP, PLAIN_VALUE, SUITS, TRUMP_VALUE, Card
from .engine.moves import Bid, Discard, Move, Play, SelectTrump
from .engine.perspective import SeatView
from .engine.state import GameState, Status
from .inference import Seat, deal_read, seats_of, shuffled
from .playout import scores_after_round

# How likely each seat is to win from the scores at a round's start, medium bots all round:
# a share by exp(-need ** NEED_POWER / NEED_SCALE), need being the points still to reach the
# target. Fitted by bench/fit_win_chance.py to 782,377 round starts of 40,000 games
# (bench/results/win_chance.txt: well calibrated, within 3 points in every tenth). Fitted at
# four seats and a target of 110; used as it is at two and three seats and for 60.
NEED_POWER = 0.55
NEED_SCALE = 1.75
# Playouts per decision, as a share of the bot's budget, by phase: the bid, the trump and
# the discard decide a whole round and are searched longer (decision times: docs/benchmarks.md).
BUDGET_FACTORS = {
    Status.BIDDING: 2.5,
    Status.TRUMP_SELECTION: 0.7,
    Status.DISCARD: 3.5,
    Status.TRICKS: 1.0,
}


@dataclass(frozen=True, slots=True)
class _AnyDeck:
    """The deck of rounds the seat has not seen dealt: a playout stops at the end of the
    round, so the next deal only has to exist."""

    def deck(self, round_index: int) -> tuple[Card, ...]:
        return FULL_DECK


_ANY_DECK = _AnyDeck()
_F = {name: i for i, name in enumerate(GameState._fields)}
_HANDS, _DEALT, _PILE, _DISCARDS, _DRAWS = (
    _F["hands"],
    _F["dealt"],
    _F["pile"],
    _F["discards"],
    _F["draws"],
)
_new_state = tuple.__new__


def naive_move(view: SeatView) -> Move | None:
    """The naive bot's move (rules section 16, `engine.bots.suggestion`) from the view, or
    None when the seat is not the one to act."""
    seat = view.seat
    hand = view.hand
    if seat is None or hand is None or seat != view.active_seat:
        return None
    status = view.status
    if status is Status.TRICKS:
        trump = SUITS.index(view.trump)
        return Play(seat, choose_card(hand, view.current_trick, trump, seat == view.bidder))
    if status is Status.BIDDING:
        ceiling = max_bid(best_suit(hand)[0])
        for amount in view.legal_bids:
            if amount and amount <= ceiling:
                return Bid(seat, amount)
        return Bid(seat, 0)
    if status is Status.TRUMP_SELECTION:
        return SelectTrump(seat, SUITS[best_suit(hand)[1]])
    if status is Status.DISCARD:
        trumps = IS_TRUMP[SUITS.index(view.trump)]
        return Discard(seat, tuple(c for c in hand if not trumps[c]))
    return None


def voids(view: SeatView) -> frozenset[int]:
    """The seats known to hold no trump: they played a non-trump on a trump lead this round
    (they had none then, and no card is drawn once the tricks have begun)."""
    if view.trump is None:
        return frozenset()
    trumps = IS_TRUMP[SUITS.index(view.trump)]
    found: set[int] = set()
    plays = [trick.plays for trick in view.tricks]
    if view.current_trick:
        plays.append(view.current_trick)
    for trick in plays:
        if trumps[trick[0][1]]:
            found.update(seat for seat, card in trick[1:] if not trumps[card])
    return frozenset(found)


def _dealt_in_a_row(view: SeatView) -> int:
    """How many rounds in a row the current dealer has dealt, this one included (rules 6):
    one more than the passed-out rounds they dealt just before it."""
    count = 1
    for record in reversed(view.history):
        if record.dealer != view.dealer or record.outcome != "no_bidders":
            break
        count += 1
    return count


def _discard_candidates(view: SeatView, first: Discard) -> list[Move]:
    """The naive discard (every non-trump) first, then the same keeping the aces of the other
    suits, then keeping their aces and kings, then keeping the whole hand: the variations
    that, searched at length, were ever worth more than the naive discard (giving up good
    trumps or keeping low cards hardly ever is)."""
    seat = first.seat
    values = TRUMP_VALUE[SUITS.index(view.trump)]
    given = first.cards
    variations = (
        given,
        tuple(c for c in given if PLAIN_VALUE[c] < 12 or values[c] >= 0),
        tuple(c for c in given if PLAIN_VALUE[c] < 11 or values[c] >= 0),
        (),
    )
    return [Discard(seat, cards) for cards in dict.fromkeys(variations)]


@dataclass(frozen=True, slots=True)
class _Layout:
    """What every sample of one view shares: the state with the seat's knowledge filled in,
    the unseen cards and the places they go to."""

    template: tuple[object, ...]  # a GameState's fields; the hidden ones are redealt
    unseen: tuple[Card, ...]
    is_trump: tuple[bool, ...]  # by card (all False before trump is named)
    hands: tuple[tuple[int, int, bool], ...]  # the other hands: (seat, size, holds no trump)
    discarded: tuple[tuple[int, int], ...]  # (seat, count): the others' discards
    played: tuple[Card, ...]
    pile_pos: int
    seats: tuple[Seat, ...]  # the other seats with what their moves say (inference.py)
    reads: bool  # whether any of them says anything

    @classmethod
    def of(cls, view: SeatView) -> _Layout:
        seat = view.seat
        hand = view.hand
        if seat is None or hand is None:
            raise ValueError("A spectator has nothing to decide.")
        players = view.players
        plays = [play for trick in view.tricks for play in trick.plays]
        plays += view.current_trick
        played = [card for _, card in plays]
        seen = {*hand, *(view.own_discards or ()), *played}
        unseen = tuple(c for c in FULL_DECK if c not in seen)
        void = voids(view)
        trump = None if view.trump is None else SUITS.index(view.trump)
        others = [s for s in range(players) if s != seat]
        sizes = view.hand_sizes
        counts = view.discard_counts
        discarded = tuple((s, n) for s in others if (n := counts[s]) is not None)
        hidden = sum(sizes[s] for s in others) + sum(n for _, n in discarded)
        if hidden + view.draw_pile_size != len(unseen):
            raise ValueError("The view's card counts do not add up.")
        passed = 0
        for s in view.passed:
            passed |= 1 << s
        discards: list[tuple[Card, ...] | None] = [None] * players
        discards[seat] = view.own_discards
        state = GameState(
            players=players,
            target=view.target,
            decks=_ANY_DECK,
            status=view.status,
            round_index=view.round_index,
            dealer=view.dealer,
            dealt_in_a_row=_dealt_in_a_row(view),
            scores=view.scores,
            history=view.history,
            winner=view.winner,
            active_seat=view.active_seat,
            hands=tuple(hand if s == seat else () for s in range(players)),
            dealt=(),
            pile=(),
            pile_pos=sum(n for n in counts if n is not None),
            bids=view.bids,
            high_bid=view.bid or 0,
            holder=view.holder,
            bidder=view.bidder,
            passed_mask=passed,
            pre_passed_mask=1 << seat if view.pre_passed else 0,
            trump_index=trump,
            discards=tuple(discards),
            draws=(),
            current_trick=view.current_trick,
            tricks=view.tricks,
        )
        is_trump = IS_TRUMP[trump] if trump is not None else (False,) * len(FULL_DECK)
        hands = tuple((s, sizes[s], s in void) for s in others)
        seats = seats_of(view, hands, is_trump)
        return cls(
            template=tuple(state),
            unseen=unseen,
            is_trump=is_trump,
            hands=hands,
            discarded=discarded,
            played=tuple(played),
            pile_pos=state.pile_pos,
            seats=seats,
            reads=any(s.reading is not None or s.discarded is not None for s in seats),
        )

    def deal(self, rng: random.Random) -> GameState:
        """A state with the unseen cards dealt at random to their places, the hands known to
        hold no trump taking non-trumps only."""
        fields = list(self.template)
        hands: list[tuple[Card, ...]] = list(fields[_HANDS])  # type: ignore[call-overload]
        discards: list[tuple[Card, ...] | None] = list(fields[_DISCARDS])  # type: ignore[call-overload]
        if self.reads:  # what the others' bids and discards say steers the deal
            placed, left = deal_read(self.seats, self.unseen, self.is_trump, rng)
            for seat in self.seats:
                hands[seat.seat], gave = placed[seat.seat]
                if seat.discarded is not None:
                    discards[seat.seat] = gave
            rest, position = left, 0
        else:
            rest, position = self._deal_plain(hands, discards, rng)
        # This round's records (hands as dealt, draws, the drawn part of the pile) are read
        # only when the round ends (its history record): plausible guesses, for search only.
        draws: list[tuple[Card, ...] | None] = []
        dealt: list[tuple[Card, ...]] = []
        for held, given in zip(hands, discards, strict=True):
            if given is None:
                draws.append(None)
                dealt.append(held)
            else:
                drawn = held[max(0, len(held) - len(given)) :] if given else ()
                draws.append(drawn)
                dealt.append(held[: len(held) - len(drawn)] + given)
        # Drawn cards since played are missing from the hands: the played cards stand in.
        drawn_pile = (*(c for d in draws if d for c in d), *self.played)[: self.pile_pos]
        fields[_HANDS] = tuple(hands)
        fields[_DEALT] = tuple(dealt)
        fields[_PILE] = drawn_pile + tuple(rest[position:])
        fields[_DISCARDS] = tuple(discards)
        fields[_DRAWS] = tuple(draws)
        return _new_state(GameState, fields)

    def _deal_plain(
        self,
        hands: list[tuple[Card, ...]],
        discards: list[tuple[Card, ...] | None],
        rng: random.Random,
    ) -> tuple[list[Card], int]:
        """Deal the hands and discards at random, the hands known to hold no trump taking
        non-trumps only; return the shuffled unseen cards and how many of them were dealt."""
        rest = shuffled(self.unseen, rng)
        start: dict[int, list[Card]] = {}
        if any(void for _, _, void in self.hands):
            rest = self._deal_voids(rest, start, rng)
        position = 0
        for s, size, _ in self.hands:
            known = start.get(s, [])
            more = size - len(known)
            hands[s] = (*known, *rest[position : position + more])
            position += more
        for s, count in self.discarded:
            discards[s] = tuple(rest[position : position + count])
            position += count
        return rest, position

    def _deal_voids(
        self, unseen: list[Card], start: dict[int, list[Card]], rng: random.Random
    ) -> list[Card]:
        """Give each hand that holds no trump its non-trumps (into `start`), in the shuffled
        order of `unseen`; return the rest, shuffled anew."""
        is_trump = self.is_trump
        taken: set[Card] = set()
        for s, size, void in self.hands:
            if not void:
                continue
            found: list[Card] = []
            for card in unseen:
                if len(found) == size:
                    break
                if card not in taken and not is_trump[card]:
                    found.append(card)
            taken.update(found)
            start[s] = found
        return shuffled([c for c in unseen if c not in taken], rng)


def win_chance(
    scores: Sequence[int], target: int, power: float = NEED_POWER, scale: float = NEED_SCALE
) -> list[float]:
    """Each seat's chance to win the game from `scores` at the start of a round (`power` and
    `scale`: the model's constants, which bench/fit_win_chance.py fits)."""
    weights = [math.exp(-(max(target - score, 0) ** power) / scale) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


class HundredAndTenSearch:
    """Hundred and Ten's part of the search (`games.kinds.search.Searchable`)."""

    def __init__(self) -> None:
        self._layout: tuple[SeatView, _Layout] | None = None

    def candidates(self, view: SeatView) -> Sequence[Move]:
        legal = list(view.legal_moves)
        first = naive_move(view)
        if first is None:
            return legal
        if isinstance(first, Discard):
            return _discard_candidates(view, first)
        return [first, *(move for move in legal if move != first)]

    def budget(self, view: SeatView, playouts: int) -> int:
        return round(playouts * BUDGET_FACTORS.get(view.status, 1.0))

    def sample(self, view: SeatView, rng: random.Random) -> GameState:
        cached = self._layout
        if cached is None or cached[0] is not view:
            # Every sample of a decision comes from the same view: what they share is worked
            # out once (kept with the view itself, so the identity test cannot be fooled).
            cached = (view, _Layout.of(view))
            self._layout = cached
        return cached[1].deal(rng)

    def playout(self, state: GameState, seat: int, rng: random.Random) -> float:
        scores, winner = scores_after_round(state)
        if winner is not None:
            return 1.0 if winner == seat else 0.0
        return win_chance(scores, state.target)[seat]
