"""{% past_games_section %}: the signed-in user's past games, a page at a time (?page=).

For pages outside the games app (the profile, accounts/): they show the list without their
views knowing anything about games.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.services import past_games

register = template.Library()


@register.inclusion_tag("games/_past_games.html", takes_context=True)
def past_games_section(context: template.Context) -> dict[str, Any]:
    request = context["request"]
    page, rows = past_games.past_page(request.user, request.GET.get("page"))
    return {"page": page, "rows": rows, "anchor": "#past-games"}
