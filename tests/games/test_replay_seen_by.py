"""A finished game's replay drawn from another seat than the viewer's: the game's texts name
that seat ("Bob’s hand", "Bob chose 34", "passed to Bob from Carol") and never call it
"you", in every game. "You" stays for the viewer alone: their own seat box ("(you)", "your
turn") and their own moves in the banner ("Move 5: You: Pass.")."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from games import registry
from games.presenters.basis import names_of
from games.presenters.replay import timeline
from games.services.states import memberships, seated
from games.services.undo import TakeBack
from tests.conftest import logged_in_client
from tests.games.rating_helpers import finished

pytestmark = pytest.mark.django_db

# "You" of the seat drawn, in English and in German (the site says "du" to the player).
YOU = {
    "en": re.compile(r"\b(you|your|yours)\b", re.IGNORECASE),
    "de": re.compile(r"\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines)\b", re.IGNORECASE),
}
BANNER = re.compile(r'<p class="turn-banner" role="status">(.*?)</p>', re.DOTALL)


def viewers_own(language: str) -> list[str]:
    """What may say "you" in the replay's table, as the viewer (alice, seat 0) sees it: the
    marks of her own seat box, and the one chip that addresses whoever reads it, as a rule
    does (in `language`, as the page escapes them)."""
    with translation.override(language):
        return [
            # games/_seat.html: the viewer's own seat, and the same while it is to act (in
            # every seat box, shown on the viewer's alone by static/css/seats.css)
            f'<span class="muted seat-you"> {escape(_("(you)"))}</span>',
            f'<span class="chip-turn-you">{escape(_("your turn"))}</span>',
            # Hundred and Ten's chip for a trump led: a rule for everyone, not the seat drawn.
            escape(_("Bleeding: follow with a trump if you hold one")),
        ]


# A game long enough to reach every phase (a pass, a discard, a trump laid face down, a too-low
# card), drawn from the seats of the players who moved.
PEOPLE = {"hearts": 4, "fifty-six": 4, "hundred-and-ten": 3, "one-hundred-and-four": 4}
# Where each game said "you" of the seat drawn, it names it (X: the seat's name).
NAMED = {
    "hearts": ("X’s hand", "passed to X from", "X passes to"),
    "fifty-six": ("X’s hand", "X’s trump card, face down", "only X sees this"),
    "hundred-and-ten": ("X’s hand",),
    "one-hundred-and-four": ("X’s hand", "X chose"),
}
# Past this many steps, one step in three (the first hands in full): a test stays well
# within its minute on a busy machine.
IN_FULL = 150


def table_part(html: str) -> str:
    """The replay's table: its bar, steps, banner, felt, hand and side panel (no chat)."""
    start = html.index('<section class="table replay-table')
    return html[start : html.index('<details id="chat"', start)]


def calls_you(part: str, language: str, own_move: bool) -> list[str]:
    """Where the table `part` says "you" of anybody but the viewer (the banner says it of the
    viewer's own moves alone)."""
    you = YOU[language]
    (banner,) = BANNER.findall(part)
    assert bool(you.search(banner)) == own_move, banner
    rest = part.replace(banner, "")
    for allowed in viewers_own(language):
        rest = rest.replace(allowed, "")
    return [rest[max(m.start() - 80, 0) : m.end() + 80] for m in you.finditer(rest)]


@pytest.mark.parametrize("kind", list(registry.REGISTRY))
def test_a_replay_from_another_seat_names_it_and_never_calls_it_you(kind, alice, bob, carol, dave):
    people = [alice, bob, carol, dave][: PEOPLE[kind]]
    game = finished(kind, people, seed="seen-by")
    line = timeline(game)
    names = names_of(seated(game, memberships(game)), len(people))
    client = logged_in_client(alice)
    german = logged_in_client(alice)  # alice's profile names no language: the cookie chooses
    german.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    seen: dict[int, int] = {}  # steps drawn, by seat
    named: set[str] = set()  # the sentences that named the seat drawn (NAMED)
    for step in range(line.last + 1):
        if step > IN_FULL and step % 3:
            continue
        mover = line.actions[step - 1][0] if step else 1
        # The seat that has just moved (its pass, its card, its trump card), never alice's.
        seat = mover if mover != 0 else 1 + step % (len(people) - 1)
        address = reverse("replay", args=[game.pk]) + f"?at={step}&seat={seat}"
        move = line.actions[step - 1] if step else None
        own_move = move is not None and move[0] == 0 and not isinstance(move[1], TakeBack)
        part = table_part(client.get(address).content.decode())
        assert not calls_you(part, "en", own_move), (kind, step, seat)
        # Drawn from `seat`'s chair; "(you)" is shown on alice's own seat (static/css/seats.css).
        assert f'data-view-seat="{seat}" data-own-seat="0"' in part, (kind, step, seat)
        if step % 4 == 0:  # and in German, now and then
            in_german = table_part(german.get(address).content.decode())
            assert not calls_you(in_german, "de", own_move), (kind, step, seat)
        seen[seat] = seen.get(seat, 0) + 1
        named |= {said for said in NAMED[kind] if said.replace("X", names[seat]) in part}
    assert set(seen) == set(range(1, len(people))), seen  # every other seat drawn
    assert named == set(NAMED[kind])
