"""Email, the web side: ask an away player back to the table, and unsubscribe links.

The unsubscribe link in every letter (games/mail/) needs no sign-in: its random token
(games/mail/unsubscribing.py) stands for a member or an invited address. Following it (GET)
changes nothing, as mail providers' link scanners fetch every link: it shows a page whose
button posts `List-Unsubscribe=One-Click` back to the same address, which is also what mail
programs with their own "Unsubscribe" button post (RFC 8058). That POST turns every kind of
letter off (an address: every invitation), twice the same as once, and needs no CSRF token
(mail programs have none; the unguessable token is the proof). The page after it has a
button to turn them back on. Bad tokens get a 400 page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.utils.translation import gettext as _
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
        text, status = _("That game is not available."), 404
    except mail.ComeBackRefused as refusal:
        text, status = refusal.message, refusal.status
    else:
        text = _("We'll email %(name)s to ask them back (unless they turned such emails off).") % {
            "name": member.name
        }
    if not request.htmx:
        if status == 404:
            raise Http404(text)
        (messages.success if status == 200 else messages.error)(request, text)
        return redirect("table", game_id=game_id)
    css = "message" if status == 200 else "message message-error"
    return HttpResponse(format_html('<p class="{}" role="status">{}</p>', css, text), status=status)


def _bad_link(request: HttpRequest) -> HttpResponse:
    return render(request, "mail/unsubscribe.html", {"bad_link": True}, status=400)


def _page(request: HttpRequest, token: str, *, step: str) -> HttpResponse:
    """The unsubscribe page for `token` at `step`: "confirm" (nothing changed yet), "off"
    or "on" (after changing it)."""
    subscriber = mail.subscriber_of(token)
    if subscriber is None:
        return _bad_link(request)
    if subscriber.gone:
        return render(request, "mail/unsubscribe.html", {"gone": True}, status=404)
    if step != "confirm":
        mail.set_subscribed(subscriber, on=step == "on")
    context = {"token": token, "step": step, "address": subscriber.address_id is not None}
    return render(request, "mail/unsubscribe.html", context)


@csrf_exempt  # mail programs post the one-click unsubscribe with no token (RFC 8058)
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the page with the button; POST `List-Unsubscribe=One-Click`: letters off."""
    if request.method == "GET":
        return _page(request, token, step="confirm")
    if request.POST.get("List-Unsubscribe") != "One-Click":
        return _bad_link(request)
    return _page(request, token, step="off")


@never_cache
@require_POST
def resubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The unsubscribe page's "Turn emails back on" button: every kind on again."""
    return _page(request, token, step="on")
