"""Reading a move POST: `kind` (bid|unpass|trump|discard|play) plus its fields and `version`.

Anything malformed raises `BadMove` with a sentence for the player; nothing is guessed.
The seat is never read from the request.
"""

from __future__ import annotations

from django.http import QueryDict

from games import engine
from games.services.table import MOVE_KINDS, MoveChoice


class BadMove(ValueError):
    """The POST could not be read as a move."""


def _card(text: str) -> engine.Card:
    try:
        return engine.parse_card(text.strip().upper())
    except ValueError:
        raise BadMove(f"“{text[:12]}” is not a card (write it like 10H, AS or JK).") from None


def parse_move(data: QueryDict) -> tuple[MoveChoice, int]:
    """The move and the table version the player saw, or BadMove."""
    raw_version = data.get("version", "")
    try:
        version = int(raw_version)
    except (TypeError, ValueError):
        raise BadMove("That move could not be read: the table version is missing.") from None
    if version < 0:
        raise BadMove("That move could not be read: the table version is missing.")
    kind = data.get("kind", "")
    if kind not in MOVE_KINDS:
        raise BadMove("That move could not be read: unknown kind of move.")
    if kind == "bid":
        try:
            amount = int(data.get("amount", ""))
        except (TypeError, ValueError):
            raise BadMove("Choose a bid amount or pass.") from None
        return MoveChoice("bid", amount=amount), version
    if kind == "unpass":
        return MoveChoice("unpass"), version
    if kind == "trump":
        suit = data.get("suit", "").strip().upper()
        if suit not in engine.SUITS:
            raise BadMove("Choose one of the four suits for trump.")
        return MoveChoice("trump", suit=suit), version
    if kind == "discard":
        cards = tuple(_card(text) for text in data.getlist("cards") if text.strip())
        return MoveChoice("discard", cards=cards), version
    texts = data.getlist("card")
    if len(texts) != 1 or not texts[0].strip():
        raise BadMove("Choose one card to play.")
    return MoveChoice("play", cards=(_card(texts[0]),)), version
