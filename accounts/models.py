from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_unsubscribe_key() -> str:
    """A random, unguessable key for unsubscribe links: it says nothing about whose it is."""
    return secrets.token_urlsafe(24)


class User(AbstractUser):
    """A person who plays. Knows nothing about cards."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text=_("The name other players see at the table. Leave empty to use your username."),
    )

    # Which emails this person wants (games/mail/), and quiet hours in their time zone
    # during which none is sent (postponed to the end of them). Unsubscribing turns all off.
    mail_turns = models.BooleanField(_("When it is my turn"), default=True)
    mail_invites = models.BooleanField(_("When I am invited"), default=True)
    mail_endings = models.BooleanField(_("When a game I play ends"), default=True)
    mail_come_back = models.BooleanField(_("When someone asks me to come back"), default=True)
    quiet_from = models.TimeField(_("Quiet hours from"), null=True, blank=True)
    quiet_until = models.TimeField(_("Quiet hours until"), null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    # Friends see whether this person is online and at which table (docs/friends.md):
    # ticking this hides both (they still see the name, and public games as anybody does).
    hide_presence = models.BooleanField(
        _("Hide from my friends whether I am online or at a table"), default=False
    )
    # Table comforts (docs/comforts.md): suits in four colours on every card face (a class
    # on <html>; visitors keep the choice in a cookie), and a second click before a card is
    # played or a big bid is made.
    four_colour_deck = models.BooleanField(
        _("Four-colour deck (spades black, hearts red, diamonds blue, clubs green)"), default=False
    )
    confirm_moves = models.BooleanField(
        _("Confirm before playing a card or making a big bid"), default=False
    )
    # The language the site speaks to this person (pages, sockets, letters: accounts/
    # languages.py); empty: follow the browser (the chooser's cookie, Accept-Language).
    language = models.CharField(
        "Language", max_length=10, choices=settings.LANGUAGES, blank=True, default=""
    )
    # The token of the unsubscribe link in every letter: random, not derived from the id,
    # so a link shows nothing about the account; a new one cancels the links already sent.
    unsubscribe_key = models.CharField(
        max_length=64, unique=True, default=new_unsubscribe_key, editable=False
    )

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    def rotate_unsubscribe_key(self) -> None:
        self.unsubscribe_key = new_unsubscribe_key()
        self.save(update_fields=["unsubscribe_key"])


class MailAddress(models.Model):
    """An address a member mailed an invitation to (one with no account, perhaps), known
    only by a hash of it (`accounts.addresses.address_hash`): its unsubscribe key, and
    whether it asked for no more invitations. Its row is locked while a letter to it is
    counted, so the limit per address holds across senders running at the same time."""

    address_hash = models.CharField(max_length=64, unique=True)
    unsubscribe_key = models.CharField(max_length=64, unique=True, default=new_unsubscribe_key)
    suppressed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"address {self.address_hash[:12]}"


class AddressLetter(models.Model):
    """One invitation emailed to an address by a member: what the limits count."""

    address = models.ForeignKey(MailAddress, on_delete=models.CASCADE, related_name="letters")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="address_letters"
    )
    sent_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["sender", "sent_at"], name="address_letters_by_sender"),
            models.Index(fields=["address", "sent_at"], name="address_letters_by_address"),
        ]

    def __str__(self) -> str:
        return f"letter from {self.sender_id} to {self.address_id}"


# --- friends and blocking (accounts/friends.py, accounts/blocking.py) ----------------------


class FriendRequest(models.Model):
    """`sender` asked `receiver` to be friends; the row lives until an answer (accepted:
    a Friendship instead; declined or cancelled: gone) or a block between the two."""

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    receiver = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sender", "receiver"], name="one_friend_request"),
            models.CheckConstraint(
                condition=~models.Q(sender=models.F("receiver")), name="friend_request_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"friend request {self.sender_id} -> {self.receiver_id}"


class Friendship(models.Model):
    """Two users who are friends: one row a pair, the lower id first (so a pair can only be
    stored once, whoever asked)."""

    low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships_low"
    )
    high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships_high"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="one_friendship"),
            models.CheckConstraint(
                condition=models.Q(low__lt=models.F("high")), name="friendship_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"friends {self.low_id} and {self.high_id}"


class Block(models.Model):
    """`blocker` blocked `blocked`: no invitations, friend requests or joining the blocker's
    games from the blocked user (refused without saying why)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"block {self.blocker_id} -> {self.blocked_id}"
