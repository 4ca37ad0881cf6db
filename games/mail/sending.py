"""Sending: claiming due rows (several sweeps may run at once), then delivering after commit."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.mail.deciding import Batch, absence_of, drop_reason, quiet_end
from games.mail.letters import write_letter
from games.mail.queue import Reason
from games.models import PendingMail

log = logging.getLogger(__name__)

BATCH = 50  # rows claimed per transaction: short enough never to keep movers waiting


@dataclass
class Outgoing:
    mail_id: int
    message: EmailMultiAlternatives


def due(now: datetime) -> Any:
    return PendingMail.objects.filter(done_at__isnull=True, due_at__lte=now)


def claim(now: datetime) -> tuple[list[Outgoing], int]:
    """Lock up to BATCH due rows that no other sweep holds, decide each, and mark it done
    (or postpone it past quiet hours). Returns the letters to send after commit and how
    many rows were handled."""
    with transaction.atomic():
        rows = list(
            due(now)
            .select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "game")
            .order_by("due_at", "pk")[:BATCH]
        )
        if not rows:
            return [], 0
        batch = Batch.load(rows, now)
        outgoing = []
        for row in rows:
            outcome = drop_reason(row, batch)
            if not outcome:
                absence = absence_of(row, batch, now) if row.reason == Reason.TURN else None
                until = absence if isinstance(absence, datetime) else quiet_end(row.user, now)
                if until is not None:
                    row.due_at = until
                    row.save(update_fields=["due_at"])
                    continue
                if isinstance(absence, int) and not told(row, absence):
                    outcome = "told of this absence already"
            if not outcome:
                try:
                    outgoing.append(Outgoing(row.pk, write_letter(row, batch)))
                    outcome = "sending"
                except Exception:  # a broken template must not jam the queue
                    log.exception("could not write mail %s", row.pk)
                    outcome = "failed: could not write it"
            row.done_at, row.outcome = now, outcome
            row.save(update_fields=["done_at", "outcome"])
        return outgoing, len(rows)


def told(row: PendingMail, absence: int) -> bool:
    """Mark `row` as the turn letter of `absence`; False if a letter for that absence was
    written already (the unique constraint says so, whichever sweep wrote it)."""
    row.absence = absence
    try:
        with transaction.atomic():  # a savepoint: the claim goes on after a refusal
            row.save(update_fields=["absence"])
    except IntegrityError:
        row.absence = None
        return False
    return True


def deliver(outgoing: list[Outgoing]) -> None:
    """Send the claimed letters over one connection and record how each went."""
    outcome: dict[int, str] = {}
    try:
        with get_connection() as connection:
            for letter in outgoing:
                try:
                    connection.send_messages([letter.message])
                except OSError as error:  # smtplib's errors are OSErrors too
                    log.warning("mail %s was refused: %s", letter.mail_id, error)
                    outcome[letter.mail_id] = f"failed: {type(error).__name__}"[:40]
                else:
                    outcome[letter.mail_id] = "sent"
    except OSError as error:  # no connection to the mail server at all
        log.warning("could not reach the mail server: %s", error)
    by_outcome: dict[str, list[int]] = defaultdict(list)
    for letter in outgoing:
        by_outcome[outcome.get(letter.mail_id, "failed: no mail server")].append(letter.mail_id)
    for text, ids in by_outcome.items():
        PendingMail.objects.filter(pk__in=ids).update(outcome=text)


def send_due(now: datetime | None = None) -> int:
    """Send (or drop, or postpone) every queued email that is due at `now`; called by the
    deadline sweep of each server process (games/clocks/deadlines.py). Returns how many rows were
    handled: sent, dropped or postponed by this call (not those another sweep took)."""
    now = now or timezone.now()
    handled = 0
    # A plain read first: most sweeps find nothing, and then take no write lock at all.
    while due(now).exists():
        outgoing, claimed = claim(now)
        if outgoing:
            deliver(outgoing)
        handled += claimed
        if claimed < BATCH:
            break
    return handled
