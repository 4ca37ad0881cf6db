"""One Hundred and Four's part of the hard bot (`games.kinds.search.SearchBot`); pure Python.

* `sample(view, rng)`: the cards the seat cannot place (the 104 minus its hand, its committed
  card, the rows, the penalty piles and, in a too-low pause, the revealed cards) are dealt
  at random: each other seat gets as many as the view shows it holding and the cards left
  over are the deal's unused cards. A seat that has committed this turn (the view says
  whether, never what) is dealt one card more and commits the one the naive policy picks
  on the rows (which have not changed since it chose): the playouts model every seat so,
  and against naive players this is what they did (at ten seats, with many commitments
  known, a uniformly random committed card made the search no better than the naive bot).
  Rows, piles, the deal's earlier turns, points and the match's history are the view's,
  so `RULES.view(sample, seat) == view`.
* `candidates(view)`: the legal cards, or the four rows in a too-low pause, the naive
  (medium) bot's choice first.
* `playout(state, seat, rng)`: every seat plays the naive bot's card choice (`naive_table`
  and `naive_pick`: the same choice as `bots.naive_card`, on bit sets) to the end of the
  deal, the seats still to commit this turn included; a too-low card takes the policy row
  (C-104-06), as the naive bot would choose. The value is minus the points `seat` holds at
  the end of the deal (the points taken before the decision are the same for every
  candidate, so they change no comparison).
* `budget(view, playouts)`: `playouts` is the budget of the costliest decision at four seats
  (the first card); a playout costs less the later the turn and the fewer the seats, so the
  budget grows to keep every decision about as long (`playout_cost`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .engine.actions import CHOOSES, TAKE_ROWS, Action
from .engine.cards import BULLHEADS, DECK, HAND_SIZE, HIGHEST, ROW_COUNT, ROW_LIMIT, Rows
from .engine.state import CHOOSE, OVER, PAUSE, Deal, FixedDeals, HundredAndFourState
from .engine.view import HundredAndFourView, public_fields

# --- The naive policy on bit sets ------------------------------------------------------------

# The naive bot's sort key (penalty, gap, card) packed into one int:
# penalty * _PENALTY + gap * _GAP + card, a too-low card's gap counting _TOO_LOW_GAP (above
# any real gap). Within one penalty the keys stay below _PENALTY.
_PENALTY = 2_000_000
_GAP = 1000
_TOO_LOW_GAP = 1000
_STEP = _GAP + 1  # key = base + card * _STEP within one gap between row ends

_BIT: tuple[int, ...] = tuple(1 << card for card in range(HIGHEST + 1))
# _UPTO[c]: the cards 1 … c as a bit set.
_UPTO: tuple[int, ...] = tuple((1 << (card + 1)) - 2 for card in range(HIGHEST + 1))
_ALL = _UPTO[HIGHEST]

# (cards, base) per gap between row ends: see `naive_table`.
Table = tuple[tuple[int, int], ...]


def bits(cards: Iterable[int]) -> int:
    """`cards` as a bit set (bit c for card c)."""
    return sum(map(_BIT.__getitem__, cards))


def policy_row_of(costs: Sequence[int], lengths: Sequence[int]) -> int:
    """The policy row (C-104-06, `bots.policy_row`) from each row's cost and length: the
    fewest bullheads, then the fewest cards, then the lowest index."""
    best = 0
    for row in range(1, ROW_COUNT):
        if costs[row] < costs[best] or (costs[row] == costs[best] and lengths[row] < lengths[best]):
            best = row
    return best


def naive_table(ends: Sequence[int], lengths: Sequence[int], costs: Sequence[int]) -> Table:
    """The naive policy on rows with these ends, lengths and costs, as (cards, base) pairs:
    the cards below every end, then the gap above each row end, as bit sets (a row's end is
    never in a hand), each with the base of the packed key `base + card * _STEP` of a card
    there. Within a gap every card has the same penalty and the lowest card the smallest
    gap, so only the lowest card of a gap can be chosen (`naive_pick`)."""
    e0, e1, e2, e3 = sorted(ends)
    upto = _UPTO
    u0, u1, u2, u3 = upto[e0], upto[e1], upto[e2], upto[e3]
    r0, r1, r2, r3 = ends.index(e0), ends.index(e1), ends.index(e2), ends.index(e3)
    limit = ROW_LIMIT
    # Too low: cost * _PENALTY + _TOO_LOW_GAP * _GAP + card would do; `card * _STEP` keeps
    # the lowest card first and stays below the next penalty, so one formula serves all.
    return (
        (u0, min(costs) * _PENALTY + _TOO_LOW_GAP * _GAP),
        (u1 ^ u0, (costs[r0] * _PENALTY if lengths[r0] >= limit else 0) - e0 * _GAP),
        (u2 ^ u1, (costs[r1] * _PENALTY if lengths[r1] >= limit else 0) - e1 * _GAP),
        (u3 ^ u2, (costs[r2] * _PENALTY if lengths[r2] >= limit else 0) - e2 * _GAP),
        (_ALL ^ u3, (costs[r3] * _PENALTY if lengths[r3] >= limit else 0) - e3 * _GAP),
    )


def naive_pick(hand: int, table: Table) -> int:
    """The naive bot's card from `hand` (a non-empty bit set) on `naive_table`'s rows: the
    smallest immediate penalty, then the smallest gap above its row's end (a too-low card
    counting 1000), then the lowest card (`bots.naive_card`)."""
    best = 0
    best_key = 1 << 62
    for cards, base in table:
        found = hand & cards
        if found:
            card = (found & -found).bit_length() - 1
            key = base + card * _STEP
            if key < best_key:
                best, best_key = card, key
    return best


def row_facts(rows: Rows) -> tuple[list[int], list[int], list[int]]:
    """Each row's end, length and cost (bullheads)."""
    bullheads = BULLHEADS.__getitem__
    return (
        [row[-1] for row in rows],
        [len(row) for row in rows],
        [sum(map(bullheads, row)) for row in rows],
    )


def naive_action(view: HundredAndFourView) -> Action | None:
    """The naive bot's action for the viewer (`bots.suggest`), the fast way."""
    ends, lengths, costs = row_facts(view.rows)
    if view.must_take_row:
        return TAKE_ROWS[policy_row_of(costs, lengths)]
    if not view.legal_cards:
        return None
    return CHOOSES[naive_pick(bits(view.legal_cards), naive_table(ends, lengths, costs))]


def play_out(
    ends: list[int],
    lengths: list[int],
    costs: list[int],
    hands: list[int],
    chosen: list[int],
    penalties: list[int],
    turns: int,
) -> None:
    """Play the deal's last `turns` turns with the naive policy for every seat, adding the
    points taken to `penalties`. The rows are given by their ends, lengths and costs (all
    updated); `hands[s]` is seat s's hand as a bit set; `chosen[s]` its card committed in the
    current turn, 0 if it has still to choose. A too-low card takes the policy row.

    The hot loop of the search: `naive_table` and `naive_pick` written out, with the key
    times 128 plus the card (`_STEP * 128 + 1` per card), so the best key holds its card."""
    seats = len(hands)
    bullheads = BULLHEADS
    upto = _UPTO
    limit = ROW_LIMIT
    step = _STEP * 128 + 1
    penalty = _PENALTY * 128
    gap = _GAP * 128
    too_low = (_TOO_LOW_GAP * _GAP) * 128
    # The rows by their ends, lowest first. A card placed on its row keeps that order (it
    # lies between its row's end and the next end); only a too-low card changes it.
    order = sorted(range(ROW_COUNT), key=ends.__getitem__)
    for turn in range(turns):
        if turn:
            chosen = [0] * seats
        if turn < turns - 1:
            r0, r1, r2, r3 = order
            e0, e1, e2, e3 = ends[r0], ends[r1], ends[r2], ends[r3]
            u0, u1, u2, u3 = upto[e0], upto[e1], upto[e2], upto[e3]
            m1, m2, m3, m4 = u1 ^ u0, u2 ^ u1, u3 ^ u2, _ALL ^ u3
            b0 = min(costs) * penalty + too_low
            b1 = (costs[r0] * penalty if lengths[r0] >= limit else 0) - e0 * gap
            b2 = (costs[r1] * penalty if lengths[r1] >= limit else 0) - e1 * gap
            b3 = (costs[r2] * penalty if lengths[r2] >= limit else 0) - e2 * gap
            b4 = (costs[r3] * penalty if lengths[r3] >= limit else 0) - e3 * gap
            for seat in range(seats):
                if chosen[seat]:
                    continue
                hand = hands[seat]
                best = 1 << 62
                found = hand & u0
                if found:
                    best = b0 + ((found & -found).bit_length() - 1) * step
                found = hand & m1
                if found:
                    key = b1 + ((found & -found).bit_length() - 1) * step
                    if key < best:
                        best = key
                found = hand & m2
                if found:
                    key = b2 + ((found & -found).bit_length() - 1) * step
                    if key < best:
                        best = key
                found = hand & m3
                if found:
                    key = b3 + ((found & -found).bit_length() - 1) * step
                    if key < best:
                        best = key
                found = hand & m4
                if found:
                    key = b4 + ((found & -found).bit_length() - 1) * step
                    if key < best:
                        best = key
                card = best & 127
                chosen[seat] = card
                hands[seat] = hand ^ (1 << card)
        else:  # the deal's last turn: one card left in each hand
            for seat in range(seats):
                if not chosen[seat]:
                    chosen[seat] = hands[seat].bit_length() - 1
        plays = sorted([card * 16 + seat for seat, card in enumerate(chosen)])
        lowest = plays[0] >> 4
        if lowest < ends[order[0]]:
            row = policy_row_of(costs, lengths)
            penalties[plays[0] & 15] += costs[row]
            ends[row] = lowest
            lengths[row] = 1
            costs[row] = bullheads[lowest]
            order.remove(row)
            order.insert(0, row)
        position = 0
        for packed in plays:
            card = packed >> 4
            while position < 3 and ends[order[position + 1]] < card:
                position += 1
            row = order[position]
            if card == ends[row]:  # the too-low card, placed already
                continue
            if lengths[row] < limit:
                ends[row] = card
                lengths[row] += 1
                costs[row] += bullheads[card]
            else:
                penalties[packed & 15] += costs[row]
                ends[row] = card
                lengths[row] = 1
                costs[row] = bullheads[card]


def playout_cost(seats: int, turns: int) -> float:
    """The relative time of one playout over `turns` turns at `seats` seats with the
    search's work around it (its share of a sample, applying the candidate): measured."""
    return 6 + turns * (1.7 + 0.4 * seats)


# --- The search's part -----------------------------------------------------------------------


class HundredAndFourSearch:
    """`Searchable[HundredAndFourState, Action, HundredAndFourView]`: see the module
    docstring. Keeps what the last view sampled fixes (`_Known`), as the search samples
    one view many times."""

    def __init__(self) -> None:
        self._known: _Known | None = None

    def candidates(self, view: HundredAndFourView) -> Sequence[Action]:
        default = naive_action(view)
        if default is None:
            return ()
        if view.must_take_row:
            return (default, *(a for a in TAKE_ROWS if a != default))
        return (default, *(CHOOSES[c] for c in view.legal_cards if CHOOSES[c] != default))

    def sample(self, view: HundredAndFourView, rng: random.Random) -> HundredAndFourState:
        known = self._known
        if known is None or known.view is not view:
            known = self._known = _Known(view)
        seats = view.seats
        drawn = rng.sample(known.unseen, known.wanted)
        hands = list(known.hands)
        choices = list(known.choices)
        at = 0
        for other, size, committed in known.others:
            if committed:
                # The seat chose on these rows from one card more: by the naive policy, as
                # the playouts assume every seat plays.
                cards = sorted(drawn[at : at + size + 1])
                at += size + 1
                card = naive_pick(bits(cards), known.table)
                cards.remove(card)
                choices[other] = card
                hands[other] = tuple(cards)
            else:
                hands[other] = tuple(sorted(drawn[at : at + size]))
                at += size
        unused = tuple(sorted(known.unseen_set.difference(drawn)))
        played_by = known.played_by
        dealt = tuple(
            tuple(sorted((*hands[s], *played_by[s], *((choices[s],) if choices[s] else ()))))
            for s in range(seats)
        )
        # A deal source is read only when a deal starts: the earlier indices of a match
        # repeat this deal (never read again) and a match gets a random next deal.
        deals = (Deal(known.starters, dealt, unused),) * (view.deal + 1)
        if view.match_to is not None:
            deals += (_random_deal(seats, rng),)
        return HundredAndFourState(
            seats=seats,
            source=FixedDeals(deals),
            hands=tuple(hands),
            choices=tuple(choices),
            asked=known.asked,
            totals=known.totals,
            **public_fields(view),
        )

    def playout(self, state: HundredAndFourState, seat: int, rng: random.Random) -> float:
        phase = state.phase
        if phase == OVER or (
            state.history and not state.played and phase == CHOOSE and not any(state.choices)
        ):
            # The action just applied ended the deal (a match has dealt the next one; the
            # search never starts a playout in a deal before anybody has played in it).
            return -float(state.history[-1].penalties[seat])
        ends, lengths, costs = row_facts(state.rows)
        bit = _BIT.__getitem__
        hands = [sum(map(bit, hand)) for hand in state.hands]
        penalties = list(state.penalties)
        # In a pause the owner of the too-low card takes the policy row: `play_out` does.
        play_out(
            ends, lengths, costs, hands, list(state.choices), penalties, HAND_SIZE - state.turn
        )
        return -float(penalties[seat])

    def budget(self, view: HundredAndFourView, playouts: int) -> int:
        cost = playout_cost(view.seats, HAND_SIZE - view.turn)
        return max(1, round(playouts * playout_cost(4, HAND_SIZE) / cost))


class _Known:
    """What a seat's view fixes for every sample: the unseen cards; the other seats with
    their hand sizes and whether they have committed; the known hands and commitments; the
    row starters and each seat's cards played earlier in the deal."""

    def __init__(self, view: HundredAndFourView) -> None:
        seat = view.seat
        if seat is None:
            raise ValueError("A spectator has nothing to decide.")
        self.view = view
        seats = view.seats
        seen = bytearray(HIGHEST + 1)
        for card in view.hand:
            seen[card] = 1
        if view.my_choice is not None:
            seen[view.my_choice] = 1
        placed = [c for row in view.rows for c in row] + [c for pile in view.piles for c in pile]
        for card in placed:
            seen[card] = 1
        for _, card in view.revealed:
            seen[card] = 1
        self.unseen = [c for c in DECK if not seen[c]]
        self.unseen_set = frozenset(self.unseen)

        hands: list[tuple[int, ...]] = [()] * seats
        hands[seat] = view.hand
        choices = [0] * seats
        if view.phase == PAUSE:
            for owner, card in view.revealed:
                choices[owner] = card
        elif view.my_choice is not None:
            choices[seat] = view.my_choice
        self.hands = tuple(hands)
        self.choices = tuple(choices)
        committing = view.phase == CHOOSE
        self.others = tuple(
            (other, view.hand_sizes[other], committing and view.committed[other])
            for other in range(seats)
            if other != seat
        )
        self.wanted = sum(size + committed for _, size, committed in self.others)
        self.table = naive_table(*row_facts(view.rows))
        self.asked = view.asked if view.asked is not None else -1
        self.totals = view.totals  # the view's totals include the deal in progress
        if view.phase != OVER:
            self.totals = tuple(t - p for t, p in zip(view.totals, view.penalties, strict=True))

        played_by: list[list[int]] = [[] for _ in range(seats)]
        played: set[int] = set()
        for turn in view.played:
            for owner, card in turn:
                played_by[owner].append(card)
                played.add(card)
        self.played_by = tuple(tuple(cards) for cards in played_by)
        # The rows and piles hold the starters and every card played earlier in the deal.
        self.starters = tuple(sorted(c for c in placed if c not in played))


def _random_deal(seats: int, rng: random.Random) -> Deal:
    """A deal of a shuffled deck (a match's next deal)."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = tuple(
        tuple(deck[ROW_COUNT + HAND_SIZE * s : ROW_COUNT + HAND_SIZE * (s + 1)])
        for s in range(seats)
    )
    return Deal(tuple(deck[:ROW_COUNT]), hands, tuple(deck[ROW_COUNT + HAND_SIZE * seats :]))
