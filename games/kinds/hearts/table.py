"""Hearts' part of the table, drawn from a seat's view (`engine.view.HeartsView`).

The platform's frame draws the seats, turn banner, game over and tools; this module gives the
middle of the felt (the pass in progress, the trick), each seat's facts (total, points taken
this hand, passed or still choosing), the viewer's controls (the pass picker or the playable
hand) and the side panel (last trick, score sheet by hand). Only cards in the view get here.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from games.gamekind import BadAction, Frame, TableContext, TableTemplates, card_reader
from games.kinds.cardfaces import CardFace, face_of
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

DIRECTION_WORDS = {"left": "to the left", "right": "to the right", "across": "across"}
PASS_SIZE = 3
MOVE_KINDS = ("pass", "play")


def card_face(card: Card) -> CardFace:
    return face_of(cards, card)


def card_info(card: Card, **extra: Any) -> dict[str, Any]:
    return card_face(card).info(**extra)


def _pass_text(view: HeartsView, names: tuple[str, ...]) -> str:
    if view.pass_direction == "hold":
        return "No passing this hand"
    to = f" ({names[view.pass_to]})" if view.pass_to is not None else ""
    return f"Pass {DIRECTION_WORDS[view.pass_direction]}{to}"


class HeartsContext(TableContext):
    """`g` for this game: the frame's keys and those its own templates read."""

    hand: list[dict[str, Any]]
    passing: bool
    pass_to: str
    pass_direction: str
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
                leader_text = "Your lead." if leader == frame.seat else f"{names[leader]} leads."
        facts: list[dict[str, Any]] = []
        if view.phase != "over":
            facts.append({"text": f"Hand {view.hand_index + 1}", "class": ""})
            facts.append({"text": _pass_text(view, names), "class": "pass-chip"})
            if view.hearts_broken:
                facts.append({"text": "Hearts broken", "class": "hearts-chip"})
        facts.append({"text": f"Play to {view.target}", "class": ""})
        pass_to = names[view.pass_to] if view.pass_to is not None else ""
        if passing:
            prompt = f"Your turn: choose three cards to pass to {pass_to}."
            waiting = "to choose their pass"
        else:
            prompt = "Your turn: play a card."
            waiting = "to play"
        received_from = view.received_from
        return {
            "phase": {"pass": "passing", "play": "tricks"}.get(view.phase, "over"),
            "round_number": view.hand_index + 1,
            "facts": facts,
            "prompt": prompt,
            "waiting": waiting,
            "seat_turn": "choosing" if passing else "to play",
            "seats": seats,
            "hand": hand,
            "passing": passing and frame.controls and view.my_pass is None,
            "pass_to": pass_to,
            "pass_direction": DIRECTION_WORDS.get(view.pass_direction, ""),
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
            raise BadAction("That move could not be read: unknown kind of move.")
        if kind == "pass":
            cards = [t for t in data.getlist("cards") if t.strip()]
            if len(cards) != PASS_SIZE:
                raise BadAction("Choose exactly three cards to pass.")
            return Pass(tuple(_card(t) for t in cards))
        texts = data.getlist("card")
        if len(texts) != 1 or not texts[0].strip():
            raise BadAction("Choose one card to play.")
        return Play(_card(texts[0]))

    def describe(self, action: Pass | Play) -> str:
        if isinstance(action, Pass):
            named = [card_name(c) for c in action.cards]
            return "Pass the " + ", the ".join(named[:-1]) + f" and the {named[-1]}."
        return f"Play the {card_name(action.card)}."


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
