"""What an htmx request gets when the browser's session changed under an open page (signed
out, or out and in again, in another tab): the whole page goes on its way, never a page
swapped into a fragment (docs/features.md, Accounts).

- `login_required` redirects a signed-out request to the sign-in page. The browser's XHR
  would follow that redirect and htmx swap the sign-in page into the table's column, so
  `HtmxSignInMiddleware` turns such a redirect of an htmx request into an `HX-Redirect` to
  the sign-in page whose `next` is the page the person is on (`HX-Current-URL`, if it is a
  path of this site), not the post's own URL: signed in again, they are back at the table.
  One place for every view, whichever decorator or mixin asked for the sign-in.
- A failed CSRF check (`csrf_failure`, settings.CSRF_FAILURE_VIEW) happens when the page's
  token belongs to a session that is gone (signed out and in again elsewhere). An htmx
  request gets `HX-Refresh`: the page reloads with the new session's token and says why (a
  message), so the next click works. Any other request gets the site's translated 403 page.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh
from django_htmx.middleware import HtmxDetails


def _sign_in_path() -> str:
    return urlsplit(resolve_url(settings.LOGIN_URL)).path


def current_page(request: HttpRequest) -> str | None:
    """The path (and query) of the page an htmx request came from, if it is on this site;
    else None. django-htmx's `current_url_abs_path` is None for another host already; the
    check below refuses what `next` should never hold all the same (//evil, \\evil)."""
    htmx: HtmxDetails | None = getattr(request, "htmx", None)
    path = htmx.current_url_abs_path if htmx else None
    if not path or not url_has_allowed_host_and_scheme(
        path, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    if urlsplit(path).path == _sign_in_path():
        return None  # already on the sign-in page: no `next` that leads back to it
    return path


class HtmxSignInMiddleware:
    """An htmx request that was redirected to the sign-in page gets an `HX-Redirect` there
    instead, with `next` the page the person is on; a GET on a post-only URL gets a page.
    After HtmxMiddleware (request.htmx)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 405:
            return self.not_allowed(request, response)
        if not getattr(request, "htmx", False) or response.status_code not in (301, 302):
            return response
        location = response.get("Location", "")
        if urlsplit(location).path != _sign_in_path():
            return response
        page = current_page(request)
        if page is None:
            # No page to come back to: the sign-in page, and the lobby after it.
            return HttpResponseClientRedirect(_sign_in_path())
        sign_in = redirect_to_login(page, settings.LOGIN_URL, REDIRECT_FIELD_NAME)
        return HttpResponseClientRedirect(sign_in["Location"])

    @staticmethod
    def not_allowed(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """A page opened at a post-only URL (`require_POST`'s empty 405: a link followed, an
        address typed or restored) says so in the site's layout, not with a blank page."""
        if request.method != "GET" or getattr(request, "htmx", False):
            return response
        if response.streaming or response.content:
            return response
        page = render(request, "405.html", status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: never Django's English page with its DEBUG details."""
    if getattr(request, "htmx", False):
        messages.warning(
            request,
            _(
                "Your session changed in another tab (signed out or in), so this page was "
                "reloaded. Please try again."
            ),
            fail_silently=True,
        )
        return HttpResponseClientRefresh()
    return render(request, "403_csrf.html", status=403)
