"""Which email address, if any, the site may write to: a verified one (allauth's records).

An address typed at sign-up or on the profile is only a claim until its owner follows the
link allauth sends (ACCOUNT_EMAIL_VERIFICATION = "optional": signing in works without it).
Mail about games (games/mail/) goes to the primary verified address, else any verified one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from allauth.account.models import EmailAddress
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.utils.encoding import punycode
from django.utils.translation import gettext as _


def verified_addresses(user_ids: Iterable[int]) -> dict[int, str]:
    """The address to write to for each of `user_ids` that has a verified one (one query)."""
    found: dict[int, str] = {}
    rows = EmailAddress.objects.filter(user_id__in=set(user_ids), verified=True).order_by(
        "-primary", "pk"
    )
    for user_id, email in rows.values_list("user_id", "email"):
        found.setdefault(user_id, email)
    return found


def verified_address(user_id: int) -> str:
    """The user's address to write to, or "" when none is verified."""
    return verified_addresses([user_id]).get(user_id, "")


def normalised(address: str) -> str:
    """The form an address is compared and hashed in: trimmed, lower case (providers treat
    the local part without regard to case, whatever RFC 5321 allows)."""
    return address.strip().lower()


def address_hash(address: str) -> str:
    """What the suppression list and the invitation limits keep of an address: never the
    address itself."""
    return hashlib.sha256(f"card-tables:{normalised(address)}".encode()).hexdigest()


def refuse_unmailable_domain(address: str) -> None:
    """Refuse what Django's EmailValidator lets through but no real mailbox has: a domain
    that is an address literal (`victim@[127.0.0.1]`), a bare IP address (`a@10.0.0.1`) or
    a name with no dot (`a@localhost`). A letter there would reach a machine of the site's
    own network, not a person. Nor a domain the mail library cannot write (IDNA refuses
    control characters and labels too long once encoded): sending would fail, not refuse."""
    domain = address.rpartition("@")[2].strip().rstrip(".")
    labels = domain.split(".")
    try:
        punycode(domain)  # what django.core.mail does to the domain of every address
        writable = True
    except UnicodeError:
        writable = False
    if not writable or domain.startswith("[") or len(labels) < 2 or labels[-1].isdigit():
        raise ValidationError(
            _(
                "Use an address at an ordinary mail domain (like example.com), "
                "not an IP address or a local name."
            )
        )


def has_verified_address(user_field: str = "user_id") -> Exists:
    """For a query of rows naming a user in `user_field`: whether that user has a verified
    address (the leaderboard lists verified accounts only)."""
    return Exists(EmailAddress.objects.filter(user_id=OuterRef(user_field), verified=True))
