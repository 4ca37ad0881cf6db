"""No text reaches a page without passing through translation (tests/i18n/pseudo.py).

Every page, partial and letter is drawn in the pseudo-locale, whose every message is
accented and bracketed; any word left outside brackets was not marked for translation, or
was marked after the catalogues were last made (`make messages`). The allow-list is short:
the players' and tables' names, and the cards' ranks (one letter, or "10", never words).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language_info

from games import mail
from games.models import Game, PendingMail
from games.presenters.replay import timeline
from games.registry import REGISTRY
from games.services import lobby, seats
from tests.conftest import HX, logged_in_client, make_user
from tests.games.conftest import play_to_the_end, seat_game, start_table
from tests.i18n import pseudo
from tests.mail.conftest import after, html_of, text_of, verify

pytestmark = pytest.mark.django_db

# Each language is offered in its own name ("Deutsch", "മലയാളം"): never translated.
LANGUAGE_NAMES = tuple(get_language_info(code)["name_local"] for code, _ in settings.LANGUAGES)
# Dates name their month through Django's own catalogues (every real language has them);
# "JK" is the joker's corner, a card rank like "K".
NOT_OURS = (
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
    "JK",
)
NAMES = ("Alice", "Bob", "Carol", "Dave", "alice", "bob", "carol", "dave", "Table", *LANGUAGE_NAMES)


@pytest.fixture(autouse=True)
def pseudo_locale(settings, tmp_path_factory) -> None:
    where: Path = tmp_path_factory.getbasetemp() / "pseudo-locale"
    if not (where / "en_XA" / "LC_MESSAGES" / "django.mo").exists():
        pseudo.build(where)
    settings.LOCALE_PATHS = [where, *settings.LOCALE_PATHS]
    settings.LANGUAGES = [*settings.LANGUAGES, (pseudo.CODE, "Pseudo")]


def in_pseudo(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = pseudo.CODE
    return client


def bot_names(game) -> list[str]:
    return [m.bot_name for m in game.memberships.all() if m.bot_name]


def check(client: Client, url: str, *, allowed=(), headers=None, status=200) -> None:
    response = client.get(url, headers=headers or {})
    assert response.status_code == status, (url, response.status_code)
    assert response["Content-Language"] == pseudo.CODE, url
    left = pseudo.untranslated(response.content.decode(), (*NAMES, *NOT_OURS, *allowed))
    assert not left, f"{url}: not translated: {left[:20]}"


def test_the_pseudo_locale_marks_every_message_and_keeps_placeholders():
    assert pseudo.pseudo("%(name)s bid <b>%(points)s</b>") == "⟦%(name)s bíd <b>%(points)s</b>⟧"
    assert pseudo.untranslated("<p>⟦Íñ⟧ Alice</p>", ["Alice"]) == []
    assert pseudo.untranslated("<p>Tables</p>", ["Table"]) == ["Tables"]
    assert pseudo.untranslated('<p title="Hand">⟦x⟧</p>') == ["Hand"]
    assert pseudo.untranslated("<p>⟦Ýóúr ⟦tú⟧ rñ⟧ 10 ♠ K</p><script>var x</script>") == []
    assert pseudo.untranslated("<p>⟦Ýóúr⟧ turn</p>") == ["turn"]
    assert pseudo.untranslated("<p>⟦Séñd <b>á líñk</b> ñów⟧</p>") == []


def test_public_pages_signed_out():
    client = in_pseudo(Client())
    check(client, "/")
    check(client, reverse("rules-index"))
    check(client, reverse("how-to-play"))
    for slug in REGISTRY:
        check(client, reverse("rules", args=[slug]))
    check(client, "/no-such-page/", status=404)


def test_sign_in_sign_up_and_password_reset():
    """allauth's own words on these pages are in our catalogues (accounts/outside_words.py):
    allauth has no Malayalam."""
    client = in_pseudo(Client())
    for name in ("account_login", "account_signup", "account_reset_password"):
        check(client, reverse(name))


def test_signed_in_pages(alice, bob):
    client = in_pseudo(logged_in_client(alice))
    check(client, reverse("lobby"))
    check(client, reverse("new-game"))
    check(client, reverse("profile"))
    check(client, reverse("past-games"))
    check(client, reverse("player", args=[bob.username]))
    for slug in REGISTRY:
        check(client, reverse("leaderboard", args=[slug]))


@pytest.mark.parametrize("slug", sorted(REGISTRY))
def test_every_game_s_waiting_room_table_and_partials(alice, bob, carol, slug):
    kind = REGISTRY[slug]
    waiting = seat_game([alice], 1, kind=slug, name="Table")
    alices = in_pseudo(logged_in_client(alice))
    check(alices, reverse("waiting-room", args=[waiting.pk]), allowed=bot_names(waiting))

    seats = kind.table_size
    game = start_table([alice, bob], seats - 2, kind=slug, public=True, name="Table")
    names = bot_names(game)
    table = reverse("table", args=[game.pk])
    check(alices, table, allowed=names)
    check(alices, table, allowed=names, headers=HX)
    check(alices, reverse("hint", args=[game.pk]), allowed=names, headers=HX)
    # A spectator of the public game.
    check(in_pseudo(logged_in_client(carol)), table, allowed=names)


def check_letter(letter, allowed) -> None:
    subject = str(letter["Subject"])
    assert not pseudo.untranslated(f"<p>{subject}</p>", allowed), subject
    text = text_of(letter)
    assert not pseudo.untranslated(f"<pre>{text}</pre>", allowed), text
    html = html_of(letter)
    assert not pseudo.untranslated(html, allowed), html


def test_every_letter_of_the_sweep_is_in_its_reader_s_language(alice, bob, carol, inbox):
    """Invitation, turn, come back and game over, sent through the SMTP server to readers
    whose profile says the pseudo-locale, while the sweep's own language is English."""
    verify(alice, bob, carol)
    for user in (alice, bob, carol):
        user.language = pseudo.CODE
        user.save(update_fields=["language"])
    waiting = lobby.create_game(organizer=alice, name="Table", public=False, max_players=4)
    lobby.invite(game_id=waiting.pk, by=alice, username="carol")
    game = start_table([alice, bob], bots=1, seed="short", target=30)  # bob's turn soon
    logged_in_client(alice).post(reverse("come-back", args=[game.pk, 1]), headers=HX)
    with translation.override("en"):
        mail.send_due(after(3600))
    play_to_the_end(game, [alice, bob])
    with translation.override("en"):
        mail.send_due(after(7200))
    reasons = set(PendingMail.objects.filter(outcome="sent").values_list("reason", flat=True))
    assert {"invited", "turn", "come_back", "ended"} <= reasons, reasons
    assert len(inbox.messages) >= 4
    for letter in inbox.messages:
        check_letter(letter, (*NAMES, *bot_names(game)))


@pytest.mark.parametrize(
    ("slug", "players", "options"),
    [
        ("hundred-and-ten", 3, {"target": 60}),
        ("hearts", 4, {"target": 50}),
        ("one-hundred-and-four", 5, {}),
        ("fifty-six", 4, {"tables_per_team": 1}),
    ],
)
def test_every_game_played_to_its_end_replay_and_history(slug, players, options):
    """A game its players hand to bots plays itself to the end: the table at the end, the
    replay at its deal, its tricks and its hands from a seat and as a spectator (every phase
    of the game drawn), the past games, the player page and the lobby."""
    people = [make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")[:players]]
    game = start_table(people, kind=slug, options=options, name="Table")
    for person in people:
        seats.automate(game_id=game.pk, user=person)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    alices = in_pseudo(logged_in_client(people[0]))
    allowed = ("Erin", "erin", *bot_names(game))
    check(alices, reverse("table", args=[game.pk]), allowed=allowed)
    line = timeline(game)
    replay = reverse("replay", args=[game.pk])
    for at in sorted({0, 1, line.last // 2, line.last, *line.chapters[:4], *line.hands[:2]}):
        for seat in (0, "spectator"):
            check(alices, f"{replay}?at={at}&seat={seat}", allowed=allowed)
    check(alices, reverse("past-games"), allowed=allowed)
    check(alices, reverse("player", args=[people[1].username]), allowed=allowed)
    check(alices, reverse("lobby"), allowed=allowed)


def test_a_finished_games_analysis_on_its_replay(settings):
    """The analysis part of a replay: offered, waiting, then done (a marked move's grade,
    the marks and the summary), each in the pseudo-locale; and the past games' row and the
    player page's accuracy."""
    from games.models import GameAnalysis
    from games.services import analysis

    settings.ANALYSIS_BUDGET = 1
    alice, bob = make_user("alice"), make_user("bob")
    game = start_table([alice, bob], options={"target": 30}, name="Table")
    play_to_the_end(game, [alice, bob], moves=12, seed=4)
    for person in (alice, bob):
        seats.automate(game_id=game.pk, user=person)
    game.refresh_from_db()
    alices = in_pseudo(logged_in_client(alice))
    allowed = bot_names(game)
    replay = reverse("replay", args=[game.pk])
    check(alices, replay, allowed=allowed)  # "Analyse this game"
    analysis.request(game_id=game.pk, user=alice)
    check(alices, replay, allowed=allowed)  # waiting
    check(alices, reverse("analysis-progress", args=[game.pk]), allowed=allowed)
    check(alices, reverse("past-games"), allowed=allowed)  # the row's "Analysis waiting"
    GameAnalysis.objects.update(status=GameAnalysis.Status.RUNNING, total=40, done=8)
    check(alices, replay, allowed=allowed)  # the bar
    check(alices, reverse("past-games"), allowed=allowed)  # "Being analysed"
    GameAnalysis.objects.update(status=GameAnalysis.Status.QUEUED)
    while analysis.run_next():
        pass
    result = GameAnalysis.objects.get().result
    assert result is not None
    marked = [d for d in result["decisions"] if d["mark"]][:2]
    assert marked
    for d in marked:
        check(alices, f"{replay}?at={d['step']}&seat={d['seat']}", allowed=allowed)
    # Outside the replay: the row's "Analysed", the player page's accuracy (docs/analysis.md).
    check(alices, reverse("past-games"), allowed=allowed)
    check(alices, reverse("player", args=["alice"]), allowed=allowed)
