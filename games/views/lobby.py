"""Lobby, new game, waiting room and invitations: HTTP in, HTML out.

Buttons post with htmx and get back the partial they live in (`#room` or `#lobby-lists`),
with the refusal's message and status (400 / 403 / 404 / 409) when the lobby says no. Plain
form posts (no JavaScript) get a Django message and a redirect instead.
Private means private: `visible_game_or_404` answers 404 to everyone who is not a member.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, Q
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.http import AuthedRequest
from accounts.models import User
from games import clocks, registry
from games.access import visible_game_or_404
from games.forms import (
    EmailInviteForm,
    InviteForm,
    NewGameForm,
    SeatForm,
    UserSearchForm,
    first_error,
)
from games.gamekind import GameKind
from games.models import Game, Invitation, Membership
from games.services import lobby as services
from games.services import past_games, stand_ins
from games.services.lobby import LobbyRefused
from games.views import pages

SEARCH_LIMIT = 8


# --- what each page shows --------------------------------------------------------------------


@dataclass(frozen=True)
class Listing:
    """One game in a lobby list: its name, who plays, its state and where it leads."""

    game: Game
    players: list[str]
    url: str
    status: str
    invitation: Invitation | None = None
    # The players again, with their player pages (names link to them; bots do not).
    people: tuple[past_games.Person, ...] = ()

    @property
    def seats_text(self) -> str:
        return f"{len(self.players)} of {self.game.max_players} players"

    @property
    def kind_name(self) -> str:
        return registry.kind(self.game.kind).name


def _listing(game: Game, invitation: Invitation | None = None) -> Listing:
    members = sorted(
        (m for m in game.memberships.all() if m.seat is not None), key=lambda m: m.seat or 0
    )
    waiting = game.status == Game.Status.WAITING
    status = str(game.get_status_display())
    at_turn = [m for m in members if m.must_act]
    if game.status == Game.Status.ACTIVE and len(at_turn) == 1:
        status = f"{status} · {at_turn[0].name} to play"
    elif game.status == Game.Status.ACTIVE and at_turn:
        status = f"{status} · {len(at_turn)} players choosing"
    return Listing(
        game=game,
        players=[m.name for m in members],
        url=reverse("waiting-room" if waiting else "table", args=[game.pk]),
        status=status,
        invitation=invitation,
        people=tuple(past_games.person_of(m) for m in members),
    )


def lobby_context(user: Any, error: str = "") -> dict[str, Any]:
    """Everything the lobby lists show `user` (rendered again on every lobby push)."""
    games = Game.objects.with_people()
    invitations = (
        Invitation.objects.filter(
            invitee=user, state=Invitation.State.PENDING, game__status=Game.Status.WAITING
        )
        .select_related("game", "inviter")
        .prefetch_related(
            Prefetch("game__memberships", queryset=Membership.objects.select_related("user"))
        )
        .order_by("-created_at")
    )
    return {
        "your_turn": [_listing(g) for g in games.your_turn(user).order_by("-started_at")],
        "in_progress": [_listing(g) for g in games.in_progress_for(user).order_by("-started_at")],
        "invitations": [_listing(i.game, i) for i in invitations],
        "waiting": [_listing(g) for g in games.waiting_for(user).order_by("-created_at")],
        "open_games": [_listing(g) for g in games.open_to(user).order_by("-created_at")[:20]],
        # Public games in progress the user may watch, and their own latest past games.
        "watch": [_listing(g) for g in past_games.watchable(user)],
        "past_games": past_games.latest_past(user),
        "error": error,
    }


def _pace_text(game: Game) -> list[str]:
    """The game's clock, e.g. ["Clock: 30 s per move"] (nothing without one)."""
    text = clocks.pace_text(game.move_seconds)
    return [f"Clock: {text}"] if text else []


def _options_text(kind: GameKind, chosen: dict[str, Any]) -> list[str]:
    """The game's rule options as chosen, e.g. ["Play to: 100 points"]."""
    texts = []
    for option in kind.options:
        value = chosen.get(option.name, option.default)
        label = next((label for v, label in option.choices if v == value), str(value))
        texts.append(f"{option.label}: {label}")
    return texts


@dataclass(frozen=True)
class Seat:
    number: int  # 1-based, as people count
    index: int  # 0-based, as the services want it
    member: Membership | None
    team: int | None = None
    levels: dict[str, str] | None = None  # the game's bot levels: level -> label
    kept_for: str = ""  # a rematch's invitee who sat here last game (the seat is theirs)

    @property
    def role(self) -> str:
        if self.member is None:
            return "Empty"
        if self.member.is_bot:
            return (self.levels or {}).get(self.member.bot, "Bot")
        return str(self.member.get_role_display())


def _kept_seats(game: Game, invitees: list[tuple[Membership, Invitation | None]]) -> dict[int, str]:
    """A rematch's seats kept for its invitees (the seat each had last game), by seat."""
    if game.rematch_of_id is None or not invitees:
        return {}
    names = {m.user_id: m.name for m, _ in invitees if m.user_id is not None}
    last = Membership.objects.filter(
        game_id=game.rematch_of_id, user_id__in=names, seat__isnull=False
    ).values_list("seat", "user_id")
    return {seat: names[user_id] for seat, user_id in last if seat is not None and user_id}


def room_context(game: Game, user: Any, error: str = "") -> dict[str, Any]:
    """What the waiting room shows `user`; works for members and for outsiders of a public
    game (who see no invite links and get a Join button)."""
    memberships = list(game.memberships.select_related("user"))
    by_seat = {m.seat: m for m in memberships if m.seat is not None}
    me = next((m for m in memberships if user.is_authenticated and m.user_id == user.pk), None)
    seated = me is not None and me.seat is not None
    is_organizer = user.is_authenticated and game.organizer_id == user.pk
    waiting = game.status == Game.Status.WAITING
    pending = Invitation.objects.filter(game=game, state=Invitation.State.PENDING).select_related(
        "inviter"
    )
    invitations = {i.invitee_id: i for i in pending if i.invitee_id is not None}
    invitees = [
        (m, invitations.get(m.user_id or 0))
        for m in memberships
        if m.role == Membership.Role.INVITEE
    ]
    links: list[Invitation] = []
    if seated and waiting:
        mine = pending.filter(token__isnull=False, invitee__isnull=True)
        links = [
            link
            for link in mine.order_by("-created_at")
            if not link.has_expired() and (is_organizer or link.inviter_id == user.pk)
        ]
    player_count = len(by_seat)
    free = player_count < game.max_players
    kind = registry.kind(game.kind)
    team_game = kind.teams is not None
    can_start_with = (game.max_players,) if team_game else kind.seat_counts
    levels = dict(kind.bot_levels)
    kept = _kept_seats(game, invitees) if waiting else {}
    return {
        "game": game,
        "kind": kind,
        "team_game": team_game,
        "options": [*_options_text(kind, game.options), *_pace_text(game)],
        "me": me,
        "seats": [
            Seat(
                n + 1,
                n,
                by_seat.get(n),
                kind.team_of(n, game.max_players),
                levels,
                kept.get(n, "") if n not in by_seat else "",
            )
            for n in range(game.max_players)
        ],
        # A rematch starts by itself once everybody invited has answered.
        "is_rematch": game.rematch_of_id is not None,
        "invitees": invitees,
        "links": links,
        "player_count": player_count,
        "waiting": waiting,
        "is_organizer": is_organizer,
        "is_player": seated,
        "is_invitee": me is not None and me.role == Membership.Role.INVITEE,
        "my_invitation": invitations.get(user.pk) if user.is_authenticated else None,
        "can_invite": seated and waiting,
        "can_join": me is None and waiting and game.public and free,
        "can_start": is_organizer and waiting and player_count in can_start_with,
        "start_needs": f"{game.max_players} players (every seat)" if team_game else kind.seats_text,
        "free_seat": free,
        "error": error,
    }


# --- responses -------------------------------------------------------------------------------


def _from_lobby(request: AuthedRequest) -> bool:
    return bool(request.htmx) and request.htmx.target == "lobby-lists"


def _not_visible(request: AuthedRequest) -> HttpResponse:
    """404 for a game the user may not see: the 404 page, or a message in the partial."""
    message = "That game is not available."
    if not request.htmx:
        raise Http404(message)
    if _from_lobby(request):
        context = lobby_context(request.user, error=message)
        return render(request, "games/lobby.html#lists", context, status=404)
    return render(request, "games/waiting_room.html#room-gone", {"message": message}, status=404)


def _answer(
    request: AuthedRequest, game_id: int, *, error: str = "", status: int = 200, done: str = ""
) -> HttpResponse:
    """The page after a lobby POST: the partial it came from (htmx) or a redirect."""
    if _from_lobby(request):
        context = lobby_context(request.user, error=error)
        return render(request, "games/lobby.html#lists", context, status=status)
    try:
        game = visible_game_or_404(request.user, game_id)
    except Http404:
        if error:
            return _not_visible(request)
        # The user just left (or declined) a private game: back to the lobby.
        messages.info(request, done)
        return HttpResponseClientRedirect(reverse("lobby")) if request.htmx else redirect("lobby")
    if request.htmx:
        if game.status != Game.Status.WAITING and not error:
            return HttpResponseClientRedirect(reverse("table", args=[game.pk]))
        if request.htmx.target == "invite-box":
            return _invite_box(request, game, error=error, notice=done, status=status)
        context = room_context(game, request.user, error=error)
        return render(request, "games/waiting_room.html#room", context, status=status)
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return redirect("waiting-room", game_id=game.pk)


def _invite_box(
    request: AuthedRequest, game: Game, *, error: str, notice: str, status: int
) -> HttpResponse:
    """The invite box with its message, plus the room out of band (its invitee list).

    The box lives outside #room so that pushes of the room never wipe what is being typed.
    """
    context = room_context(game, request.user)
    box = {**context, "invite_error": error, "invite_notice": "" if error else notice}
    html = render_to_string("games/waiting_room.html#invite-box", box, request=request)
    html += render_to_string("games/waiting_room.html#room", {**context, "oob": True}, request)
    return HttpResponse(html, status=status)


def _run(
    request: AuthedRequest, game_id: int, action: Callable[[], object], done: str = ""
) -> HttpResponse:
    """Call a service; a refusal becomes a message in the page, and changes nothing."""
    try:
        action()
    except LobbyRefused as refusal:
        return _answer(request, game_id, error=refusal.message, status=refusal.status)
    except Http404:
        return _not_visible(request)
    return _answer(request, game_id, done=done)


def _bad_input(request: AuthedRequest, game_id: int, message: str) -> HttpResponse:
    try:
        visible_game_or_404(request.user, game_id)  # private stays private, even for bad input
    except Http404:
        return _not_visible(request)
    return _answer(request, game_id, error=message, status=400)


# --- pages -----------------------------------------------------------------------------------


@require_GET
def lobby(request: AuthedRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return pages.landing(request)  # "/" signed out: what the site is, sign up / sign in
    return render(request, "games/lobby.html", lobby_context(request.user))


@require_GET
@login_required
def lobby_lists(request: AuthedRequest) -> HttpResponse:
    return render(request, "games/lobby.html#lists", lobby_context(request.user))


@login_required
def new_game(request: AuthedRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None, kind=request.GET.get("kind", ""))
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                organizer=request.user,
                name=form.cleaned_data["name"],
                public=form.public,
                max_players=form.cleaned_data["max_players"],
                kind=form.game_kind.slug,
                options=form.options,
                move_seconds=form.cleaned_data["pace"],
            )
        except LobbyRefused as refusal:
            form.add_error(None, refusal.message)
        else:
            return redirect("waiting-room", game_id=game.pk)
    status = 400 if form.is_bound else 200
    return render(request, "games/new_game.html", {"form": form}, status=status)


@require_GET
@login_required
def waiting_room(request: AuthedRequest, game_id: int) -> HttpResponse:
    if request.htmx and request.GET.get("part") == "invite-links":
        return _invite_links(request, game_id)
    game = visible_game_or_404(request.user, game_id)
    if game.status != Game.Status.WAITING:
        return redirect("table", game_id=game.pk)
    context = room_context(game, request.user)
    if request.htmx:
        return render(request, "games/waiting_room.html#room", context)
    return render(request, "games/waiting_room.html", context)


def _invite_links(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The invite links of the waiting room, fetched again after each push of the room.

    Nothing to swap (204) when the game has started (the page is on its way to the table)
    or the user holds no seat; a bare 404 when the game is not visible to them.
    """
    try:
        game = visible_game_or_404(request.user, game_id)
    except Http404:
        return HttpResponse(status=404)
    context = room_context(game, request.user)
    if not context["can_invite"]:
        return HttpResponse(status=204)
    return render(request, "games/waiting_room.html#invite-links", context)


@require_GET
@login_required
def user_search(request: AuthedRequest, game_id: int) -> HttpResponse:
    """Up to 8 people whose username or display name starts with `q`, not yet in the game."""
    game = visible_game_or_404(request.user, game_id)
    if not game.memberships.filter(user=request.user, seat__isnull=False).exists():
        return HttpResponse("Only players of this game can invite.", status=403)
    # The invite box sends its own field ("username"); `q` is the documented parameter.
    form = UserSearchForm({"q": request.GET.get("q", request.GET.get("username", ""))})
    query = form.cleaned_data["q"] if form.is_valid() else ""
    found: list[User] = []
    if query:
        found = list(
            User.objects.filter(
                Q(username__istartswith=query) | Q(display_name__istartswith=query),
                is_active=True,
            )
            .exclude(memberships__game=game)
            .order_by("username")[:SEARCH_LIMIT]
        )
    context = {"game": game, "found": found, "query": query}
    return render(request, "games/waiting_room.html#user-results", context)


# --- actions ---------------------------------------------------------------------------------


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
        done=f"Invited {username}.",
    )


@require_POST
@login_required
def invite_link(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.create_invite_link(game_id=game_id, by=request.user),
        done="A new invite link is ready: copy it and send it to a friend.",
    )


@require_POST
@login_required
def email_invite_link(request: AuthedRequest, game_id: int) -> HttpResponse:
    form = EmailInviteForm(request.POST)
    if not form.is_valid():
        return _bad_input(request, game_id, first_error(form))
    email = form.cleaned_data["email"]
    return _run(
        request,
        game_id,
        lambda: services.email_invite_link(game_id=game_id, by=request.user, email=email),
        done=f"An invite link is on its way to {email}.",
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
        done="The invitation is revoked.",
    )


@require_POST
@login_required
def accept(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.accept(game_id=game_id, user=request.user),
        done="You have a seat. The organizer starts the game.",
    )


@require_POST
@login_required
def decline(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.decline(game_id=game_id, user=request.user),
        done="You declined the invitation.",
    )


@require_POST
@login_required
def join(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.join(game_id=game_id, user=request.user),
        done="You have a seat. The organizer starts the game.",
    )


@require_POST
@login_required
def leave(request: AuthedRequest, game_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.leave(game_id=game_id, user=request.user),
        done="You left the game.",
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
        done="A bot took the seat.",
    )


@require_POST
@login_required
def remove(request: AuthedRequest, game_id: int, membership_id: int) -> HttpResponse:
    return _run(
        request,
        game_id,
        lambda: services.remove(game_id=game_id, by=request.user, membership_id=membership_id),
        done="Removed.",
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
