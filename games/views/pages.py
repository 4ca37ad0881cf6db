"""Public pages: the rules of each game, "how to play here", and the landing page.

None needs a sign-in. The platform knows the games only through the registry: a rules page
is the game's own template (`GameKind.rules_template`, in its folder under games/kinds/)
inside a shared frame that lists the options from the `GameKind` itself, so the page never
disagrees with what the new-game form offers, and draws the contents from the text's
sections, so they never disagree with the text. The landing page is what "/" shows a
signed-out visitor (games/views/lobby/screens.py hands it over); its pictures are
img/tables/<slug>.jpg in each game's static folder, one screenshot of its table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from games import registry
from games.clocks import turns
from games.gamekind import GameKind
from games.words import or_list


@dataclass(frozen=True)
class Choice:
    label: str
    default: bool


@dataclass(frozen=True)
class OptionText:
    """One rule option of a game as its rules page lists it."""

    label: str
    help: str
    choices: list[Choice]


def _options(kind: GameKind) -> list[OptionText]:
    return [
        OptionText(
            label=option.label,
            help=option.help,
            choices=[Choice(label, value == option.default) for value, label in option.choices],
        )
        for option in kind.options
    ]


@dataclass(frozen=True)
class Game:
    """A game as the public pages list it."""

    kind: GameKind
    in_teams: bool  # (templates would call `kind.teams`, a function of the seat count)
    picture: str  # a static path, or ""


def _games() -> list[Game]:
    return [
        Game(kind, kind.teams is not None, table_picture(kind.slug))
        for kind in registry.REGISTRY.values()
    ]


@cache
def table_picture(slug: str) -> str:
    """The static path of a picture of the game's table, or "" when there is none (a new
    game without one yet: `{% static %}` of a missing file fails in production)."""
    path = f"img/tables/{slug}.jpg"
    return path if finders.find(path) else ""


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"games": _games()})


# A section of a game's rules text and its heading, as every game writes them (the heading
# is our own template's HTML, safe as it stands).
_SECTION = re.compile(
    r'<section id="([^"]+)" aria-labelledby="\1-title">\s*<h2 id="\1-title">(.*?)</h2>', re.S
)


@dataclass(frozen=True)
class Section:
    id: str
    title: SafeString


def _contents(text: str) -> list[Section]:
    """The sections of a game's rules text, in order, for the page's contents."""
    return [Section(id, mark_safe(title)) for id, title in _SECTION.findall(text)]


@require_GET
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    kind = registry.REGISTRY.get(slug)
    if kind is None:
        raise Http404("There is no game by that name.")
    context = {
        "kind": kind,
        "in_teams": kind.teams is not None,
        "options": _options(kind),
        "bot_levels": or_list([str(label) for _, label in kind.bot_levels]),
        "many_levels": len(kind.bot_levels) > 1,
        "others": [k for k in registry.REGISTRY.values() if k.slug != kind.slug],
    }
    if kind.rules_template:
        text = render_to_string(kind.rules_template, request=request)
        context["rules_text"] = mark_safe(text)
        context["contents"] = _contents(text)
    return render(request, "games/rules.html", context)


@require_GET
def how_to_play(request: HttpRequest) -> HttpResponse:
    context = {
        "kinds": list(registry.REGISTRY.values()),
        "paces": or_list([str(label) for seconds, label in turns.PACES if seconds]),
    }
    return render(request, "games/how_to_play.html", context)


def landing(request: HttpRequest) -> HttpResponse:
    """What the site is, for a signed-out visitor at "/" (called by the lobby view)."""
    return render(request, "games/landing.html", {"games": _games()})
