"""Email, the web side: ask an away player back to the table, and unsubscribe links.

The unsubscribe link in every letter (games/mail/) needs no sign-in: its signed token
names the user. Following it (GET) turns every kind of letter off at once and says so, with
a button to turn them back on. Mail programs that offer their own "Unsubscribe" button post
`List-Unsubscribe=One-Click` to the same address (RFC 8058), without a CSRF token: that view
alone is exempt, as the unguessable token is the proof. Bad tokens get a 400 page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.http import AuthedRequest
from games import mail


@require_POST
@login_required
def come_back(request: AuthedRequest, game_id: int, seat: int) -> HttpResponse:
    """A player asks the away human in `seat` to come back: an email, at most one an hour.

    htmx gets a one-line status fragment (4xx with the reason when refused); a plain form
    post gets the message on the table page."""
    status = 200
    try:
        member = mail.ask_to_come_back(game_id=game_id, by=request.user, seat=seat)
    except Http404:
        text, status = "That game is not available.", 404
    except mail.ComeBackRefused as refusal:
        text, status = refusal.message, refusal.status
    else:
        text = f"We'll email {member.name} to ask them back (unless they turned such emails off)."
    if not request.htmx:
        if status == 404:
            raise Http404(text)
        (messages.success if status == 200 else messages.error)(request, text)
        return redirect("table", game_id=game_id)
    css = "message" if status == 200 else "message message-error"
    return HttpResponse(format_html('<p class="{}" role="status">{}</p>', css, text), status=status)


def _bad_link(request: HttpRequest) -> HttpResponse:
    return render(request, "mail/unsubscribe.html", {"bad_link": True}, status=400)


def _choices_page(request: HttpRequest, token: str, *, on: bool) -> HttpResponse:
    user_id = mail.user_id_of(token)
    if user_id is None:
        return _bad_link(request)
    if not mail.set_all_preferences(user_id, on=on):  # the account is gone
        return render(request, "mail/unsubscribe.html", {"gone": True}, status=404)
    return render(request, "mail/unsubscribe.html", {"token": token, "on": on})


@csrf_exempt  # mail programs post the one-click unsubscribe with no token (RFC 8058)
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Turn every email off for the user the token names (GET, or the one-click POST)."""
    if request.method == "POST" and request.POST.get("List-Unsubscribe") != "One-Click":
        return _bad_link(request)
    return _choices_page(request, token, on=False)


@never_cache
@require_POST
def resubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The unsubscribe page's "Turn emails back on" button: every kind on again."""
    return _choices_page(request, token, on=True)
