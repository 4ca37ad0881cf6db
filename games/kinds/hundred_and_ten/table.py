"""Hundred and Ten's part of the table, drawn from a seat's view (`engine.perspective_of`).

The platform's frame draws the seats, turn banner, game over and tools; this module gives
the middle of the felt (the trick), each seat's facts (score, bid, cards, tricks), the
viewer's controls (bids, pre-pass, trump, discard) and hand, and the side panel (last
trick, score sheet with chart, past rounds: score_sheet.py). Only cards in the view ever
get here.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.gamekind import BadAction, Frame, TableContext, TableTemplates, card_reader
from games.kinds.cardfaces import suit_info, suit_name
from games.phrases import html_sentence, translated
from games.steps import NO_STEPS

from . import score_sheet
from .engine import (
    SUITS,
    Bid,
    Discard,
    Move,
    Play,
    SeatView,
    SelectTrump,
    Status,
    Unpass,
    card_name,
    is_trump,
    parse_card,
    sort_hand,
)
from .engine.rules import trick_winner
from .faces import card_info

# (CSS word, label) of each phase; the labels are translated when a table is drawn.
PHASES = {
    Status.BIDDING: ("bidding", gettext_lazy("Bidding")),
    Status.TRUMP_SELECTION: ("trump", gettext_lazy("Naming trump")),
    Status.DISCARD: ("discard", gettext_lazy("Discarding")),
    Status.TRICKS: ("tricks", gettext_lazy("Playing tricks")),
    Status.WON: ("over", gettext_lazy("Game over")),
}
# What the seat to act does: (said to them, said of them: the frame writes "Waiting for Ann
# to bid.").
VERBS = {
    Status.BIDDING: (
        gettext_lazy("Your turn: bid or pass."),
        # Translators: completes "Waiting for Ann and Bob …".
        pgettext_lazy("waiting for", "to bid"),
    ),
    Status.TRUMP_SELECTION: (
        gettext_lazy("Your turn: you won the bid, choose trump."),
        pgettext_lazy("waiting for", "to choose trump"),
    ),
    Status.DISCARD: (
        gettext_lazy("Your turn: give up cards and draw new ones."),
        pgettext_lazy("waiting for", "to discard"),
    ),
    Status.TRICKS: (
        gettext_lazy("Your turn: play a card."),
        pgettext_lazy("waiting for", "to play"),
    ),
}
MOVE_KINDS = ("bid", "unpass", "trump", "discard", "play")


# Bids that ask "Bid 30? Confirm" once when the player chose "Confirm before playing"
# (docs/comforts.md): 30 and shooting the moon (60), the two a misclick costs most.
BIG_BID = 30


def bid_label(amount: int) -> str:
    if amount == 0:
        # Translators: the button that passes in the bidding.
        return pgettext("bidding", "Pass")
    if amount == 60:
        # Translators: the bid of 60, winning all five tricks.
        return _("Shoot the moon (60)")
    # Translators: a bid's button, and a seat's bid beside its name.
    return _("Bid %(points)s") % {"points": amount}


def _seat_text(view: SeatView, seat: int) -> tuple[str, bool]:
    """This round's bid or pass of `seat`, as shown by its name."""
    if view.status != Status.BIDDING:
        if view.bidder == seat and view.bid:
            return _("Bid %(points)s") % {"points": view.bid}, False
        return "", False
    last = None
    for who, amount in view.bids:
        if who == seat:
            last = amount
    if last is None:
        # A pass announced in advance is the player's secret: their controls say it
        # (play.html), never the seat, which every viewer sees alike.
        return "", False
    if last == 0:
        # Translators: beside a player's name: they passed in the bidding.
        return pgettext("bidding", "Passed"), True
    return _("Bid %(points)s") % {"points": last}, False


class HundredAndTenContext(TableContext):
    """`g` for this game: the frame's keys and those its own templates read."""

    phase_label: str
    hand: list[dict[str, Any]]
    discarding: bool
    discard_count: int
    playing: bool
    bids: list[dict[str, Any]]
    can_prepass: bool
    can_unpass: bool
    trump_choices: list[dict[str, Any]]
    trump: dict[str, Any] | None
    bleeding: bool
    trick: list[dict[str, Any]]
    done_trick: dict[str, Any] | None
    leader_text: str


class HundredAndTenTable(TableTemplates):
    def context(self, view: SeatView, frame: Frame) -> HundredAndTenContext:
        names = frame.names
        mine = frame.my_turn
        controls = frame.controls
        phase, label = PHASES.get(view.status, ("waiting", str(view.status)))
        phase_label = str(label)
        tricks_won = [0] * view.players
        for done in view.tricks:
            tricks_won[done.winner] += 1
        seats = []
        for seat in range(view.players):
            text, passed = _seat_text(view, seat)
            seats.append(
                {
                    "score": view.scores[seat],
                    "bid_text": text,
                    "passed": passed,
                    "card_count": view.hand_sizes[seat],
                    "backs": range(view.hand_sizes[seat]),
                    "tricks_won": tricks_won[seat],
                    "drew": view.discard_counts[seat]
                    if view.status in (Status.DISCARD, Status.TRICKS)
                    else None,
                }
            )
        trump = view.trump
        hand: list[dict[str, Any]] = []
        discarding = mine and view.status == Status.DISCARD
        discard_count = 0
        if view.hand is not None:
            playable = set(view.legal_plays) if controls else set()
            for card in sort_hand(view.hand, trump):
                pre = discarding and trump is not None and not is_trump(card, trump)
                discard_count += pre
                hand.append(card_info(card, playable=card in playable, preselected=pre))
        trick: list[dict[str, Any]] = []
        if view.current_trick and trump is not None:
            winner = trick_winner(view.current_trick, SUITS.index(trump))
            trick = frame.trick_plays(
                view.current_trick, winner if len(view.current_trick) > 1 else None, card_info
            )
        # The trick just completed stays in the middle, its winner marked, until the next lead.
        done_trick = None
        if view.status == Status.TRICKS and not view.current_trick and view.tricks:
            last = view.tricks[-1]
            done_trick = {
                "winner": names[last.winner],
                "plays": frame.trick_plays(last.plays, last.winner, card_info),
            }
        leader_text = ""
        if view.status == Status.TRICKS and view.active_seat is not None:
            # Named, never "you": the middle of the felt is the same for every viewer.
            leader_text = _("%(name)s leads.") % {"name": names[view.active_seat]}
        contract = None
        if view.bidder is not None and view.bid and view.status != Status.WON:
            contract = {"bidder": names[view.bidder], "bid": view.bid}
        facts: list[dict[str, Any]] = []
        if view.status != Status.WON:
            facts.append(
                {"text": _("Round %(number)s") % {"number": view.round_index + 1}, "class": ""}
            )
        facts.append({"text": phase_label, "class": ""})
        if contract:
            said = {"name": contract["bidder"], "points": contract["bid"]}
            if contract["bid"] == 60:
                text = _("%(name)s bid %(points)s (shoot the moon)") % said
            else:
                text = _("%(name)s bid %(points)s") % said
            facts.append({"text": text, "class": ""})
        if trump and view.status != Status.WON:
            suit = suit_info(trump)
            facts.append(
                {
                    "text": html_sentence(
                        # Translators: %(suit)s is the trump suit: its sign and name ("♠ Spades").
                        _("Trump: %(suit)s"),
                        suit=format_html(
                            '<span aria-hidden="true">{}</span> {}', suit["symbol"], suit["name"]
                        ),
                    ),
                    "class": f"trump-chip trump-{suit['color']}",
                }
            )
        if view.bleeding:
            facts.append(
                {
                    # Translators: Hundred and Ten's "bleeding": a trump was led, so whoever
                    # holds a trump must play one.
                    "text": _("Bleeding: follow with a trump if you hold one"),
                    "class": "bleeding-chip",
                }
            )
        yours, theirs = VERBS.get(
            view.status, (_("Your turn: act."), pgettext("waiting for", "to act"))
        )
        return {
            "phase": phase,
            "phase_label": phase_label,
            "round_number": view.round_index + 1,
            "facts": facts,
            "prompt": str(yours),
            "waiting": str(theirs),
            "dealer": view.dealer if view.status != Status.WON else None,
            "seats": seats,
            "hand": hand,
            "discarding": discarding,
            "discard_count": discard_count,
            "playing": view.status == Status.TRICKS,
            "bids": [
                {"amount": a, "label": bid_label(a), "big": a >= BIG_BID} for a in view.legal_bids
            ]
            if controls
            else [],
            "can_prepass": controls and view.can_prepass,
            "can_unpass": controls and view.can_unpass,
            "trump_choices": [suit_info(s) for s in SUITS]
            if mine and view.status == Status.TRUMP_SELECTION
            else [],
            "trump": suit_info(trump) if trump else None,
            "bleeding": view.bleeding,
            "trick": trick,
            "done_trick": done_trick,
            "leader_text": leader_text,
        }

    def steps(self, view: SeatView) -> tuple[str, int]:
        return NO_STEPS  # a trick is played card by card: nothing to play out

    # --- the side panel: the same for every viewer ---------------------------------------

    def side_key(self, view: SeatView) -> str:
        return f"{len(view.history)}.{len(view.tricks)}.{int(view.status == Status.WON)}"

    def side(self, view: SeatView, names: tuple[str, ...]) -> dict[str, Any]:
        history = view.history
        last = None
        last_round = 0  # set when the last trick belongs to a finished round
        if view.tricks:
            last = view.tricks[-1]
        elif history and history[-1].tricks:
            last = history[-1].tricks[-1]
            last_round = history[-1].index + 1
        last_trick = None
        if last is not None:
            last_trick = {
                "round": last_round,
                "winner": names[last.winner],
                "plays": [
                    {"name": names[s], "card": card_info(c), "winning": s == last.winner}
                    for s, c in last.plays
                ],
            }
        return {
            "over": view.status == Status.WON,
            "last_trick": last_trick,
            "scores_now": [
                {"name": n, "score": s} for n, s in zip(names, view.scores, strict=True)
            ],
            "score_names": names,
            "score_rows": score_sheet.score_rows(names, history),
            "passed_out": sum(r.outcome == "no_bidders" for r in history),
            "chart": score_sheet.chart(names, history, view.target),
            "past_rounds": score_sheet.past_rounds(names, history),
        }

    # --- reading and describing moves ----------------------------------------------------

    def parse_action(self, data: QueryDict, seat: int) -> Move:
        kind = data.get("kind", "")
        if kind not in MOVE_KINDS:
            raise BadAction(_("That move could not be read: unknown kind of move."))
        if kind == "bid":
            amount = data.get("amount", "")
            if not (amount.isascii() and amount.isdigit()):
                raise BadAction(_("Choose a bid amount or pass."))
            return Bid(seat, int(amount))
        if kind == "unpass":
            return Unpass(seat)
        if kind == "trump":
            suit = data.get("suit", "").strip().upper()
            if suit not in SUITS:
                raise BadAction(_("Choose one of the four suits for trump."))
            return SelectTrump(seat, suit)
        if kind == "discard":
            return Discard(seat, tuple(_card(t) for t in data.getlist("cards") if t.strip()))
        texts = data.getlist("card")
        if len(texts) != 1 or not texts[0].strip():
            raise BadAction(_("Choose one card to play."))
        return Play(seat, _card(texts[0]))

    def describe(self, action: Move) -> str:
        if isinstance(action, Bid):
            if action.amount == 0:
                # Translators: a hint: pass in the bidding.
                return pgettext("bidding", "Pass.")
            if action.amount == 60:
                return _("Shoot the moon (60).")
            return _("Bid %(points)s.") % {"points": action.amount}
        if isinstance(action, Unpass):
            return _("Cancel your pass.")
        if isinstance(action, SelectTrump):
            return _("Choose %(suit)s as trump.") % {"suit": suit_name(action.suit)}
        if isinstance(action, Discard):
            if not action.cards:
                return _("Keep your hand.")
            return _("Give up %(cards)s.") % {
                "cards": ", ".join(translated(card_name(c)) for c in action.cards)
            }
        return _("Play the %(card)s.") % {"card": translated(card_name(action.card))}


_card = card_reader(parse_card, "10H, AS or JK")


TABLE = HundredAndTenTable("games/hundred_and_ten")
