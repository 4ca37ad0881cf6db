"""CSRF tokens are Django's own, on pages and in pushed partials alike (the socket's stand-in
request reads the browser's cookie through Django's CSRF middleware)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.middleware import csrf as django_csrf
from django.test import Client

from games.consumers.pool import render_request


def token_in(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match
    return match.group(1)


def test_a_pages_form_token_passes_djangos_check(alice: Any):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    token = token_in(client.get("/").content.decode())
    forged = token[:-1] + ("a" if token[-1] != "a" else "b")
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": forged}).status_code == 403
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert "_auth_user_id" not in client.session


def test_a_sockets_token_masks_the_browsers_secret(alice: Any):
    client = Client()
    client.force_login(alice)
    client.get("/")
    secret = client.cookies[settings.CSRF_COOKIE_NAME].value
    scope = {"path": "/ws/user/", "cookies": {settings.CSRF_COOKIE_NAME: secret}, "headers": []}
    request = render_request(scope, alice)
    token = request.META["RENDER_CSRF_TOKEN"]
    assert django_csrf._unmask_cipher_token(token) == secret  # type: ignore[attr-defined]


@pytest.mark.parametrize("cookie", ["", "short", "!" * 32, "a" * 33])
def test_a_malformed_cookie_gets_a_fresh_secret_not_an_error(alice: Any, cookie: str):
    scope = {"path": "/ws/user/", "cookies": {settings.CSRF_COOKIE_NAME: cookie}, "headers": []}
    request = render_request(scope, alice)
    token = request.META["RENDER_CSRF_TOKEN"]
    assert len(token) == django_csrf.CSRF_TOKEN_LENGTH
    assert django_csrf._unmask_cipher_token(token) != cookie  # type: ignore[attr-defined]
