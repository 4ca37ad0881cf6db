"""Friend and block buttons: each a POST (CSRF-checked) naming the other person by
username, answered with a redirect back to the page it came from and a message, or with
the refusal's sentence and its 4xx status. Signed-in users only."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from allauth.core import ratelimit
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts import blocking, friends
from accounts.friends import FriendRefused
from accounts.http import AuthedRequest
from accounts.models import User

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


class PersonForm(forms.Form):
    username = forms.CharField(
        max_length=150, error_messages={"required": gettext_lazy("Say who.")}
    )
    next = forms.CharField(max_length=500, required=False)


def refused(request: AuthedRequest, message: str, status: int) -> HttpResponse:
    """A refusal: its sentence on a page of its own (or alone, for htmx), with its status."""
    if request.htmx:
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    context = {"message": message, "back": _back(request, "")}
    return render(request, "accounts/refused.html", context, status=status)


def _back(request: AuthedRequest, username: str) -> str:
    """Where to go after a button: the `next` it carries when it is a page of this site,
    else the other person's page (or the lobby)."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("player", args=[username]) if username else reverse("lobby")


def _act(request: AuthedRequest, action: Callable[[str], str]) -> HttpResponse:
    form = PersonForm(request.POST)
    if not form.is_valid():
        return refused(request, _("Say who: a username is missing or too long."), 400)
    username = form.cleaned_data["username"]
    try:
        done = action(username)
    except FriendRefused as refusal:
        return refused(request, refusal.message, refusal.status)
    messages.success(request, done)
    return redirect(_back(request, username))


@require_POST
@login_required
def send_request(request: AuthedRequest) -> HttpResponse:
    # Per user (ACCOUNT_RATE_LIMITS["friend_request"]): asking strangers again and again.
    if not ratelimit.consume(request, action="friend_request"):
        return refused(request, _("You sent many friend requests lately. Try again later."), 429)

    def send(username: str) -> str:
        other = friends.person(username)
        outcome = friends.send_request(by=request.user, username=username)
        if outcome == "friends":
            return _("You and %(name)s are friends now.") % {"name": other.shown_name}
        return _("Friend request sent to %(name)s.") % {"name": other.shown_name}

    return _act(request, send)


def _on_request(
    action: Callable[..., User], said: StrPromise
) -> Callable[[HttpRequest], HttpResponse]:
    """A view that calls `action(by=, username=)` on the posted name and says `said` (with
    `%(name)s`, the other person's shown name); refusals as `_act` answers them."""

    @require_POST
    @login_required
    def view(request: AuthedRequest) -> HttpResponse:
        def act(username: str) -> str:
            other = action(by=request.user, username=username)
            return said % {"name": other.shown_name}

        return _act(request, act)

    return view  # type: ignore[return-value]


accept_request = _on_request(
    friends.accept_request, gettext_lazy("You and %(name)s are friends now.")
)
decline_request = _on_request(
    friends.decline_request, gettext_lazy("You declined %(name)s's friend request.")
)
cancel_request = _on_request(
    friends.cancel_request, gettext_lazy("Your friend request to %(name)s is cancelled.")
)
remove_friend = _on_request(
    friends.remove_friend, gettext_lazy("You and %(name)s are no longer friends.")
)


@require_POST
@login_required
def block(request: AuthedRequest) -> HttpResponse:
    def do_block(username: str) -> str:
        other = friends.person(username)
        if other.pk == request.user.pk:
            raise FriendRefused(_("You cannot block yourself."), status=400)
        blocking.block(by=request.user, other=other)
        return _("You blocked %(name)s. They are not told.") % {"name": other.shown_name}

    return _act(request, do_block)


@require_POST
@login_required
def unblock(request: AuthedRequest) -> HttpResponse:
    def do_unblock(username: str) -> str:
        other = friends.person(username)
        if not blocking.unblock(by=request.user, other=other):
            raise FriendRefused(_("You have not blocked %(name)s.") % {"name": other.shown_name})
        return _("You unblocked %(name)s.") % {"name": other.shown_name}

    return _act(request, do_unblock)
