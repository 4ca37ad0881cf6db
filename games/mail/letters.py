"""Writing letters: templates/email/<reason>{_subject.txt,.txt,.html}."""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.languages import recipient_language
from games import registry
from games.mail.deciding import Batch
from games.mail.queue import Reason
from games.mail.unsubscribing import unsubscribe_token
from games.models import INVITE_LINK_LIFETIME, Invitation, PendingMail

log = logging.getLogger(__name__)

# A name that a mail program might show as a link, or that reads like somewhere to go: an
# email address, a URL or a domain ("win.example", "bit.ly/x"; dots as CJK, full-width and
# leader stops too, and written around: "win[.]example", "win (dot) example"), an IP
# address, or markup. Checked with invisible characters (Unicode's format characters, such
# as a zero-width space) taken out, as a reader sees the name.
LOOKS_LIKE_AN_ADDRESS = re.compile(
    r"[@/\\<>:]|www|\w\W{0,3}[.。．｡․﹒]\W{0,3}\w|[\[(]\s*dot\s*[\])]", re.IGNORECASE
)


def plain_name(name: str, neutral: str | None = None) -> str:
    """A player's name as an invitation letter may show it: as is, or `neutral` words ("A
    player") when it looks like an address. Invitation letters go to people who asked for
    none, so they carry no text the sender chose but a plain name (never the game's name)."""
    seen = "".join(char for char in name if unicodedata.category(char) != "Cf")
    if not LOOKS_LIKE_AN_ADDRESS.search(seen):
        return name
    # Translators: stands for a player's name in a letter, at the start of a sentence.
    return neutral if neutral is not None else _("A player")


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
    """The letter of `row`, in its recipient's language (the sweep has no request)."""
    with translation.override(recipient_language(row.user)):
        return _write_letter(row, batch)


def _write_letter(row: PendingMail, batch: Batch) -> EmailMultiAlternatives:
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
        context["inviter"] = plain_name(invitation.inviter.shown_name)
        context["others"] = [plain_name(other, _("another player")) for other in others]
        context["url"] = absolute(reverse("waiting-room", args=[game.pk]))
    elif row.reason == Reason.ENDED:
        outcome = game.outcome or {}
        scores, winners = outcome.get("scores", ()), set(outcome.get("winners", ()))
        context["results"] = [
            {
                "name": names.get(seat, _("Seat %(number)s") % {"number": seat + 1}),
                "score": score,
                "won": seat in winners,
            }
            for seat, score in enumerate(scores)
        ]
        context["won"] = any(
            m.user_id == user.pk and m.seat in winners for m in batch.members[game.pk]
        )
    unsubscribe_url = absolute(reverse("unsubscribe", args=[unsubscribe_token(user)]))
    address = batch.addresses[row.user_id]
    return message(str(row.reason), context, address, unsubscribe_url=unsubscribe_url)


def send_invite_link(invitation: Invitation, address: str, *, unsubscribe_key: str) -> bool:
    """Email a private invite link to `address` (somebody with no account, perhaps): who
    invites them (`plain_name`) to a game of which kind, the link, and an unsubscribe link
    for the address (`unsubscribe_key`, accounts.MailAddress). Called after the link's
    commit; no queue, as there is no user to hold the row. False (and logged) if the mail
    server refused it. In the active language, the inviter's: nothing says the address's."""
    context = {
        "inviter": plain_name(invitation.inviter.shown_name),
        "kind_name": registry.kind(invitation.game.kind).name,
        "url": absolute(reverse("invite-link-landing", args=[invitation.token])),
        "days": INVITE_LINK_LIFETIME.days,
    }
    unsubscribe_url = absolute(reverse("unsubscribe", args=[unsubscribe_key]))
    try:
        message("invite_link", context, address, unsubscribe_url=unsubscribe_url).send()
    except OSError:  # smtplib's errors are OSErrors too
        log.warning("could not send invite link %s", invitation.pk, exc_info=True)
        return False
    return True
