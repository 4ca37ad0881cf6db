"""Getting past an absent player, from the table: a bot covers a seat, a stand-in takes it,
the organizer abandons the game, and inviting a stand-in while the game is on.

As the other table posts (games/views/table.py): htmx gets the `#table` partial, with the
refusal's message and status when the service says no (400 unreadable, 403 not allowed, 404
a private game the user is not in, 409/422 the game's state refuses); a plain form post
gets a redirect to the table, or the whole page with the message.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, QueryDict
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthedRequest
from games.forms import InviteForm, first_error
from games.services import absence, stand_ins
from games.services.errors import UnreadableMove
from games.views.table import act_at_table


def _number(data: QueryDict, name: str, refusal: str) -> int:
    """A small whole number from the POST (ASCII digits only), or a 400 saying `refusal`."""
    raw = data.get(name, "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise UnreadableMove(refusal)
    return int(raw)


@login_required
@require_POST
def cover(request: AuthedRequest, game_id: int) -> HttpResponse:
    """Ask a bot to cover the seat of a player who is away (POST `seat`)."""

    def ask() -> None:
        seat = _number(request.POST, "seat", _("Choose a seat."))
        absence.cover(game_id=game_id, by=request.user, seat=seat)

    return act_at_table(request, game_id, ask)


@login_required
@require_POST
def replace(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The organizer gives an absent player's seat (POST `seat`) to an invitee (POST
    `invitee`, their membership's id)."""

    def give() -> None:
        seat = _number(request.POST, "seat", _("Choose a seat."))
        invitee = _number(request.POST, "invitee", _("Choose who takes the seat."))
        absence.replace(game_id=game_id, by=request.user, seat=seat, invitee_membership_id=invitee)

    return act_at_table(request, game_id, give)


@login_required
@require_POST
def abandon(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The organizer abandons a game the others have left."""
    return act_at_table(request, game_id, lambda: absence.abandon(game_id=game_id, by=request.user))


@login_required
@require_POST
def invite(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The organizer invites a stand-in by name (POST `username`) while the game is on."""

    def send() -> None:
        form = InviteForm(request.POST)
        if not form.is_valid():
            raise UnreadableMove(first_error(form))
        username = form.cleaned_data["username"]
        stand_ins.invite_stand_in(game_id=game_id, by=request.user, username=username)

    return act_at_table(request, game_id, send)


@login_required
@require_POST
def invite_link(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The organizer makes a single-use link for a stand-in while the game is on."""
    return act_at_table(
        request,
        game_id,
        lambda: stand_ins.create_stand_in_link(game_id=game_id, by=request.user),
    )
