"""Table comforts that follow a person around the site (docs/comforts.md): the four-colour
deck (a class on <html>) and "confirm before playing" (the trick games' controls).

A signed-in person keeps both on their profile; a visitor can only choose the deck, kept
in a cookie (they have no controls to confirm)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

DECK_COOKIE = "deck"
DECK_COOKIE_AGE = 365 * 24 * 3600


def comforts(request: HttpRequest) -> dict[str, Any]:
    """Context processor: `deck_four` and `confirm_moves` for every template rendered with
    a request (pages, and the sockets' renders, whose request carries the user)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {
            "deck_four": bool(getattr(user, "four_colour_deck", False)),
            "confirm_moves": bool(getattr(user, "confirm_moves", False)),
        }
    return {"deck_four": request.COOKIES.get(DECK_COOKIE) == "four", "confirm_moves": False}
