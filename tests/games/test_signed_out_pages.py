"""A page left open while its session changes in another tab (accounts/signed_out.py): an htmx
request from a signed-out browser is sent to the sign-in page as a whole (HX-Redirect, with
`next` the page it came from), never answered with a page to swap into a fragment; a stale
CSRF token gets a reload (htmx) or the site's translated 403 page; nothing changes in the
game either way."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameAction, Membership
from tests.conftest import HX, logged_in_client
from tests.games.conftest import seat_game

pytestmark = pytest.mark.django_db


def started(alice: Any, bob: Any) -> Any:
    game = seat_game([alice, bob], bots=2)
    logged_in_client(alice).post(reverse("start", kwargs={"game_id": game.pk}), headers=HX)
    game.refresh_from_db()
    assert game.status == game.Status.ACTIVE
    return game


def from_page(path: str, host: str = "testserver") -> dict[str, str]:
    """htmx's headers for a request sent from the page at `path`."""
    return {**HX, "HX-Current-URL": f"http://{host}{path}"}


def sign_in_next(response: Any) -> str | None:
    """The `next` of the sign-in page an HX-Redirect answer sends the page to."""
    assert response.status_code == 200, response.status_code
    assert "Location" not in response
    target = urlsplit(response["HX-Redirect"])
    assert target.path == reverse("account_login")
    values = parse_qs(target.query).get("next")
    return values[0] if values else None


def snapshot(game: Any) -> tuple[int, int, int]:
    game.refresh_from_db()
    return (
        game.version,
        GameAction.objects.filter(game=game).count(),
        Membership.objects.filter(game=game).count(),
    )


def test_signed_out_moves_and_undo_send_the_page_to_sign_in_and_back(alice: Any, bob: Any):
    game = started(alice, bob)
    table = reverse("table", kwargs={"game_id": game.pk})
    before = snapshot(game)
    client = Client()  # signed out (in another tab)
    for name in ("move", "undo"):
        url = reverse(name, kwargs={"game_id": game.pk})
        response = client.post(url, {"version": game.version}, headers=from_page(table))
        assert sign_in_next(response) == table
    assert snapshot(game) == before


def test_a_signed_out_waiting_room_action_goes_back_to_the_waiting_room(alice: Any, bob: Any):
    game = seat_game([alice, bob])  # waiting
    room = reverse("waiting-room", kwargs={"game_id": game.pk})
    before = snapshot(game)
    response = Client().post(
        reverse("add-bot", kwargs={"game_id": game.pk}),
        {"seat": 1, "level": "naive"},
        headers=from_page(f"{room}?tab=seats"),
    )
    assert sign_in_next(response) == f"{room}?tab=seats"
    assert snapshot(game) == before


def test_without_htmx_the_usual_redirect_stays(alice: Any, bob: Any):
    game = started(alice, bob)
    url = reverse("move", kwargs={"game_id": game.pk})
    response = Client().post(url, {"version": game.version})
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={url}"
    assert "HX-Redirect" not in response


@pytest.mark.parametrize(
    "current",
    [
        "https://evil.example/games/1/table/",
        "http://testserver.evil.example/",
        "//evil.example/x",
        "not a url",
        "",
    ],
)
def test_a_page_on_another_site_is_never_the_next(alice: Any, bob: Any, current: str):
    game = started(alice, bob)
    response = Client().post(
        reverse("move", kwargs={"game_id": game.pk}),
        {"version": game.version},
        headers={**HX, "HX-Current-URL": current},
    )
    assert sign_in_next(response) is None


def test_an_htmx_request_from_the_sign_in_page_does_not_come_back_to_it(alice: Any, bob: Any):
    game = started(alice, bob)
    response = Client().post(
        reverse("move", kwargs={"game_id": game.pk}),
        {"version": game.version},
        headers=from_page(reverse("account_login")),
    )
    assert sign_in_next(response) is None


def test_other_redirects_of_htmx_requests_are_left_alone(alice: Any, bob: Any):
    game = started(alice, bob)
    client = logged_in_client(alice)
    # A signed-in GET of the waiting room of a started game redirects to its table.
    response = client.get(reverse("waiting-room", kwargs={"game_id": game.pk}), headers=HX)
    assert response.status_code == 302
    assert "HX-Redirect" not in response


def csrf_client(user: Any) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # the CSRF cookie; the page's token is then from another session
    return client


STALE = {"X-CSRFToken": "a" * 64}


def test_a_stale_token_on_an_htmx_move_reloads_the_page_with_a_message(alice: Any, bob: Any):
    game = started(alice, bob)
    table = reverse("table", kwargs={"game_id": game.pk})
    before = snapshot(game)
    client = csrf_client(alice)
    response = client.post(
        reverse("move", kwargs={"game_id": game.pk}),
        {"version": game.version},
        headers={**from_page(table), **STALE},
    )
    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"
    assert not response.content
    assert snapshot(game) == before
    reloaded = client.get(table).content.decode()
    assert "Your session changed in another tab" in reloaded


def test_a_stale_token_on_a_plain_form_gets_the_translated_403_page(alice: Any, bob: Any):
    game = started(alice, bob)
    before = snapshot(game)
    client = csrf_client(alice)
    url = reverse("move", kwargs={"game_id": game.pk})
    response = client.post(url, {"version": game.version, "csrfmiddlewaretoken": "b" * 64})
    assert response.status_code == 403
    page = response.content.decode()
    assert "Page out of date" in page
    assert 'class="site-header"' in page
    assert "CSRF verification failed" not in page
    assert snapshot(game) == before
    german = client.post(
        url, {"version": game.version}, headers={"Accept-Language": "de"}
    ).content.decode()
    assert 'lang="de"' in german
    assert "Page out of date" not in german


def test_a_get_on_a_post_only_url_is_a_page_not_a_blank(alice: Any, bob: Any):
    game = started(alice, bob)
    response = logged_in_client(alice).get(reverse("move", kwargs={"game_id": game.pk}))
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    page = response.content.decode()
    assert "Nothing to see here" in page
    assert 'class="site-header"' in page
