"""CSRF tokens masked with one read of randomness (hundredten/csrf.py), checked by Django."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.http import HttpRequest
from django.middleware import csrf as django_csrf
from django.test import Client

from hundredten import csrf

SECRET = "a" * 16 + "Z9" * 8


def request_with(secret: str) -> HttpRequest:
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = secret
    return request


def test_a_token_is_the_cookie_secret_masked_afresh():
    request = request_with(SECRET)
    tokens = {csrf.get_token(request) for _ in range(20)}
    assert len(tokens) == 20
    for token in tokens:
        assert len(token) == django_csrf.CSRF_TOKEN_LENGTH
        assert set(token) <= set(django_csrf.CSRF_ALLOWED_CHARS)
        assert django_csrf._unmask_cipher_token(token) == SECRET  # type: ignore[attr-defined]
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True


def test_a_token_reads_the_systems_randomness_once(monkeypatch):
    reads: list[int] = []
    real = random._urandom  # type: ignore[attr-defined]

    def counted(size: int) -> bytes:
        reads.append(size)
        return bytes(real(size))

    monkeypatch.setattr(random, "_urandom", counted)
    csrf.get_token(request_with(SECRET))
    assert len(reads) == 1  # Django's own get_token reads once per character (32 or more)


def test_the_mask_is_drawn_from_every_character_alike():
    counts = dict.fromkeys(django_csrf.CSRF_ALLOWED_CHARS, 0)
    for _ in range(2000):
        for char in csrf.get_token(request_with(SECRET))[: django_csrf.CSRF_SECRET_LENGTH]:
            counts[char] += 1
    # 64,000 draws over 62 characters: about 1,032 each; a skew by the modulo (bytes 248-255
    # folded onto the first eight) would give those about 1,290.
    assert max(counts.values()) < 1200
    assert min(counts.values()) > 870


def test_without_a_cookie_django_makes_the_secret():
    request = HttpRequest()
    token = csrf.get_token(request)
    unmasked = django_csrf._unmask_cipher_token(token)  # type: ignore[attr-defined]
    assert unmasked == request.META["CSRF_COOKIE"]


@pytest.mark.parametrize("value", ["", "short", "!" * 32, "a" * 33])
def test_a_malformed_cookie_value_is_no_secret(value: str):
    assert not csrf.well_formed(value)


def test_well_formed_secret():
    assert csrf.well_formed(SECRET)


def token_in(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match
    return match.group(1)


def test_a_pages_form_token_is_ours_and_passes_djangos_check(alice: Any, monkeypatch):
    made: list[str] = []
    ours = csrf.get_token

    def recorded(request: HttpRequest) -> str:
        made.append(ours(request))
        return made[-1]

    monkeypatch.setattr(csrf, "get_token", recorded)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    token = token_in(client.get("/").content.decode())
    assert made == [token]  # one token per page, from hundredten.csrf
    forged = token[:-1] + ("a" if token[-1] != "a" else "b")
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": forged}).status_code == 403
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert "_auth_user_id" not in client.session
