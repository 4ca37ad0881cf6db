"""Helpers of the history tests (test_history_*.py): games that are over, made directly in
the database (one by one, or a long history in bulk), and reading the pages they show on."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone

from games.models import Game, Membership
from tests.conftest import logged_in_client

T0 = timezone.now() - timedelta(days=30)
HUNDRED_AND_TEN, FIFTY_SIX, HEARTS = "hundred-and-ten", "fifty-six", "hearts"


def over(
    players,
    *,
    kind=HUNDRED_AND_TEN,
    winners=(0,),
    team=None,
    public=False,
    ended=None,
    abandoned=False,
    name="Old game",
):
    """A game that is over: `players` by seat (users, or bot names), `winners` seats."""
    humans = [p for p in players if not isinstance(p, str)]
    game = Game.objects.create(
        name=name,
        kind=kind,
        organizer=humans[0],
        public=public,
        max_players=len(players),
        status=Game.Status.ABANDONED if abandoned else Game.Status.FINISHED,
        outcome=None
        if abandoned
        else {"scores": [0] * len(players), "winners": list(winners), "winning_team": team},
        started_at=(ended or T0) - timedelta(hours=1),
        finished_at=ended or T0,
    )
    for seat, who in enumerate(players):
        if isinstance(who, str):
            Membership.objects.create(
                game=game, role="player", seat=seat, bot="naive", bot_name=who
            )
        else:
            role = "organizer" if who == humans[0] else "player"
            Membership.objects.create(game=game, user=who, role=role, seat=seat)
    return game


def bulk_history(user, count, opponents):
    """`count` finished games of `user` against `opponents` in turn (plus a bot), the way a
    long history looks, written in two bulk inserts."""
    games = Game.objects.bulk_create(
        Game(
            name=f"Game {n}",
            kind=(HUNDRED_AND_TEN, HEARTS)[n % 2],
            organizer=user,
            public=n % 3 == 0,
            max_players=3,
            status=Game.Status.FINISHED,
            outcome={"scores": [1, 2, 3], "winners": [n % 3], "winning_team": None},
            started_at=T0 + timedelta(minutes=n),
            finished_at=T0 + timedelta(minutes=n, seconds=30),
        )
        for n in range(count)
    )
    members = []
    for n, game in enumerate(games):
        other = opponents[n % len(opponents)]
        members += [
            Membership(game=game, user=user, role="organizer", seat=0),
            Membership(game=game, user=other, role="player", seat=1),
            Membership(game=game, role="player", seat=2, bot="naive", bot_name="Bot Ada"),
        ]
    Membership.objects.bulk_create(members)


def html_of(user, url):
    response = logged_in_client(user).get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def section(html, heading):
    match = re.search(rf"<h2[^>]*>{heading}</h2>(.*?)</section>", html, re.S)
    assert match, heading
    return match.group(1)


def names_in_order(html):
    return re.findall(r'class="game-row-name" href="[^"]*">([^<]+)</a>', html)


def plain(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
