"""Word by email: your turn, an invitation, a game's end, "come back to the table".

Each email is a `PendingMail` row first, queued inside the transaction that causes it (a
move, an invitation, a request to come back), so it exists exactly when that change does.
The row's unique (user, game, reason, key) keeps it to one per cause: per turn for TURN (key =
the game's action count; then one letter per absence, decided when due), per invitation for
INVITED, per hour for COME_BACK.

Every server process runs the deadline sweep (games/clocks/deadlines.py), which calls `send_due`
about once a second. Several processes may call it at once, so it *claims* rows: in one
short transaction it locks due rows (`select_for_update(skip_locked=True)`: on PostgreSQL
another sweep passes over them; SQLite has one writer at a time, so a second sweep waits and
then finds them done), decides each one, marks it done with its outcome, and commits. The
letters go out after the commit, so an SMTP conversation never holds a row lock or, on
SQLite, the database's one write lock. The price: a process that dies between the commit and
the send loses those letters (their outcome stays "sending"). At most once, never twice.

What is decided when a row falls due, not when it is queued:
- TURN goes only if it is still the user's turn (`must_act`, not handed to the bot), the
  game is on, they are away (`games.live.presence`: no page of the game open, no request on it
  for the away threshold) for the delay, and no letter went for this absence yet: one per
  absence (games/mail/deciding.py).
- Any letter is dropped if its kind is turned off on the user's profile, or the user has no
  verified address (`accounts.addresses`).
- Quiet hours (in the user's time zone; a window may wrap midnight) postpone it to their end,
  when it is decided again.

Every letter has a plain-text and an HTML body (templates/email/<reason>.txt and .html, the
subject in <reason>_subject.txt), a direct link to the table or waiting room, and an
unsubscribe link (`unsubscribe_url`; also in the List-Unsubscribe header, with RFC 8058's
one-click POST). Following the link (a GET, as mail providers' link scanners do) changes
nothing: the page's button, or the one-click POST, does (games/mail/unsubscribing.py).

Invite links emailed to an address (`send_invite_link`) go to people who may have no
account: games/services/lobby/links.py limits them per sender, per address and per client
address, and an address can unsubscribe from them too (accounts.MailAddress).
"""

from __future__ import annotations

from games.mail.letters import send_invite_link
from games.mail.queue import (
    ComeBackRefused,
    ask_to_come_back,
    game_ended,
    hour_number,
    invitation_sent,
    on_table_changed,
    turn_began,
)
from games.mail.sending import send_due
from games.mail.unsubscribing import Subscriber, set_subscribed, subscriber_of, unsubscribe_token

__all__ = [
    "ComeBackRefused",
    "ask_to_come_back",
    "game_ended",
    "hour_number",
    "invitation_sent",
    "on_table_changed",
    "send_due",
    "send_invite_link",
    "Subscriber",
    "set_subscribed",
    "subscriber_of",
    "turn_began",
    "unsubscribe_token",
]
