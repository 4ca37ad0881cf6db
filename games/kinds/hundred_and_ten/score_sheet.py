"""Hundred and Ten's record of the game in the table's side panel: the score sheet (a row
per scored round), its chart of running totals, and the last few rounds in full.

Apart from table.py, which draws the current hand: these read only the finished rounds
(`RoundRecord`s of the view's history), never what a seat holds now.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.kinds.cardfaces import suit_info, suit_name

from .engine import RoundRecord
from .faces import card_info

PAST_ROUNDS_SHOWN = 3


def chart(names: tuple[str, ...], history: tuple[RoundRecord, ...], target: int) -> dict[str, Any]:
    totals = [[0] for _ in names]
    for record in history:
        if record.outcome == "no_bidders":
            continue
        for seat, points in enumerate(record.round_scores):
            totals[seat].append(totals[seat][-1] + points)
    rounds = len(totals[0]) - 1
    if rounds < 1:
        return {}
    width, height, pad = 300, 120, 6
    low = min(0, *(min(t) for t in totals))
    high = max(target, *(max(t) for t in totals))
    span = max(high - low, 1)

    def y(value: int) -> float:
        return round(pad + (high - value) * (height - 2 * pad) / span, 1)

    def x(index: int) -> float:
        return round(pad + index * (width - 2 * pad) / rounds, 1)

    lines = [
        {
            "name": name,
            "last": series[-1],
            "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(series)),
        }
        for name, series in zip(names, totals, strict=True)
    ]
    # Text, as in `points`: a template would write a float as the language does ("12,5").
    zero, target_y = str(y(0)), str(y(target))
    return {"width": width, "height": height, "zero": zero, "target_y": target_y, "lines": lines}


def score_rows(names: tuple[str, ...], history: tuple[RoundRecord, ...]) -> list[dict[str, Any]]:
    """One row per scored round: the contract, and each seat's total and points."""
    running = [0] * len(names)
    rows = []
    for record in history:
        for seat, points in enumerate(record.round_scores):
            running[seat] += points
        if record.outcome == "no_bidders" or record.bidder is None:
            continue  # changes no score: counted below the sheet instead
        cells = [
            {"points": points, "total": running[seat], "bidder": seat == record.bidder}
            for seat, points in enumerate(record.round_scores)
        ]
        rows.append(
            {
                "number": record.index + 1,
                "bid": record.bid,
                "trump": suit_info(record.trump) if record.trump else None,
                "bidder": names[record.bidder],
                "cells": cells,
            }
        )
    return rows


def _round_summary(names: tuple[str, ...], record: RoundRecord) -> str:
    """What happened in a finished round, after "Round 3: " (side.html)."""
    if record.outcome == "no_bidders" or record.bidder is None:
        # Translators: a round nobody bid in, after "Round 3: ".
        return _("everyone passed (%(dealer)s dealt)") % {"dealer": names[record.dealer]}
    points = record.round_scores[record.bidder]
    said = {
        "name": names[record.bidder],
        "bid": record.bid,
        "trump": suit_name(record.trump) if record.trump else "?",
        "points": f"+{points}" if points > 0 else str(points),
    }
    # Translators: a finished round, after "Round 3: "; %(trump)s is a suit ("Spades") and
    # %(points)s what the bidder scored ("+25", "-20").
    if record.outcome == "made":
        return _("%(name)s bid %(bid)s in %(trump)s and made it (%(points)s)") % said
    if record.outcome == "failed":
        # Translators: "went set": the bidder fell short of the bid and loses it.
        return _("%(name)s bid %(bid)s in %(trump)s and went set (%(points)s)") % said
    return _("%(name)s bid %(bid)s in %(trump)s and shot the moon (%(points)s)") % said  # "moon"


def past_rounds(names: tuple[str, ...], history: tuple[RoundRecord, ...]) -> list[dict[str, Any]]:
    """The last few finished rounds in full (hands, discards, tricks), newest first.

    Older rounds stay on the score sheet only, so the panel does not grow with the game.
    """
    rounds = []
    for record in reversed(history[-PAST_ROUNDS_SHOWN:]):
        hands = [
            {
                "name": names[seat],
                "cards": [card_info(c) for c in hand],
                "discards": [card_info(c) for c in record.discards[seat]]
                if seat < len(record.discards)
                else [],
            }
            for seat, hand in enumerate(record.hands)
        ]
        tricks = [
            {
                "plays": [{"card": card_info(c), "name": names[s]} for s, c in trick.plays],
                "winner": names[trick.winner],
            }
            for trick in record.tricks
        ]
        rounds.append(
            {
                "number": record.index + 1,
                "summary": _round_summary(names, record),
                "hands": hands,
                "tricks": tricks,
            }
        )
    return rounds
