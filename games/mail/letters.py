"""Writing letters: templates/email/<reason>{_subject.txt,.txt,.html}."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from games import registry
from games.mail.deciding import Batch
from games.mail.queue import Reason, unsubscribe_token
from games.models import INVITE_LINK_LIFETIME, Invitation, PendingMail

log = logging.getLogger(__name__)


def absolute(path: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def message(
    template: str, context: dict[str, Any], to: str, *, unsubscribe_url: str = ""
) -> EmailMultiAlternatives:
    """A letter from templates/email/<template>{_subject.txt,.txt,.html}."""
    context = {**context, "site_url": settings.SITE_URL, "unsubscribe_url": unsubscribe_url}
    subject = " ".join(render_to_string(f"email/{template}_subject.txt", context).split())
    text = render_to_string(f"email/{template}.txt", context)
    html = render_to_string(f"email/{template}.html", context)
    # Machine-sent: no out-of-office replies, please (RFC 3834).
    headers = {"Auto-Submitted": "auto-generated"}
    if unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(subject, text, to=[to], headers=headers)
    message.attach_alternative(html, "text/html")
    return message


def write_letter(row: PendingMail, batch: Batch) -> EmailMultiAlternatives:
    user, game = row.user, row.game
    names = batch.names(game.pk)
    others = [m.name for m in batch.members[game.pk] if m.user_id != user.pk]
    context: dict[str, Any] = {
        "name": user.shown_name,
        "game_name": game.name,
        "kind_name": registry.kind(game.kind).name,
        "others": others,
        "url": absolute(reverse("table", args=[game.pk])),
        "settings_url": absolute(reverse("profile")),
        "move_seconds": game.move_seconds,
    }
    if row.reason == Reason.INVITED:
        invitation = batch.invitations[row.key]
        context["inviter"] = invitation.inviter.shown_name
        context["url"] = absolute(reverse("waiting-room", args=[game.pk]))
    elif row.reason == Reason.ENDED:
        outcome = game.outcome or {}
        scores, winners = outcome.get("scores", ()), set(outcome.get("winners", ()))
        context["results"] = [
            {"name": names.get(seat, f"Seat {seat + 1}"), "score": score, "won": seat in winners}
            for seat, score in enumerate(scores)
        ]
        context["won"] = any(
            m.user_id == user.pk and m.seat in winners for m in batch.members[game.pk]
        )
    unsubscribe_url = absolute(reverse("unsubscribe", args=[unsubscribe_token(user.pk)]))
    address = batch.addresses[row.user_id]
    return message(str(row.reason), context, address, unsubscribe_url=unsubscribe_url)


def send_invite_link(invitation: Invitation, address: str) -> bool:
    """Email a private invite link to `address` (somebody with no account, perhaps): who
    invites them, to which game, and the link. Called after the link's commit; no queue, as
    there is no user to hold the row. False (and logged) if the mail server refused it."""
    game = invitation.game
    context = {
        "inviter": invitation.inviter.shown_name,
        "game_name": game.name,
        "kind_name": registry.kind(game.kind).name,
        "url": absolute(reverse("invite-link-landing", args=[invitation.token])),
        "days": INVITE_LINK_LIFETIME.days,
    }
    try:
        message("invite_link", context, address).send()
    except OSError:  # smtplib's errors are OSErrors too
        log.warning("could not send invite link %s", invitation.pk, exc_info=True)
        return False
    return True
