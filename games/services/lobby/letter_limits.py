"""Who may email an invite link to an address, and how often: the site must not become a way
to mail strangers.

- Only a member with a verified address may (403): an account costs nothing, a verified
  address a little more, and it says who sent the letters.
- An address gets at most INVITE_MAIL_PER_ADDRESS letters a day across all senders, and
  none once it unsubscribed (its `MailAddress` row) or the account that verified it turned
  invitations off (422/429).
- A sender sends at most INVITE_MAIL_PER_SENDER a day (429). (The limit per client address
  is the view's: games/views/lobby/actions.py.)

These two are counted in the database, in the transaction that records the letter, with the
sender's and the address's rows locked (in that order, after the game's): requests running
at the same time take turns, so no limit is overshot, on PostgreSQL as on SQLite. A limiter
in the cache would count requests, not letters that were really sent, and it would forget
an address's letters on a restart of the embedded default.
"""

from __future__ import annotations

from datetime import timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.addresses import address_hash, verified_address
from accounts.models import AddressLetter, MailAddress, User
from games.services.lobby.refusals import LobbyRefused, NotAllowed

DAY = timedelta(days=1)
UNVERIFIED = gettext_lazy(
    "Only players with a verified email address can email invitations. "
    "Verify yours on your email page, or copy an invite link and send it yourself."
)


def record_letter(*, by: User, email: str) -> MailAddress:
    """Check that `by` may email an invitation to `email` now and record the letter (inside
    the caller's transaction); returns the address's row (its unsubscribe key). Raises a
    LobbyRefused that says why not."""
    if not verified_address(by.pk):
        raise NotAllowed(str(UNVERIFIED))
    now = timezone.now()
    User.objects.select_for_update().filter(pk=by.pk).values_list("pk").get()
    sent = AddressLetter.objects.filter(sender=by, sent_at__gt=now - DAY).count()
    if sent >= settings.INVITE_MAIL_PER_SENDER:
        raise LobbyRefused(
            ngettext(
                "You have emailed %(count)s invitation in the last day, as many as we send "
                "for one player. Copy an invite link and send it yourself, or try again "
                "tomorrow.",
                "You have emailed %(count)s invitations in the last day, as many as we send "
                "for one player. Copy an invite link and send it yourself, or try again "
                "tomorrow.",
                sent,
            )
            % {"count": sent},
            status=429,
        )
    digest = address_hash(email)
    MailAddress.objects.bulk_create([MailAddress(address_hash=digest)], ignore_conflicts=True)
    address = MailAddress.objects.select_for_update().get(address_hash=digest)
    # Only a verified address's account speaks for the mailbox: typing an address in costs
    # nothing, and must not silence somebody else's invitations.
    turned_off = EmailAddress.objects.filter(
        email__iexact=email.strip(), verified=True, user__mail_invites=False
    )
    if address.suppressed_at is not None or turned_off.exists():
        raise LobbyRefused(
            _(
                "That address asked us to send it no more invitations. "
                "Copy an invite link and send it another way."
            ),
            status=422,
        )
    if address.letters.filter(sent_at__gt=now - DAY).count() >= settings.INVITE_MAIL_PER_ADDRESS:
        raise LobbyRefused(
            _(
                "That address has had as many invitations from us today as we send. "
                "Copy an invite link and send it another way."
            ),
            status=429,
        )
    AddressLetter.objects.create(address=address, sender=by, sent_at=now)
    return address
