"""CSRF tokens masked with one read of the system's randomness instead of thirty-two.

Django masks the CSRF secret anew for every response (against BREACH) with a mask drawn by
`get_random_string`: one read of the system's randomness per character, 32 or more per token,
and each read lets go of the GIL. In a busy server another thread takes the GIL at every
release, and the request's thread may wait up to a switch interval (5 ms) to get it back: with
one other thread busy, Django's token took 5-10 ms at the median and 20-26 ms at p99, ours
0.008 ms and 0.04-5 ms (`bench/csrf_token.py`). Here the mask comes from one read; the token
has Django's format and Django's middleware checks it as before.

Written against Django 5.2.19, whose internals this mirrors (tests/fences/
fails when an upgrade changes any of them): the token format of
django.middleware.csrf._mask_cipher_secret (read back by _unmask_cipher_token), from that
module's undocumented CSRF_ALLOWED_CHARS and CSRF_SECRET_LENGTH; `get_token` mirrors
django.middleware.csrf.get_token and its META keys "CSRF_COOKIE" and "CSRF_COOKIE_NEEDS_UPDATE"
(set by CsrfViewMiddleware.process_request and _add_new_csrf_cookie); `well_formed` accepts
the unmasked secrets CsrfViewMiddleware._get_secret keeps (_check_token_format). The context
processor wins because Django runs its built-in csrf processor
(django.template.context._builtin_context_processors) before the configured ones
(Engine.template_context_processors, RequestContext.bind_template).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.http import HttpRequest
from django.middleware import csrf as django_csrf
from django.utils.functional import SimpleLazyObject

_CHARS = django_csrf.CSRF_ALLOWED_CHARS
_LENGTH = django_csrf.CSRF_SECRET_LENGTH
# Bytes from here up are skipped: 256 is not a multiple of len(_CHARS), and taking them modulo
# would make some characters likelier than others.
_UNBIASED = 256 - 256 % len(_CHARS)


def _mask() -> list[int]:
    """`_LENGTH` uniformly random indexes into `_CHARS`, from one read (twice the bytes
    needed, so a second read is astronomically rare)."""
    picked: list[int] = []
    while len(picked) < _LENGTH:
        raw = secrets.token_bytes(2 * _LENGTH)
        picked += [byte % len(_CHARS) for byte in raw if byte < _UNBIASED]
    return picked[:_LENGTH]


def well_formed(secret: str) -> bool:
    """Whether a CSRF cookie's value can be a secret (Django's middleware replaces any other;
    a socket's cookies meet no middleware)."""
    return len(secret) == _LENGTH and all(char in _CHARS for char in secret)


def get_token(request: HttpRequest) -> str:
    """`django.middleware.csrf.get_token`: this request's secret, freshly masked."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None:  # no cookie yet: Django makes the secret and sends the cookie
        return django_csrf.get_token(request)
    # As Django does: the cookie is in use, so the response renews it.
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = _mask()
    cipher = (
        _CHARS[(_CHARS.index(char) + offset) % len(_CHARS)]
        for char, offset in zip(secret, mask, strict=True)
    )
    return "".join(_CHARS[offset] for offset in mask) + "".join(cipher)


def context_processor(request: HttpRequest) -> dict[str, Any]:
    """`csrf_token` for templates. Listed in the settings after Django's built-in `csrf`
    processor, so this one's value is the one templates see."""
    return {"csrf_token": SimpleLazyObject(lambda: get_token(request))}
