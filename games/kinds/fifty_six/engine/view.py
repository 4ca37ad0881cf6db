"""What one seat (or a spectator) may see of a match: `view_of(state, seat) -> FiftySixView`.

The view holds only public facts plus the viewer's own secrets, so a page, a push message or
a bot built from it cannot leak a hidden card (rules §14):

* own hand: yes (sorted); every other hand, partner's included: only its size;
* the auction (every call, the high bid), the contract and the bidder: public;
* the face-down trump card and its suit: only the bidder, until somebody asks; everybody
  once revealed (with who asked). Finished hands in `history` keep a never-revealed trump
  hidden from everybody but that hand's bidder (C-56-23);
* every card played and by whom, trick winners, card points, tables, game points: public;
* legal actions, bid options (with the reason a bid is not allowed), `can_ask_trump`: only
  the viewer's own.

Built on every move for every seat by the web app, so it only copies or counts: no sorting
(masks iterate in canonical order), and the bid options are cached tuples.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.kinds.protocol import check_view_seat

from .actions import Action
from .auction import BidOption, bid_options, may_pass
from .cards import SUITS, Card, cards_of
from .play import can_ask_trump, current_winner, legal_play_mask
from .rules import legal_actions, to_act
from .state import MAX_BID, OVER, TRUMP_CHOICE, FiftySixState, HandRecord, Phase, Trick


@dataclass(frozen=True, slots=True)
class FiftySixView:
    """The match as `seat` sees it (`seat` None: a spectator). Cards are `Card` ints: write
    them with `cards.card_code`, draw them with `cards.card_face` / `card_rank` /
    `card_suit`. Teams are indexed 0 (even seats) and 1 (odd seats)."""

    seat: int | None  # the viewer (None: a spectator)
    seats: int  # 4 or 6
    team: int | None  # the viewer's team
    hand_index: int  # 0-based hand of the match (void hands count)
    phase: Phase  # "auction" | "trump_choice" | "play" | "match_over"
    dealer: int
    opener: int  # the seat after the dealer: calls first, and leads trick 1 (not in tani)
    tables_per_team: int | None  # None: an endless session
    hand: tuple[Card, ...]  # the viewer's cards, sorted (() for a spectator)
    hand_sizes: tuple[int, ...]  # cards in each seat's hand (the face-down card not counted)
    calls: tuple[tuple[int, int | None], ...]  # the auction: (seat, bid), None for a pass
    high_bid: int | None  # the highest bid so far (None before the first)
    high_bidder: int | None
    can_pass: bool  # the viewer may pass now
    bid_options: tuple[BidOption, ...]  # 28 … 56 with allowed / reason, on the viewer's call
    bidder: int | None  # the auction's winner (None during the auction)
    contract: int | None
    tani: bool  # the contract is 56: the bidder plays alone
    sitting_out: tuple[int, ...]  # seats that take no part in this hand's play (tani)
    trump_down: bool  # a face-down trump card lies on the table (chosen, not revealed)
    trump_revealed: bool
    trump_card: Card | None  # the bidder sees it while concealed; everybody once revealed
    trump_suit: str | None  # its suit letter, on the same terms
    revealed_by: int | None  # the seat that asked for the trump
    can_ask_trump: bool  # the viewer may ask for the trump now
    must_play_after_ask: bool  # the seat to play has asked and must now play
    trump_choices: tuple[Card, ...]  # the cards the viewer (bidder) may lay face down
    leader: int | None  # who leads / led the current trick
    trick: tuple[tuple[int, Card], ...]  # the current trick, (seat, card) in play order
    trick_winning: int | None  # the seat winning the current trick so far
    trumps_from: int | None  # once revealed: trump-suit cards from this index of the
    # current trick on count as trumps (earlier ones were plain discards); None: concealed
    tricks: tuple[Trick, ...]  # the completed tricks of this hand, with winners and points
    points: tuple[int, int]  # card points won this hand, by team
    tables: tuple[int, int] | None  # tables held by each team (None: endless session)
    game_points: tuple[int, int]  # running game-point totals, by team
    history: tuple[HandRecord, ...]  # finished hands (trump hidden as the viewer must see it)
    to_act: frozenset[int]
    legal_actions: tuple[Action, ...]  # the viewer's, in the traces' order
    legal_plays: tuple[Card, ...]  # the cards the viewer may play now
    winners: tuple[int, ...]  # the winning team's seats, once the match is over
    winning_team: int | None

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    @property
    def is_bidder(self) -> bool:
        return self.seat is not None and self.seat == self.bidder

    @property
    def last_trick(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None

    @property
    def legal_bids(self) -> tuple[int, ...]:
        """The values the viewer may bid now."""
        return tuple(option.value for option in self.bid_options if option.allowed)


def _history_for(state: FiftySixState, seat: int | None) -> tuple[HandRecord, ...]:
    history = state.history
    if all(r.trump_revealed or r.trump is None for r in history):
        return history
    return tuple(r if r.trump_revealed or r.bidder == seat else _hidden(r) for r in history)


def _hidden(record: HandRecord) -> HandRecord:
    """`record` as a seat other than the bidder sees it while the trump was never shown."""
    return replace(record, trump=None, trump_revealed=False, revealed_by=None)


def view_of(state: FiftySixState, seat: int | None) -> FiftySixView:
    """The view of `state` for `seat` or, with None, for a spectator."""
    n = state.seats
    check_view_seat(seat, n)
    hands = state.hands
    phase = state.phase
    bidder = state.bidder if state.bidder >= 0 else None
    trump = state.trump if state.trump >= 0 else None
    revealed = state.revealed
    may_see = revealed or (seat is not None and seat == bidder)
    shown = Card(trump) if trump is not None and may_see else None
    tani = state.contract >= MAX_BID and bidder is not None
    if seat is not None:
        hand = cards_of(hands[seat])
        legal = legal_actions(state, seat)
        plays = cards_of(legal_play_mask(state, seat))
        options = bid_options(state, seat)
        passing = may_pass(state, seat)
        asking = can_ask_trump(state, seat)
        choices = hand if phase == TRUMP_CHOICE and seat == bidder else ()
    else:
        hand = plays = choices = ()
        legal = ()
        options = ()
        passing = asking = False
    over = phase == OVER
    winning_team = state.winning_team if over else None
    return FiftySixView(
        seat=seat,
        seats=n,
        team=None if seat is None else seat & 1,
        hand_index=state.hand_index,
        phase=phase,
        dealer=state.dealer,
        opener=(state.dealer + 1) % n,
        tables_per_team=state.tables_per_team,
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in hands),
        calls=tuple((s, b or None) for s, b in state.calls),
        high_bid=state.high_bid or None,
        high_bidder=state.high_bidder if state.high_bidder >= 0 else None,
        can_pass=passing,
        bid_options=options,
        bidder=bidder,
        contract=state.contract or None,
        tani=tani,
        sitting_out=tuple(s for s in range(n) if state.sits_out(s)) if tani else (),
        trump_down=trump is not None and not revealed,
        trump_revealed=revealed,
        trump_card=shown,
        trump_suit=SUITS[shown // 12] if shown is not None else None,
        revealed_by=state.revealed_by if revealed else None,
        can_ask_trump=asking,
        must_play_after_ask=state.asked,
        trump_choices=choices,
        leader=state.leader if state.leader >= 0 else None,
        trick=state.trick,
        trick_winning=current_winner(state),
        trumps_from=state.reveal_pos if revealed else None,
        tricks=state.tricks,
        points=state.points,
        tables=None if state.tables_per_team is None else state.tables,
        game_points=state.game_points,
        history=_history_for(state, seat),
        to_act=to_act(state),
        legal_actions=legal,
        legal_plays=plays,
        winners=tuple(range(state.winning_team, n, 2)) if over else (),
        winning_team=winning_team,
    )
