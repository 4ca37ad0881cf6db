"""Which language a person reads the site in (docs/languages.md).

A signed-in person's profile language if they chose one; else the language cookie the
chooser sets (Django's LANGUAGE_COOKIE_NAME); else the browser's Accept-Language; else
English. Pages get it from Django's LocaleMiddleware (cookie, Accept-Language) and
`ProfileLanguageMiddleware` (the profile); a websocket decides once, at connect, from its
scope (`scope_language`); a letter is written in its recipient's (`recipient_language`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


def supported(code: object) -> str | None:
    """`code` as one of settings.LANGUAGES ("de-at" gives "de"), or None."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def profile_language(user: object) -> str | None:
    """The language `user` chose on their profile, or None (a visitor, or "follow the
    browser")."""
    if not getattr(user, "is_authenticated", False):
        return None
    return supported(getattr(user, "language", ""))


def recipient_language(user: object) -> str:
    """The language a letter to `user` is written in: theirs, else the site's default (a
    letter sent by the sweep has no browser to ask)."""
    return profile_language(user) or settings.LANGUAGE_CODE


def scope_language(scope: Mapping[str, Any], user: object = None) -> str:
    """A websocket's language, as a page of the same browser gets it: the profile's, else
    the cookie's, else Accept-Language's (Django's own `get_language_from_request` decides
    the last two, on a stand-in request built from the scope's cookies and headers)."""
    chosen = profile_language(user if user is not None else scope.get("user"))
    if chosen:
        return chosen
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


class ProfileLanguageMiddleware:
    """After AuthenticationMiddleware (and LocaleMiddleware): a signed-in person's profile
    language beats the cookie and the browser (Django's documented way: activate it and set
    request.LANGUAGE_CODE). Reads request.user, which every page loads anyway."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = profile_language(getattr(request, "user", None))
        if chosen:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)
