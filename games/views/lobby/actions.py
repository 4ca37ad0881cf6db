"""The buttons of the lobby and the waiting room, each a POST that calls one lobby service
(invitations, links, answers, seats, bots, the start), and following an invite link (a GET
that seats a signed-in visitor)."""

from __future__ import annotations

from urllib.parse import urlencode

from allauth.core import ratelimit
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.http import AuthedRequest
from games import registry
from games.forms import EmailInviteForm, InviteForm, SeatForm, first_error
from games.models import Invitation
from games.services import lobby as services
from games.services import stand_ins
from games.services.lobby import LobbyRefused
from games.views.lobby.responses import _answer, _bad_input, _run


@require_POST
@login_required
def invite(request: AuthedRequest, game_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _bad_input(request, game_id, first_error(form))
    username = form.cleaned_data["username"]
    return _run(
        request,
        game_id,
        lambda: services.invite(game_id=game_id, by=request.user, username=username),
        done=_("Invited %(name)s.") % {"name": username},
    )


@require_POST
@login_required
def invite_link(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.create_invite_link(game_id=game_id, by=request.user),
        done=_("A new invite link is ready: copy it and send it to a friend."),
    )


@require_POST
@login_required
def email_invite_link(request: AuthedRequest, game_id: int) -> HttpResponse:
    form = EmailInviteForm(request.POST)
    if not form.is_valid():
        return _bad_input(request, game_id, first_error(form))
    # Per client address (ACCOUNT_RATE_LIMITS["invite_mail"]): many accounts from one place.
    # allauth's limiter takes the address from the proxy only when BEHIND_PROXY trusts one.
    if not ratelimit.consume(request, action="invite_mail"):
        message = _("Too many invitations were emailed from your network lately. Try again later.")
        return _answer(request, game_id, error=message, status=429)
    email = form.cleaned_data["email"]
    return _run(
        request,
        game_id,
        lambda: services.email_invite_link(game_id=game_id, by=request.user, email=email),
        done=_("An invite link is on its way to %(email)s.") % {"email": email},
    )


@require_POST
@login_required
def revoke_invitation(request: AuthedRequest, game_id: int, invitation_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.revoke_invitation(
            game_id=game_id, by=request.user, invitation_id=invitation_id
        ),
        done=_("The invitation is revoked."),
    )


@require_POST
@login_required
def accept(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.accept(game_id=game_id, user=request.user),
        done=_("You have a seat. The organizer starts the game."),
    )


@require_POST
@login_required
def decline(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.decline(game_id=game_id, user=request.user),
        done=_("You declined the invitation."),
    )


@require_POST
@login_required
def join(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.join(game_id=game_id, user=request.user),
        done=_("You have a seat. The organizer starts the game."),
    )


@require_POST
@login_required
def leave(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.leave(game_id=game_id, user=request.user),
        done=_("You left the game."),
    )


@require_POST
@login_required
def add_bot(request: AuthedRequest, game_id: int) -> HttpResponse:
    form = SeatForm(request.POST)
    if not form.is_valid():
        return _bad_input(request, game_id, first_error(form))
    seat, level = form.cleaned_data["seat"], form.cleaned_data["level"]
    return _run(
        request,
        game_id,
        lambda: services.add_bot(game_id=game_id, by=request.user, seat=seat, level=level),
        done=_("A bot took the seat."),
    )


@require_POST
@login_required
def remove(request: AuthedRequest, game_id: int, membership_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.remove(game_id=game_id, by=request.user, membership_id=membership_id),
        done=_("Removed."),
    )


@require_POST
@login_required
def start(request: AuthedRequest, game_id: int) -> HttpResponse:
    try:
        game = services.start_game(game_id=game_id, by=request.user)
    except LobbyRefused as refusal:
        return _answer(request, game_id, error=refusal.message, status=refusal.status)
    table_url = reverse("table", args=[game.pk])
    if request.htmx:
        return HttpResponseClientRedirect(table_url)
    return HttpResponseRedirect(table_url)


@require_GET
def follow_invite_link(request: AuthedRequest, token: str) -> HttpResponse:
    """A signed-in visitor following an invite link takes a seat (following it is accepting
    it) and sees the room.

    A signed-out visitor is asked to sign up or sign in; `next` brings them back here (the
    page's buttons and the header's links alike: base.html uses `signup_url`/`login_url`).
    """
    if not request.user.is_authenticated:
        problem = services.link_problem(Invitation.objects.filter(token=token).first())
        if problem is not None:
            context = {"message": problem.message, "status": problem.status}
            return render(request, "games/invite_link.html", context, status=problem.status)
        here = request.get_full_path()
        link = Invitation.objects.select_related("game").get(token=token)
        context = {
            "game_name": registry.kind(link.game.kind).name,
            "signup_url": f"{reverse('account_signup')}?{urlencode({'next': here})}",
            "login_url": f"{reverse('account_login')}?{urlencode({'next': here})}",
        }
        return render(request, "games/invite_link.html", context)
    try:
        # Before the start the link seats them; during the game it makes them a stand-in.
        game = stand_ins.follow_link(token=token, user=request.user)
    except LobbyRefused as refusal:
        context = {"message": refusal.message, "status": refusal.status}
        return render(request, "games/invite_link.html", context, status=refusal.status)
    return redirect("waiting-room", game_id=game.pk)
