"""Helpers of the lobby tests (test_lobby_*_services.py, test_lobby_*_views.py): the state a
refusal must leave unchanged, how a service refuses, who sits where, and reading the pages and
partials the views answer with."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Invitation, Membership
from games.services.lobby import LobbyRefused

# --- the services ---------------------------------------------------------------------------


def state_of(game):
    """Everything the lobby may change, to prove a refusal changed nothing."""
    game.refresh_from_db()
    members = sorted(
        Membership.objects.filter(game=game).values_list("user_id", "bot_name", "role", "seat"),
        key=str,
    )
    invitations = sorted(
        Invitation.objects.filter(game=game).values_list("pk", "invitee_id", "state"), key=str
    )
    return game.version, game.status, members, invitations


def refused(call, status):
    with pytest.raises(LobbyRefused) as info:
        call()
    assert info.value.status == status
    assert info.value.message
    return info.value.message


def seats(game):
    return {
        m.name: (m.role, m.seat)
        for m in Membership.objects.filter(game=game).select_related("user")
    }


# --- the views ------------------------------------------------------------------------------

# htmx request headers, as the buttons in each partial send them.
HTMX = {"HX-Request": "true", "HX-Target": "room"}
FROM_LOBBY = {"HX-Request": "true", "HX-Target": "lobby-lists"}
FROM_INVITE_BOX = {"HX-Request": "true", "HX-Target": "invite-box"}


# The views' tests call it a snapshot: what state_of reads, read the same way.
snapshot = state_of


def text(response):
    return response.content.decode()


def section(html, heading):
    """The HTML of the lobby section titled `heading`."""
    match = re.search(rf"<h2[^>]*>{heading}</h2>(.*?)</section>", html, re.S)
    assert match, heading
    return match.group(1)


def endpoints(game, membership_id, invitation_id):
    posts = [
        reverse("invite", args=[game.pk]),
        reverse("invite-link", args=[game.pk]),
        reverse("revoke-invitation", args=[game.pk, invitation_id]),
        reverse("accept", args=[game.pk]),
        reverse("decline", args=[game.pk]),
        reverse("join", args=[game.pk]),
        reverse("leave", args=[game.pk]),
        reverse("add-bot", args=[game.pk]),
        reverse("remove", args=[game.pk, membership_id]),
        reverse("start", args=[game.pk]),
    ]
    gets = [
        reverse("waiting-room", args=[game.pk]),
        reverse("user-search", args=[game.pk]) + "?q=a",
    ]
    return gets, posts
