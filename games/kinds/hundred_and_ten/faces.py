"""A Hundred and Ten card as the templates draw it (games/kinds/cardfaces.py): used by the
table and by the score sheet's past rounds."""

from __future__ import annotations

from typing import Any

from games.kinds.cardfaces import CardFace, face

from .engine import Card, card_name, card_rank, card_suit, format_card


def card_face(card: Card) -> CardFace:
    suit = card_suit(card)
    return face(format_card(card), str(card_rank(card)), suit, card_name(card))


def card_info(card: Card, **extra: Any) -> dict[str, Any]:
    return card_face(card).info(**extra)
