"""Blocking: a user stops another from reaching them (docs/friends.md, "Blocking").

The blocked user is never told: every path that refuses them (an invitation by name or by
link, a friend request, joining a game the blocker organizes) answers with the sentence it
would give for any other reason it cannot go on. `blocked_either_way` is the one question
the other parts ask (games' invitations and joins, table chat).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from accounts.models import Block, FriendRequest, Friendship, User


def blocked_either_way(user_id: int) -> set[int]:
    """The ids of the users `user_id` blocked or is blocked by (one query)."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in rows for other in pair if other != user_id}


def between(a_id: int, b_id: int) -> bool:
    """Whether either of the two users blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def has_blocked(blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


@transaction.atomic
def block(*, by: User, other: User) -> bool:
    """`by` blocks `other` (True if it is new): their friendship and any friend request
    between them, either way, are gone with it."""
    if by.pk == other.pk:
        raise ValueError("self")
    _, created = Block.objects.get_or_create(blocker=by, blocked=other)
    low, high = sorted((by.pk, other.pk))
    Friendship.objects.filter(low_id=low, high_id=high).delete()
    FriendRequest.objects.filter(
        Q(sender=by, receiver=other) | Q(sender=other, receiver=by)
    ).delete()
    return created


def unblock(*, by: User, other: User) -> bool:
    """`by` lifts their block of `other` (True if there was one). Nothing comes back: a
    friendship the block ended needs a new request."""
    deleted, _ = Block.objects.filter(blocker=by, blocked=other).delete()
    return bool(deleted)
