"""Table talk over HTTP (games/talk/views.py): what each persona's pages show, escaping,
the rate limit, and every malformed request answered with a clear 4xx that changes nothing.

alice organizes (seat 0), bob plays (seat 1), carol is an unseated invitee, dave an
outsider (a spectator of the public game).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import ChatMessage, ChatMute, Game
from tests.conftest import HX, logged_in_client
from tests.talk.conftest import bid

pytestmark = pytest.mark.django_db


def post(person, game, what="say", **data):
    return logged_in_client(person).post(reverse(f"talk-{what}", args=[game.pk]), data, headers=HX)


def table_page(user, game):
    return logged_in_client(user).get(reverse("table", args=[game.pk])).content.decode()


def test_a_message_is_stored_and_shown_on_every_members_table(duel, alice, bob, carol):
    response = post(alice, duel, text="Good luck, all")
    assert response.status_code == 200
    assert ChatMessage.objects.get().text == "Good luck, all"
    for user in (alice, bob, carol):
        assert "Good luck, all" in table_page(user, duel)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("<script>alert(1)</script>", "<script>alert(1)"),
        ("<b onmouseover=alert(1)>hi</b>", "<b onmouseover"),
        ('" autofocus onfocus="alert(1)', '" autofocus onfocus="'),
        ("javascript:alert(1)", 'href="javascript:'),
        ("data:text/html;base64,PHNjcmlwdD4=", 'href="data:'),
        ("see https://evil.example/x", 'href="https://evil.example'),
    ],
)
def test_user_text_is_escaped_and_links_stay_text(open_duel, alice, dave, text, unwanted):
    assert post(dave, open_duel, text=text).status_code == 200
    page = table_page(dave, open_duel)
    assert unwanted not in page
    assert "evil.example" not in page or "<a " not in page.split("evil.example")[0][-200:]


def test_escaping_keeps_the_words(duel, alice):
    post(alice, duel, text="<script>x</script>")
    assert "&lt;script&gt;x&lt;/script&gt;" in table_page(alice, duel)


def test_the_spectators_channel_is_not_on_a_players_page_during_play(open_duel, alice, dave):
    post(dave, open_duel, text="psst, bid high")
    assert "psst, bid high" not in table_page(alice, open_duel)
    assert "psst, bid high" in table_page(dave, open_duel)
    Game.objects.filter(pk=open_duel.pk).update(status=Game.Status.FINISHED)
    assert "psst, bid high" in table_page(alice, open_duel)


def test_an_outsider_gets_404_and_nothing_changes(duel, dave):
    for what, data in (
        ("say", {"text": "hi"}),
        ("react", {"code": "nice"}),
        ("mode", {"mode": "off"}),
    ):
        assert post(dave, duel, what, **data).status_code == 404
    assert logged_in_client(dave).get(reverse("talk-log", args=[duel.pk])).status_code == 404
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(
    ("what", "data"),
    [
        ("say", {}),
        ("say", {"text": ""}),
        ("say", {"text": "x" * 5000}),
        ("say", {"text": "a\x00b"}),
        ("react", {}),
        ("react", {"code": "no-such-reaction"}),
        ("mute", {}),
        ("mute", {"user": "abc"}),
        ("mode", {}),
        ("mode", {"mode": "loud"}),
    ],
)
def test_an_outsider_gets_404_before_the_body_is_read(duel, dave, what, data):
    """A private game's outsider learns nothing from a malformed body: 404, not the 400 a
    member would get (which would tell that the game exists)."""
    assert post(dave, duel, what, **data).status_code == 404
    assert not ChatMessage.objects.exists()
    assert not ChatMute.objects.exists()


def test_a_rated_hand_refuses_chat_and_says_so(duel, alice, bob):
    assert "reactions only while a hand is played" in table_page(alice, duel)
    bid(duel, bob)
    response = post(alice, duel, text="nice bid")
    assert response.status_code == 403
    assert "rated game" in response.content.decode()
    assert post(alice, duel, "react", code="nice").status_code == 200


def test_the_rate_limit_answers_429_with_a_clear_message(duel, alice):
    answers = [post(alice, duel, text=f"message {n}").status_code for n in range(9)]
    assert answers == [200] * 8 + [429]
    response = post(alice, duel, "react", code="oops")
    assert response.status_code == 429
    assert "wait a few seconds" in response.content.decode()
    assert ChatMessage.objects.count() == 8


def test_the_organizer_sets_reactions_only_from_the_panel(duel, alice, bob):
    response = post(alice, duel, "mode", mode="reactions")
    assert response.status_code == 200
    assert 'id="chat-text"' not in response.content.decode()
    assert post(bob, duel, text="hi").status_code == 403
    assert post(bob, duel, "mode", mode="on").status_code == 403
    assert Game.objects.get(pk=duel.pk).talk_mode == "reactions"


def test_a_mute_from_the_log(duel, alice, bob):
    post(bob, duel, text="blah blah")
    response = post(alice, duel, "mute", user=str(bob.pk))
    assert response.status_code == 200
    assert "blah blah" not in response.content.decode()
    assert "Unmute Bob" in response.content.decode()
    assert ChatMute.objects.filter(user=alice, muted=bob).exists()
    assert "blah blah" not in table_page(alice, duel)
    assert "blah blah" in table_page(bob, duel)


def test_the_replay_shows_what_was_said_at_its_place(open_duel, alice, bob):
    post(alice, open_duel, text="before any move")
    bid(open_duel, bob)
    post(alice, open_duel, text="after the first bid")
    url = reverse("replay", args=[open_duel.pk])
    client = logged_in_client(alice)
    at_start = client.get(url, {"at": 0}).content.decode()
    assert "before any move" in at_start
    assert "after the first bid" not in at_start
    assert "after the first bid" in client.get(url, {"at": 1}).content.decode()


def test_the_waiting_room_has_the_chat(alice, bob):
    from games.services import lobby

    game = lobby.create_game(organizer=alice, name="Soon", public=False, max_players=4)
    assert post(alice, game, text="who else is coming?").status_code == 200
    page = logged_in_client(alice).get(reverse("waiting-room", args=[game.pk])).content.decode()
    assert "who else is coming?" in page
    assert 'id="chat-text"' in page


# --- malformed input: a clear 4xx, nothing changes ---------------------------------------------

BAD_TEXTS = [
    ("", 400),
    ("   ", 400),
    ("x" * 301, 400),
    ("nul\x00byte", 400),
    ("bell\x07", 400),
    ("zero\u200bwidth\x1b[31m", 400),
]


@pytest.mark.parametrize(("text", "status"), BAD_TEXTS, ids=range(len(BAD_TEXTS)))
def test_a_bad_message_is_refused(duel, alice, text, status):
    response = post(alice, duel, text=text)
    assert response.status_code == status
    assert 'class="chat-answer message message-error"' in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_invalid_utf8_is_refused(duel, alice):
    client = logged_in_client(alice)
    response = client.post(
        reverse("talk-say", args=[duel.pk]),
        b"text=%ff%fe%fd",
        content_type="application/x-www-form-urlencoded",
        headers=HX,
    )
    assert response.status_code == 400
    assert not ChatMessage.objects.exists()


def test_a_huge_body_is_refused(duel, alice, settings):
    client = logged_in_client(alice)
    body = "text=" + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440) + "x"
    response = client.post(
        reverse("talk-say", args=[duel.pk]),
        body,
        content_type="application/x-www-form-urlencoded",
        headers=HX,
    )
    assert response.status_code == 400
    assert not ChatMessage.objects.exists()


def test_no_text_field_is_refused(duel, alice):
    assert post(alice, duel).status_code == 400


@pytest.mark.parametrize("code", ["", "nicee", "NICE", "nice\x00", "../", "x" * 5000])
def test_an_unknown_reaction_is_refused(duel, alice, code):
    assert post(alice, duel, "react", code=code).status_code == 400
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("what", ["say", "react", "mute", "mode"])
def test_a_get_is_405(duel, alice, what):
    response = logged_in_client(alice).get(reverse(f"talk-{what}", args=[duel.pk]))
    assert response.status_code == 405


def test_a_game_that_does_not_exist_is_404(alice):
    response = logged_in_client(alice).post("/games/987654/talk/say/", {"text": "hi"})
    assert response.status_code == 404


@pytest.mark.parametrize("user", ["", "abc", "-1", "１２", "9" * 30, "\x00"])
def test_a_mute_of_nobody_is_refused(duel, alice, user):
    response = post(alice, duel, "mute", user=user)
    assert response.status_code in (400, 404)
    assert not ChatMute.objects.exists()


@pytest.mark.parametrize("mode", ["", "loud", "on\x00", "x" * 500])
def test_an_unknown_mode_is_refused(duel, alice, mode):
    assert post(alice, duel, "mode", mode=mode).status_code == 400
    assert Game.objects.get(pk=duel.pk).talk_mode == "on"


def test_a_plain_form_post_goes_back_to_the_table(duel, alice):
    response = logged_in_client(alice).post(reverse("talk-say", args=[duel.pk]), {"text": "hi"})
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[duel.pk])
