"""Hearts' part of the table, drawn from a seat's view (`engine.view.HeartsView`).

The platform's frame draws the seats, turn banner, game over and tools; this module gives the
middle of the felt (the pass in progress, the trick), each seat's facts (total, points taken
this hand, passed or still choosing), the viewer's controls (the pass picker or the playable
hand) and the side panel (last trick, score sheet by hand). Only cards in the view get here.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.gamekind import BadAction, Frame, TableContext, TableTemplates, card_reader
from games.kinds.cardfaces import CardFace, face_of
from games.phrases import translated
from games.steps import NO_STEPS

from .engine import (
    Card,
    HeartsView,
    Pass,
    Play,
    card_code,
    card_name,
    card_suit,
    cards,
    parse_card,
    trick_winner,
)

# What the table says of each pass direction, translated when it is drawn: the bar's chip
# (the same for every viewer: the pass picker names the receiver), the note in the middle of
# the felt, the pass picker's legend and the score sheet's row.
PASS_CHIP = {
    "left": gettext_lazy("Pass to the left"),
    "right": gettext_lazy("Pass to the right"),
    "across": gettext_lazy("Pass across"),
}
EVERYONE_PASSES = {
    "left": gettext_lazy("Everyone passes three cards to the left."),
    "right": gettext_lazy("Everyone passes three cards to the right."),
    "across": gettext_lazy("Everyone passes three cards across."),
}
PASS_LEGEND = {
    "left": gettext_lazy(
        "Choose three cards to pass to the left to %(name)s. "
        "Nobody sees them until everyone has passed."
    ),
    "right": gettext_lazy(
        "Choose three cards to pass to the right to %(name)s. "
        "Nobody sees them until everyone has passed."
    ),
    "across": gettext_lazy(
        "Choose three cards to pass across to %(name)s. Nobody sees them until everyone has passed."
    ),
}
PASSED: dict[str, Promise] = {
    "left": gettext_lazy("Passed to the left"),
    "right": gettext_lazy("Passed to the right"),
    "across": gettext_lazy("Passed across"),
    "hold": gettext_lazy("No passing"),
}
PASS_SIZE = 3
MOVE_KINDS = ("pass", "play")


def card_face(card: Card) -> CardFace:
    return face_of(cards, card)


def card_info(card: Card, **extra: Any) -> dict[str, Any]:
    return card_face(card).info(**extra)


def _pass_text(view: HeartsView) -> str:
    if view.pass_direction == "hold":
        return _("No passing this hand")
    return str(PASS_CHIP[view.pass_direction])


class HeartsContext(TableContext):
    """`g` for this game: the frame's keys and those its own templates read."""

    hand: list[dict[str, Any]]
    passing: bool
    pass_to: str
    pass_direction: str
    everyone_passes: str
    pass_legend: str
    my_pass: list[dict[str, Any]]
    received: list[dict[str, Any]]
    received_from: str
    playing: bool
    my_move: bool
    trick: list[dict[str, Any]]
    done_trick: dict[str, Any] | None
    leader_text: str
    hearts_broken: bool


class HeartsTable(TableTemplates):
    def context(self, view: HeartsView, frame: Frame) -> HeartsContext:
        names = frame.names
        passing = view.phase == "pass"
        playing = view.phase == "play"
        mine = frame.my_turn
        seats = [
            {
                "total": view.totals[seat],
                "taken": view.taken[seat],
                "tricks_won": view.tricks_won[seat],
                "passed": passing and view.passed[seat],
                "choosing": passing and not view.passed[seat],
                "card_count": view.hand_sizes[seat],
                "backs": range(view.hand_sizes[seat]),
            }
            for seat in range(len(names))
        ]
        received = set(view.received or ())
        passing_away = set(view.my_pass or ()) if passing else set()
        playable = set(view.legal_plays) if frame.controls and playing else set()
        hand = [
            card_info(
                card,
                playable=card in playable,
                received=card in received,
                passing_away=card in passing_away,
            )
            for card in sorted(view.hand, key=_display_order)
        ]
        trick: list[dict[str, Any]] = []
        if view.trick:
            winner = trick_winner(view.trick) if len(view.trick) > 1 else None
            trick = frame.trick_plays(view.trick, winner, card_info)
        done_trick = None
        if playing and not view.trick and view.last_trick:
            winner = view.last_trick_winner
            done_trick = {
                "winner": names[winner] if winner is not None else "",
                "points": sum(_points(card) for _, card in view.last_trick),
                "plays": frame.trick_plays(view.last_trick, winner, card_info),
            }
        leader_text = ""
        if playing and len(view.to_act) == 1:
            (leader,) = tuple(view.to_act)
            if not view.trick:
                # Named, never "you": the middle of the felt is the same for every viewer.
                leader_text = _("%(name)s leads.") % {"name": names[leader]}
        facts: list[dict[str, Any]] = []
        if view.phase != "over":
            facts.append(
                {"text": _("Hand %(number)s") % {"number": view.hand_index + 1}, "class": ""}
            )
            facts.append({"text": _pass_text(view), "class": "pass-chip"})
            if view.hearts_broken:
                # Translators: a heart has been played, so hearts may be led.
                facts.append({"text": _("Hearts broken"), "class": "hearts-chip"})
        facts.append({"text": _("Play to %(points)s") % {"points": view.target}, "class": ""})
        pass_to = names[view.pass_to] if view.pass_to is not None else ""
        if passing:
            prompt = _("Your turn: choose three cards to pass to %(name)s.") % {"name": pass_to}
            # Translators: completes "Waiting for Ann and Bob …".
            waiting = pgettext("waiting for", "to choose their pass")
        else:
            prompt = _("Your turn: play a card.")
            waiting = pgettext("waiting for", "to play")
        direction = view.pass_direction
        received_from = view.received_from
        return {
            "phase": {"pass": "passing", "play": "tricks"}.get(view.phase, "over"),
            "round_number": view.hand_index + 1,
            "facts": facts,
            "prompt": prompt,
            "waiting": waiting,
            # Translators: the chip on a seat whose player is to act.
            "seat_turn": pgettext("seat", "choosing") if passing else pgettext("seat", "to play"),
            "seats": seats,
            "hand": hand,
            "passing": passing and frame.controls and view.my_pass is None,
            "pass_to": pass_to,
            "pass_direction": direction,
            "everyone_passes": str(EVERYONE_PASSES.get(direction, "")),
            "pass_legend": str(PASS_LEGEND[direction]) % {"name": pass_to}
            if direction in PASS_LEGEND
            else "",
            "my_pass": [card_info(c) for c in view.my_pass] if view.my_pass else [],
            "received": [card_info(c) for c in view.received] if view.received else [],
            "received_from": names[received_from] if received_from is not None else "",
            "playing": playing,
            "my_move": mine,
            "trick": trick,
            "done_trick": done_trick,
            "leader_text": leader_text,
            "hearts_broken": view.hearts_broken,
        }

    def steps(self, view: HeartsView) -> tuple[str, int]:
        return NO_STEPS  # a trick is played card by card: nothing to play out

    # --- the side panel: the same for every viewer -------------------------------------------

    def side_key(self, view: HeartsView) -> str:
        completed = sum(view.tricks_won)
        return f"{len(view.history)}.{completed}.{int(view.phase == 'over')}"

    def side(self, view: HeartsView, names: tuple[str, ...]) -> dict[str, Any]:
        last_trick = None
        if view.last_trick and view.last_trick_winner is not None:
            winner = view.last_trick_winner
            last_trick = {
                "winner": names[winner],
                "plays": [
                    {"name": names[s], "card": card_info(c), "winning": s == winner}
                    for s, c in view.last_trick
                ],
            }
        rows = []
        for record in view.history:
            rows.append(
                {
                    "number": record.index + 1,
                    "direction": record.pass_direction,
                    "passed": str(PASSED.get(record.pass_direction, "")),
                    "moon": names[record.moon_shooter] if record.moon_shooter is not None else "",
                    "cells": [
                        {"points": p, "total": t}
                        for p, t in zip(record.points, record.totals, strict=True)
                    ],
                }
            )
        return {
            "over": view.phase == "over",
            "target": view.target,
            "last_trick": last_trick,
            "score_names": names,
            "score_rows": rows,
            "taken_now": [{"name": n, "taken": t} for n, t in zip(names, view.taken, strict=True)]
            if view.phase != "over"
            else [],
        }

    # --- reading and describing moves --------------------------------------------------------

    def parse_action(self, data: QueryDict, seat: int) -> Pass | Play:
        kind = data.get("kind", "")
        if kind not in MOVE_KINDS:
            raise BadAction(_("That move could not be read: unknown kind of move."))
        if kind == "pass":
            cards = [t for t in data.getlist("cards") if t.strip()]
            if len(cards) != PASS_SIZE:
                raise BadAction(_("Choose exactly three cards to pass."))
            return Pass(tuple(_card(t) for t in cards))
        texts = data.getlist("card")
        if len(texts) != 1 or not texts[0].strip():
            raise BadAction(_("Choose one card to play."))
        return Play(_card(texts[0]))

    def describe(self, action: Pass | Play) -> str:
        if isinstance(action, Pass):
            named = [translated(card_name(c)) for c in action.cards]
            if len(named) != PASS_SIZE:  # not a pass the rules take: name the cards alone
                return _("Pass %(cards)s.") % {"cards": ", ".join(named)}
            return _("Pass the %(first)s, the %(second)s and the %(third)s.") % {
                "first": named[0],
                "second": named[1],
                "third": named[2],
            }
        return _("Play the %(card)s.") % {"card": translated(card_name(action.card))}


# The hand as shown: clubs, diamonds, spades, hearts (black and red alternate), low to high.
SUIT_ORDER = {"C": 0, "D": 1, "S": 2, "H": 3}


def _display_order(card: Card) -> tuple[int, int]:
    return SUIT_ORDER[card_suit(card)], int(card)


def _points(card: Card) -> int:
    code = card_code(card)
    if code == "QS":
        return 13
    return 1 if card_suit(card) == "H" else 0


_card = card_reader(parse_card, "10H or QS")


TABLE = HeartsTable("games/hearts")
