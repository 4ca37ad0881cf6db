"""Friends: requests (send, accept, decline, cancel) and friendships (remove).

Each service is keyword-only, runs in one transaction and raises `FriendRefused` (a
sentence for the person, and the HTTP status the views answer with) when it cannot go on;
then nothing changed. A block between two people refuses a request with the same sentence
as any other refusal that does not name its reason (accounts/blocking.py). Knows nothing
about cards: what friends show each other in the lobby is games.services.friends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from django.db import IntegrityError, transaction
from django.db.models import CharField, F, Q, QuerySet, Value
from django.utils.translation import gettext as _

from accounts import blocking
from accounts.models import Block, FriendRequest, Friendship, User


class FriendRefused(Exception):
    """A friend action that is refused; `message` is shown to the person as is."""

    def __init__(self, message: str, *, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _pair(a_id: int, b_id: int) -> tuple[int, int]:
    low, high = sorted((a_id, b_id))
    return low, high


def are_friends(a_id: int, b_id: int) -> bool:
    low, high = _pair(a_id, b_id)
    return Friendship.objects.filter(low_id=low, high_id=high).exists()


def friend_ids(user_id: int) -> set[int]:
    """The ids of `user_id`'s friends (one query)."""
    rows = Friendship.objects.filter(Q(low_id=user_id) | Q(high_id=user_id)).values_list(
        "low_id", "high_id"
    )
    return {other for pair in rows for other in pair if other != user_id}


def friends_of(user_id: int) -> list[User]:
    """`user_id`'s friends (active accounts), by shown name."""
    found = User.objects.filter(pk__in=friend_ids(user_id), is_active=True)
    return sorted(found, key=lambda u: u.shown_name.casefold())


def requests_received(user: User) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(receiver=user, sender__is_active=True)
        .select_related("sender")
        .order_by("-created_at")
    )


def requests_sent(user: User) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(sender=user, receiver__is_active=True)
        .select_related("receiver")
        .order_by("-created_at")
    )


@dataclass(frozen=True)
class Circle:
    """Everybody a user has a tie with, by id then username: friends, the people they asked
    and who asked them (requests waiting), and blocks either way (`blocked` does not say
    who blocked whom: the pages that read it must not tell either)."""

    friends: dict[int, str] = field(default_factory=dict)
    sent: dict[int, str] = field(default_factory=dict)
    received: dict[int, str] = field(default_factory=dict)
    blocked: dict[int, str] = field(default_factory=dict)
    blocked_by_me: frozenset[int] = frozenset()

    def blocked_names(self) -> list[str]:
        """The usernames of the people this user blocked (their own choice to see)."""
        return sorted(name for pk, name in self.blocked.items() if pk in self.blocked_by_me)

    def skipped_names(self) -> set[str]:
        """Usernames an "Add friend" button is not offered to."""
        return {
            *self.friends.values(),
            *self.sent.values(),
            *self.received.values(),
            *self.blocked.values(),
        }


def circle(user_id: int) -> Circle:
    """`user_id`'s circle in one query (the lobby and the pages of people read it)."""

    def tie(rows: QuerySet[Any], label: str, other: str) -> QuerySet[Any]:
        labelled = rows.annotate(k=Value(label, output_field=CharField()), o=F(f"{other}_id"))
        named: QuerySet[Any] = labelled.values_list("k", "o", f"{other}__username")
        return named

    parts = [
        tie(Friendship.objects.filter(low_id=user_id), "f", "high"),
        tie(Friendship.objects.filter(high_id=user_id), "f", "low"),
        tie(FriendRequest.objects.filter(sender_id=user_id), "s", "receiver"),
        tie(FriendRequest.objects.filter(receiver_id=user_id), "r", "sender"),
        tie(Block.objects.filter(blocker_id=user_id), "B", "blocked"),
        tie(Block.objects.filter(blocked_id=user_id), "b", "blocker"),
    ]
    found: dict[str, dict[int, str]] = {"f": {}, "s": {}, "r": {}, "b": {}}
    mine: set[int] = set()
    for label, other, name in parts[0].union(*parts[1:], all=True):
        if label == "B":
            mine.add(other)
            label = "b"
        found[label][other] = name
    return Circle(found["f"], found["s"], found["r"], found["b"], frozenset(mine))


Relation = Literal["me", "friends", "sent", "received", "blocked", "none"]


def relation(viewer: User, other: User, ties: Circle | None = None) -> Relation:
    """What the viewer's buttons on `other`'s page are: "blocked" only when the viewer
    blocked them (being blocked looks like "none": the blocked user is not told)."""
    if viewer.pk == other.pk:
        return "me"
    ties = ties if ties is not None else circle(viewer.pk)
    if other.pk in ties.blocked_by_me:
        return "blocked"
    if other.pk in ties.friends:
        return "friends"
    if other.pk in ties.sent:
        return "sent"
    if other.pk in ties.received:
        return "received"
    return "none"


def person(username: str) -> User:
    """The active user called `username` (case-insensitive), or a 404 refusal."""
    name = username.strip()
    found = User.objects.filter(username__iexact=name, is_active=True).first()
    if found is None:
        raise FriendRefused(
            _("There is nobody called “%(name)s”.") % {"name": name[:40]}, status=404
        )
    return found


@transaction.atomic
def send_request(*, by: User, username: str) -> Literal["sent", "friends"]:
    """`by` asks `username` to be friends. When `username` had asked `by` already, this is
    accepting: they are friends at once ("friends"); otherwise the request waits ("sent")."""
    other = person(username)
    if other.pk == by.pk:
        raise FriendRefused(_("You cannot send a friend request to yourself."), status=400)
    # Neutral: the blocked person learns nothing from it (nor who blocked whom).
    if blocking.between(by.pk, other.pk):
        raise FriendRefused(
            _("You cannot send a friend request to %(name)s.") % {"name": other.shown_name},
            status=403,
        )
    if are_friends(by.pk, other.pk):
        raise FriendRefused(_("You and %(name)s are friends already.") % {"name": other.shown_name})
    if FriendRequest.objects.filter(sender=other, receiver=by).exists():
        _befriend(by, other)
        return "friends"
    if FriendRequest.objects.filter(sender=by, receiver=other).exists():
        raise FriendRefused(_already_asked(other))
    try:
        with transaction.atomic():  # two clicks at once: the second finds the first's row
            FriendRequest.objects.create(sender=by, receiver=other)
    except IntegrityError:
        raise FriendRefused(_already_asked(other)) from None
    return "sent"


def _already_asked(other: User) -> str:
    return _("You already asked %(name)s: they have not answered yet.") % {"name": other.shown_name}


def _not_asked(other: User) -> str:
    return _("%(name)s has not sent you a friend request.") % {"name": other.shown_name}


def _befriend(a: User, b: User) -> None:
    low, high = _pair(a.pk, b.pk)
    Friendship.objects.get_or_create(low_id=low, high_id=high)
    FriendRequest.objects.filter(Q(sender=a, receiver=b) | Q(sender=b, receiver=a)).delete()


@transaction.atomic
def accept_request(*, by: User, username: str) -> User:
    """`by` accepts the request `username` sent them: they are friends."""
    other = person(username)
    if not FriendRequest.objects.filter(sender=other, receiver=by).exists():
        raise FriendRefused(_not_asked(other))
    _befriend(by, other)
    return other


@transaction.atomic
def decline_request(*, by: User, username: str) -> User:
    """`by` turns down the request `username` sent them (the sender may ask again)."""
    other = person(username)
    deleted, _rows = FriendRequest.objects.filter(sender=other, receiver=by).delete()
    if not deleted:
        raise FriendRefused(_not_asked(other))
    return other


@transaction.atomic
def cancel_request(*, by: User, username: str) -> User:
    """`by` takes back the request they sent `username`."""
    other = person(username)
    deleted, _rows = FriendRequest.objects.filter(sender=by, receiver=other).delete()
    if not deleted:
        raise FriendRefused(
            _("You have no friend request waiting with %(name)s.") % {"name": other.shown_name}
        )
    return other


@transaction.atomic
def remove_friend(*, by: User, username: str) -> User:
    """`by` and `username` are friends no more (either may do it, without asking)."""
    other = person(username)
    low, high = _pair(by.pk, other.pk)
    deleted, _rows = Friendship.objects.filter(low_id=low, high_id=high).delete()
    if not deleted:
        raise FriendRefused(_("You and %(name)s are not friends.") % {"name": other.shown_name})
    return other


def export(user: User) -> dict[str, Any]:
    """The user's own friends data for a personal data export: the names of their friends,
    of the people they asked and of the people they blocked. Never what others chose about
    them (who blocked them, who declined), nor anything else about their friends."""
    return {
        "friends": sorted(u.username for u in friends_of(user.pk)),
        "friend_requests_sent": sorted(r.receiver.username for r in requests_sent(user)),
        "friend_requests_received": sorted(r.sender.username for r in requests_received(user)),
        "blocked": sorted(
            User.objects.filter(blocks_received__blocker=user).values_list("username", flat=True)
        ),
    }
