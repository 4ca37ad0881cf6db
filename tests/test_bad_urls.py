"""Bad characters in a URL get a clean 4xx, never a server error, on SQLite and PostgreSQL
(the CI's second run sets DATABASE_URL): PostgreSQL refuses a NUL character in a query
outright, so a string taken from the path must never reach a query unchecked.

- The one string parameter of our own URLs, an invite link's token, is matched by a converter
  of its own alphabet: test_a_bad_invite_token_never_reaches_the_view,
  test_an_invite_link_with_a_bad_token_is_a_404.
- Every route of the site (ours, allauth's, the admin's), each parameter given NUL bytes,
  numbers out of any column's range, other scripts and very long values, by a visitor, a
  player and a staff member, by GET and POST: test_no_url_parameter_gives_a_server_error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from games.models import Invitation, new_token
from tests.conftest import make_user
from tests.games.conftest import start_table

BAD_TOKENS = ["\x00", "a\x00b", "tok en", "ét\u00e9", "x" * 65, "a.b", "%00", "<script>"]
BAD_VALUES = ["%00", "a%00b", "99999999999999999999999", "-1", "%C3%A9t%C3%A9", "%FF", "x" * 300]


def test_a_bad_invite_token_never_reaches_the_view():
    assert resolve(f"/invite/{new_token()}/").url_name == "invite-link-landing"
    for token in BAD_TOKENS:
        with pytest.raises(Resolver404):
            resolve(f"/invite/{token}/")


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("token", ["%00", "a%00b", "%C3%A9t%C3%A9", "x" * 65, "a.b", "%FF"])
def test_an_invite_link_with_a_bad_token_is_a_404(alice, signed_in, token):
    client = Client()
    if signed_in:
        client.force_login(alice)
    assert client.get(f"/invite/{token}/").status_code == 404


@pytest.mark.django_db
def test_a_real_invite_token_still_works(alice, bob):
    from games.services import lobby

    game = lobby.create_game(organizer=alice, name="Links", public=False, max_players=2)
    link = lobby.create_invite_link(game_id=game.pk, by=alice)
    client = Client()
    client.force_login(bob)
    response = client.get(f"/invite/{link.token}/")
    assert response.status_code == 302
    assert Invitation.objects.get(pk=link.pk).invitee == bob


def routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    """Every route of the site as one regular expression each (includes flattened)."""
    for entry in patterns:
        regex = entry.pattern.regex.pattern.lstrip("^").removesuffix("$").removesuffix(r"\Z")
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + regex)
        else:
            yield prefix + regex


def with_value(route: str, value: str) -> str | None:
    """The path of `route` with every parameter set to `value` (None: no parameters)."""
    path, count = re.subn(r"\(\?P<\w+>[^()]*\)", lambda _: value, route)
    return "/" + re.sub(r"\\(.)", r"\1", path) if count else None  # "invite\-link/"


def test_every_parameterised_route_is_probed():
    paths = {with_value(route, "X") for route in routes(get_resolver().url_patterns)}
    assert "/invite/X/" in paths
    assert "/games/X/table/" in paths
    assert "/accounts/password/reset/key/X-X/" in paths


@pytest.mark.django_db
def test_no_url_parameter_gives_a_server_error(alice, bob):
    from accounts.models import User

    start_table([alice, bob])  # so that real ids lead somewhere too
    staff = User.objects.create_superuser("root", "root@example.com", "root-password-123")
    clients = [Client(raise_request_exception=False) for _ in range(3)]
    clients[1].force_login(alice)
    clients[2].force_login(staff)
    make_user("eve")
    failures = []
    for route in routes(get_resolver().url_patterns):
        for value in BAD_VALUES:
            path = with_value(route, value)
            if path is None:
                continue
            for client in clients:
                for method in (client.get, client.post):
                    status = method(path).status_code
                    if status >= 500:
                        failures.append((method.__name__, path, status))
    assert failures == []
