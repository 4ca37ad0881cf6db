"""Fifty-Six's part of the table, drawn from a seat's view (`engine.view.FiftySixView`).

* The middle of the felt: the auction (every call), then the contract, the face-down trump
  card (a card back for everybody; face up for the bidder, marked "only you see this") or,
  once asked for, the trump suit with who asked, the trick and the team points against the
  contract.
* A seat's facts: its team (the frame's team chip), its last call, bidder, sitting out (tani).
* The player's controls: the bids 28 to 56 (legal ones enabled; why the others are not
  allowed, said once per reason), Pass, the trump card chosen from the hand, "Ask for trump"
  exactly when the rules allow it, the hand with its legal cards.
* The side panel: both teams' tables and game points, and the hand history.

Only cards in the view get here: the trump card reaches the bidder alone until it is asked
for (rules C-56-23).
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.gamekind import BadAction, Frame, TableContext, TableTemplates, card_reader
from games.kinds.cardfaces import CardFace, face_of, suit_info
from games.phrases import translated
from games.steps import NO_STEPS

from .engine import (
    AskTrump,
    Bid,
    Card,
    ChooseTrump,
    FiftySixView,
    Pass,
    Play,
    card_name,
    cards,
    parse_card,
)

TEAM_NAMES = (gettext_lazy("Team A"), gettext_lazy("Team B"))
MOVE_KINDS = ("bid", "pass", "trump", "ask", "play")
# What the seat to act does in each phase: (said to them, said of them: the frame writes
# "Waiting for Ann to call.").
PROMPTS = {
    "auction": (
        gettext_lazy("Your call: bid or pass."),
        # Translators: completes "Waiting for Ann and Bob …"; a call is a bid or a pass.
        pgettext_lazy("waiting for", "to call"),
    ),
    "trump_choice": (
        gettext_lazy("You won the auction: lay a trump card face down."),
        pgettext_lazy("waiting for", "to choose trump"),
    ),
    "play": (gettext_lazy("Your turn: play a card."), pgettext_lazy("waiting for", "to play")),
}
PHASES = {"auction": "bidding", "trump_choice": "trump", "play": "tricks"}
TOTAL_POINTS = 56


def card_face(card: Card) -> CardFace:
    return face_of(cards, card)


def card_info(card: Card, **extra: Any) -> dict[str, Any]:
    return card_face(card).info(**extra)


# Bids that ask "Bid 40? Confirm" once when the player chose "Confirm before playing"
# (docs/comforts.md): 40 and above, where a lost contract costs more tables.
BIG_BID = 40


def _bids(view: FiftySixView) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The bid buttons (every value, the legal ones enabled) and the reasons the others are
    not allowed, each reason once with the values it covers ("28–39")."""
    buttons, reasons = [], []
    run: list[int] = []
    reason = ""
    for option in view.bid_options:
        buttons.append(
            {
                "value": option.value,
                "allowed": option.allowed,
                "why": translated(option.reason),
                "big": option.value >= BIG_BID,
            }
        )
        if option.allowed or option.reason != reason:
            if run:
                reasons.append({"values": _span(run), "text": translated(reason)})
            run, reason = ([], "") if option.allowed else ([option.value], option.reason)
        else:
            run.append(option.value)
    if run:
        reasons.append({"values": _span(run), "text": translated(reason)})
    return buttons, reasons


def _span(values: list[int]) -> str:
    return str(values[0]) if len(values) == 1 else f"{values[0]}–{values[-1]}"


def _call_text(bid: int | None) -> str:
    # Translators: a pass in Fifty-Six's auction, beside the player's name.
    return pgettext("auction call", "pass") if bid is None else str(bid)


class FiftySixContext(TableContext):
    """`g` for this game: the frame's keys and those its own templates read."""

    hand: list[dict[str, Any]]
    calls: list[dict[str, Any]]
    high: dict[str, Any] | None
    bids: list[dict[str, Any]]
    reasons: list[dict[str, str]]
    can_pass: bool
    trump_choices: list[dict[str, Any]]
    trump: dict[str, Any] | None
    can_ask: bool
    playing: bool
    my_move: bool
    trick: list[dict[str, Any]]
    done_trick: dict[str, Any] | None
    contract: int | None
    bidder_team: str
    team_points: list[dict[str, Any]]
    against: int
    tani: bool
    void_note: str
    sitting_out: list[str]


class FiftySixTable(TableTemplates):
    def context(self, view: FiftySixView, frame: Frame) -> FiftySixContext:
        names = frame.names
        last_call: dict[int, int | None] = {}
        for seat, bid in view.calls:
            last_call[seat] = bid
        seats = [
            {
                "call": _call_text(last_call[s])
                if s in last_call and view.phase == "auction"
                else "",
                "bidder": s == view.bidder,
                "contract": view.contract if s == view.bidder else None,
                "sitting_out": s in view.sitting_out,
                "card_count": view.hand_sizes[s],
                "backs": range(view.hand_sizes[s]),
            }
            for s in range(len(names))
        ]
        playing = view.phase == "play"
        mine = frame.my_turn
        playable = set(view.legal_plays) if frame.controls and mine and playing else set()
        hand = [card_info(c, playable=c in playable) for c in view.hand]
        trick = frame.trick_plays(view.trick, view.trick_winning, card_info) if view.trick else []
        done = None
        last = view.last_trick
        if playing and not view.trick and last is not None:
            done = {
                "winner": names[last.winner],
                "points": last.points,
                "plays": frame.trick_plays(last.plays, last.winner, card_info),
            }
        bids, reasons = _bids(view) if frame.controls and mine else ([], [])
        bidder_team = view.bidder & 1 if view.bidder is not None else None
        trump = None
        if view.trump_down or view.trump_revealed:
            trump = {
                "revealed": view.trump_revealed,
                "card": card_info(view.trump_card) if view.trump_card is not None else None,
                "suit": suit_info(view.trump_suit) if view.trump_suit else None,
                "by": names[view.revealed_by] if view.revealed_by is not None else "",
                "mine": view.is_bidder and not view.trump_revealed,
            }
        facts: list[dict[str, Any]] = [
            {"text": _("Hand %(number)s") % {"number": view.hand_index + 1}, "class": ""}
        ]
        if view.contract is not None and view.bidder is not None:
            said = {"name": names[view.bidder], "points": view.contract}
            if view.tani:
                # Translators: "tani": Fifty-Six's bid of 56, played by the bidder alone.
                text = _("%(name)s bid %(points)s (tani: alone)") % said
            else:
                text = _("%(name)s bid %(points)s") % said
            facts.append({"text": text, "class": "bid-chip"})
        if view.trump_revealed and view.trump_suit:
            info = suit_info(view.trump_suit)
            facts.append(
                {
                    # Translators: %(suit)s is the trump suit: its sign and name ("♠ Spades").
                    "text": _("Trump %(suit)s") % {"suit": f"{info['symbol']} {info['name']}"},
                    "class": "trump-chip",
                }
            )
        yours, theirs = PROMPTS.get(view.phase, ("", ""))
        prompt, waiting = str(yours), str(theirs)
        if view.phase == "auction" and not view.can_pass and mine:
            prompt = _("Your call: you open, so you must bid.")
        if view.phase == "play" and mine and view.must_play_after_ask and view.trump_suit:
            info = suit_info(view.trump_suit)
            prompt = _("You asked: trump is %(suit)s. Play a trump if you have one.") % {
                "suit": f"{info['symbol']} {info['name']}"
            }
        void_note = ""
        if view.phase == "auction" and not view.calls and view.history:
            last_hand = view.history[-1]
            if last_hand.outcome == "void":
                void_note = _(
                    "Hand %(number)s was void (the other team held no card of the trump suit): "
                    "the same dealer deals again."
                ) % {"number": last_hand.index + 1}
        return {
            "phase": PHASES.get(view.phase, "over"),
            "round_number": view.hand_index + 1,
            "dealer": view.dealer,
            "facts": facts,
            "prompt": prompt,
            "waiting": waiting,
            "seat_turn": waiting or pgettext("waiting for", "to play"),
            "seats": seats,
            "hand": hand,
            "calls": [{"name": names[s], "call": _call_text(b)} for s, b in view.calls],
            "high": (
                {"bid": view.high_bid, "name": names[view.high_bidder]}
                if view.high_bid is not None and view.high_bidder is not None
                else None
            ),
            "bids": bids,
            "reasons": reasons,
            "can_pass": view.can_pass and frame.controls and mine,
            "trump_choices": [card_info(c) for c in view.trump_choices]
            if frame.controls and mine
            else [],
            "trump": trump,
            "can_ask": view.can_ask_trump and frame.controls,
            "playing": playing,
            "my_move": mine,
            "trick": trick,
            "done_trick": done,
            "contract": view.contract,
            "bidder_team": str(TEAM_NAMES[bidder_team]) if bidder_team is not None else "",
            "team_points": [
                {"name": str(TEAM_NAMES[t]), "points": view.points[t], "bidding": t == bidder_team}
                for t in (0, 1)
            ]
            if playing
            else [],
            "against": TOTAL_POINTS - (view.contract or 0) + 1,
            "tani": view.tani,
            "void_note": void_note,
            "sitting_out": [names[s] for s in view.sitting_out],
        }

    def steps(self, view: FiftySixView) -> tuple[str, int]:
        return NO_STEPS  # a trick is played card by card: nothing to play out

    # --- the side panel: the same for every viewer -------------------------------------------

    def side_key(self, view: FiftySixView) -> str:
        return f"{len(view.history)}.{len(view.tricks)}.{int(view.phase == 'match_over')}"

    def side(self, view: FiftySixView, names: tuple[str, ...]) -> dict[str, Any]:
        rows = []
        for record in reversed(view.history):
            team = record.bidder & 1
            rows.append(
                {
                    "number": record.index + 1,
                    "bidder": names[record.bidder],
                    "team": str(TEAM_NAMES[team]),
                    "contract": record.contract,
                    "outcome": record.outcome,
                    "points": record.points[team],
                    # A trump nobody asked for stays hidden from the spectators' side panel.
                    "trump": card_info(record.trump)
                    if record.trump_revealed and record.trump
                    else None,
                    "change": " / ".join(
                        f"{TEAM_NAMES[t]} {'+' if d > 0 else ''}{d}"
                        for t, d in enumerate(record.tables_change)
                        if d
                    ),
                }
            )
        teams = []
        for t in (0, 1):
            members = [names[s] for s in range(len(names)) if s & 1 == t]
            teams.append(
                {
                    "name": str(TEAM_NAMES[t]),
                    "members": ", ".join(members),
                    "tables": view.tables[t] if view.tables is not None else None,
                    "game_points": view.game_points[t],
                    "won": view.winning_team == t,
                }
            )
        return {
            "over": view.phase == "match_over",
            "teams": teams,
            "tables_per_team": view.tables_per_team,
            "hands": rows,
        }

    # --- reading and describing moves --------------------------------------------------------

    def parse_action(
        self, data: QueryDict, seat: int
    ) -> Bid | Pass | ChooseTrump | AskTrump | Play:
        kind = data.get("kind", "")
        if kind not in MOVE_KINDS:
            raise BadAction(_("That move could not be read: unknown kind of move."))
        if kind == "pass":
            return Pass()
        if kind == "ask":
            return AskTrump()
        if kind == "bid":
            text = data.get("amount", "").strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 3:
                raise BadAction(_("Choose a bid from 28 to 56."))
            return Bid(int(text))
        texts = data.getlist("card")
        if len(texts) != 1 or not texts[0].strip():
            raise BadAction(_("Choose one card."))
        card = _card(texts[0])
        return ChooseTrump(card) if kind == "trump" else Play(card)

    def describe(self, action: Bid | Pass | ChooseTrump | AskTrump | Play) -> str:
        if isinstance(action, Bid):
            return _("Bid %(points)s.") % {"points": action.value}
        if isinstance(action, Pass):
            # Translators: a hint: pass in the bidding.
            return pgettext("bidding", "Pass.")
        if isinstance(action, AskTrump):
            return _("Ask for the trump.")
        name = translated(card_name(action.card))
        if isinstance(action, ChooseTrump):
            return _("Lay the %(card)s face down as trump.") % {"card": name}
        return _("Play the %(card)s.") % {"card": name}


_card = card_reader(parse_card, "JC0 or 10H1")


TABLE = FiftySixTable("games/fifty_six")
