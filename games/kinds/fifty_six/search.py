"""What Fifty-Six gives the generic search bot (`games.kinds.search`): the hard bot.

Pure Python (no Django). Everything starts from the seat's view (`FiftySixView`), never from
the state the platform holds:

* `sample` deals the cards the seat has not seen (`knowledge.py`, `sampling.py`: the other
  hands, and the face-down card while it is concealed from the seat) at random, keeping every
  count the view shows and what the rules make certain (voids, the concealed trump); the
  calls made bound what each hand was likely worth.
* `candidates`: the medium (naive) bot's choice first. In the auction a pass and few bids: the
  lowest allowed, the lowest of the 40s with a hand worth it, 56 with a hand near it, and no
  bid at 40 or more far above the hand's worth (such candidates only add noise: a small
  budget picks them by luck more often than they are right). For the trump card the weakest
  card of the two best suits; in play every legal card (one of two identical copies) and
  asking for the trump.
* `playout` plays the hand out with the naive policy for every seat (`playout.finish_hand`,
  on masks, stopping once the contract is made or beaten) and values it for the seat's team:
  the tables the hand wins or hands over, a bonus if it ends the match, and a small share of
  the card-point margin.
* `budget`: the bot's playouts for a call or a card, twice as many for the trump card (once
  a hand, and a close choice).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .engine.actions import ASK_TRUMP, PASS, PLAYS, TRUMPS, Action, make_bid
from .engine.cards import SUIT_MASKS, Card, mask_of
from .engine.state import (
    AUCTION,
    LOW_BID_TOP,
    MAX_BID,
    OVER,
    TRUMP_CHOICE,
    FiftySixState,
    game_points_for,
)
from .engine.view import FiftySixView
from .knowledge import Knowledge
from .playout import TOTAL_POINTS, VOID, HandEnd, finish_hand
from .policy import SUIT_SCORE, estimate, trump_choice
from .sampling import sample_hands

# The value of ending the match (won or lost), on the scale of tables.
MATCH_BONUS = 6.0
# The value of the whole card-point margin (56 to 0), on the scale of tables: a tie-break
# between playouts with the same result.
MARGIN_WEIGHT = 0.5
# Auction candidates: the lowest of the 40s over a low bid from this naive estimate of the
# hand on (by seats); no bid of 40 or more more than HIGH_GAP above the estimate; 56 from
# TANI_ESTIMATE on.
FORTY_ESTIMATE = {4: 38, 6: 36}
HIGH_GAP = 6
TANI_ESTIMATE = 48
# Trump card candidates: the weakest card of this many of the best suits.
TRUMP_SUITS = 2
# Playouts per decision, as multiples of the bot's `playouts`.
AUCTION_SHARE = 1.0
TRUMP_SHARE = 2.0
PLAY_SHARE = 1.0

# --- Candidates ---------------------------------------------------------------------------------


def bid_candidates(view: FiftySixView) -> list[Action]:
    """A pass (when allowed) and a few bids, by the hand's naive estimate: the lowest allowed
    (at 40 or more, unless far above the estimate), the lowest of the 40s (the contracts
    worth 2 tables) with a strong hand, 56 with a hand near it. Higher bids within a range
    gain little and cost samples: a small budget picks such candidates by luck (their values
    differ by noise) more often than they are right."""
    allowed = view.legal_bids
    out: list[Action] = [PASS] if view.can_pass else []
    if not allowed:
        return out
    lowest = allowed[0]
    strength = estimate(mask_of(view.hand), view.seats)
    values: set[int] = set()
    if lowest <= LOW_BID_TOP or strength >= lowest - HIGH_GAP or not view.can_pass:
        values.add(lowest)
    if lowest <= LOW_BID_TOP and strength >= FORTY_ESTIMATE[view.seats]:
        values.add(LOW_BID_TOP + 1)
    if strength >= TANI_ESTIMATE:
        values.add(MAX_BID)
    out += [make_bid(v) for v in sorted(values) if v in allowed]
    return out


def decided(view: FiftySixView) -> bool:
    """The contract (not tani) is already made or beaten: the rest of the hand changes no
    table."""
    contract, bidder = view.contract, view.bidder
    if contract is None or bidder is None or contract >= MAX_BID:
        return False
    taken, against = view.points[bidder & 1], view.points[1 - (bidder & 1)]
    return taken >= contract or against > TOTAL_POINTS - contract


def trump_candidates(hand: Sequence[Card]) -> list[Card]:
    """The weakest card of each of the hand's `TRUMP_SUITS` best suits (bots.suit_score:
    length, then points), best first."""
    mask = mask_of(hand)
    suits = sorted(
        (s for s in range(4) if mask & SUIT_MASKS[s]),
        key=lambda s: (-SUIT_SCORE[mask >> 12 * s & 4095], s),
    )
    return [Card(trump_choice(mask & SUIT_MASKS[s])) for s in suits[:TRUMP_SUITS]]


def _unique(actions: Sequence[Action]) -> list[Action]:
    """`actions` without repeats (in order), and with one of two identical cards."""
    out: list[Action] = []
    seen: set[object] = set()
    for action in actions:
        card = getattr(action, "card", None)
        key: object = action if card is None else (type(action), card >> 1)
        if key not in seen:
            seen.add(key)
            out.append(action)
    return out


@dataclass(frozen=True)
class FiftySixSearch:
    """Fifty-Six's `Searchable` (see the module docstring). `default` is the medium bot's
    choice from a view (`bots.suggest`): the first candidate."""

    default: Callable[[FiftySixView], Action | None]
    _last: list[Knowledge] = field(default_factory=list, compare=False, repr=False)

    def candidates(self, view: FiftySixView) -> Sequence[Action]:
        default = self.default(view)
        if default is None:
            return ()
        if view.phase == AUCTION:
            return _unique([default, *bid_candidates(view)])
        if view.phase == TRUMP_CHOICE:
            return _unique([default, *(TRUMPS[c] for c in trump_candidates(view.hand))])
        if decided(view):
            return [default]  # nothing left to play for: no table changes hands on it
        rest: list[Action] = [ASK_TRUMP] if view.can_ask_trump else []
        rest += [PLAYS[c] for c in view.legal_plays]
        return _unique([default, *rest])

    def knowledge(self, view: FiftySixView) -> Knowledge:
        """The `Knowledge` of `view`: the search samples one view many times in a row, so the
        last one is kept (the view object itself is kept with it, so `is` is a safe test)."""
        cached = self._last[0] if self._last else None
        if cached is not None and cached.view is view:
            return cached
        know = Knowledge(view)
        self._last[:] = [know]
        return know

    def sample(self, view: FiftySixView, rng: random.Random) -> FiftySixState:
        know = self.knowledge(view)
        hands, face_down = sample_hands(know, rng)
        trump = view.trump_card if view.trump_card is not None else face_down
        return know.template._replace(hands=tuple(hands), trump=trump)

    def playout(self, state: FiftySixState, seat: int, rng: random.Random) -> float:
        team = seat & 1
        if state.phase == OVER or state.step == 0:  # the action ended the hand
            record = state.history[-1]
            if record.outcome == "void":
                return 0.0
            if state.tables_per_team is None:
                points = record.game_points
                value = float(points if record.bidding_team == team else -points)
            else:
                value = float(record.tables_change[team])
            if state.phase == OVER:
                value += MATCH_BONUS if state.winning_team == team else -MATCH_BONUS
            margin = record.points[team] - record.points[1 - team]
            return value + MARGIN_WEIGHT * margin / 56
        return hand_value(state, finish_hand(state), team)

    def budget(self, view: FiftySixView, playouts: int) -> int:
        if view.phase == AUCTION:
            return int(playouts * AUCTION_SHARE)
        if view.phase == TRUMP_CHOICE:
            return int(playouts * TRUMP_SHARE)
        return int(playouts * PLAY_SHARE)


def hand_value(state: FiftySixState, end: HandEnd, team: int) -> float:
    """What the hand's end is worth to `team`: the tables it wins (or hands over), the match
    if that ends it, and a small share of the card-point margin."""
    if end is VOID or end.bidder < 0:
        return 0.0
    bidding = end.bidder & 1
    owed = abs(game_points_for(end.contract, end.made, state.seats))
    payer = 1 - bidding if end.made else bidding
    sign = -1.0 if payer == team else 1.0
    value = sign * owed
    if state.tables_per_team is not None:
        held = state.tables[payer]
        if owed > held:
            value = sign * (held + MATCH_BONUS)
    margin = end.points[team] - end.points[1 - team]
    return value + MARGIN_WEIGHT * margin / 56
