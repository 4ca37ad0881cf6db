"""What friends show each other around games (docs/friends.md): the lobby's friends panel
(online, at a table, "Play again with ..."), friends' open public games, and the people
the waiting room's invite box offers first. The friendships themselves are accounts'
(accounts/friends.py, accounts/blocking.py).

Private means private here too: a friend "at a table" names the table and links to it only
when the viewer may see that game (public, or they are in it: invited, seated); otherwise
the panel says "at a table" and nothing more. A friend who hides their presence (profile,
`User.hide_presence`) shows neither online nor at a table.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

from accounts import blocking
from accounts import friends as accounts_friends
from accounts.models import FriendRequest, User
from games import presence
from games.models import Game, Membership
from games.services import past_games

# The invite box's one-click suggestions (friends first, then recent opponents).
SUGGESTIONS = 8


@dataclass(frozen=True)
class Table:
    """A game a friend is at now: named and linked only when the viewer may see it."""

    name: str = ""
    url: str = ""


@dataclass(frozen=True)
class FriendRow:
    user: User
    hidden: bool  # they hide whether they are online or at a table
    online: bool = False
    tables: tuple[Table, ...] = ()
    play_again: Game | None = None  # their latest finished game with the viewer, not replayed
    play_again_with: tuple[str, ...] = ()  # the other people of that game, by shown name

    @property
    def status(self) -> str:
        if self.hidden:
            return ""
        if self.tables:
            return "at a table"
        return "online" if self.online else "offline"


@dataclass(frozen=True)
class Panel:
    friends: list[FriendRow] = field(default_factory=list)
    received: list[FriendRequest] = field(default_factory=list)
    sent: list[FriendRequest] = field(default_factory=list)


def _tables(viewer: Any, shown: list[User]) -> dict[int, list[Table]]:
    """The games under way each of `shown` is present at now, as the viewer may see them."""
    seats = Membership.objects.filter(
        user__in=shown, seat__isnull=False, game__status=Game.Status.ACTIVE
    ).select_related("game")
    by_game: dict[int, tuple[Game, set[int]]] = {}
    for member in seats:
        game, ids = by_game.setdefault(member.game_id, (member.game, set()))
        ids.add(member.user_id or 0)
    mine = set(
        Membership.objects.filter(user=viewer, game_id__in=by_game).values_list(
            "game_id", flat=True
        )
    )
    tables: dict[int, list[Table]] = defaultdict(list)
    for game_id, (game, ids) in by_game.items():
        here = presence.presence_of(game_id, ids)
        visible = game.public or game_id in mine
        for uid in ids:
            if here.present(uid):
                table = Table(game.name, reverse("table", args=[game_id])) if visible else Table()
                tables[uid].append(table)
    return tables


def play_again_game(viewer: Any, friend_id: int) -> Game | None:
    """The latest finished game both played (held a seat in), if nobody asked for its
    rematch yet: the game "Play again with ..." repeats (games.services.rematch)."""
    return (
        Game.objects.filter(status=Game.Status.FINISHED, rematches__isnull=True)
        .filter(memberships__user=viewer, memberships__seat__isnull=False)
        .filter(memberships__user_id=friend_id, memberships__seat__isnull=False)
        .order_by("-finished_at", "-pk")
        .first()
    )


def panel(viewer: Any) -> Panel:
    """The lobby's friends panel for `viewer`."""
    friends = accounts_friends.friends_of(viewer.pk)
    shown = [f for f in friends if not f.hide_presence]
    online = presence.online_user_ids(f.pk for f in shown)
    tables = _tables(viewer, shown) if shown else {}
    rows = []
    for friend in friends:
        game = play_again_game(viewer, friend.pk)
        others: tuple[str, ...] = ()
        if game is not None:
            others = tuple(
                m.name
                for m in game.memberships.select_related("user").order_by("seat")
                if m.seat is not None and m.user_id != viewer.pk
            )
        rows.append(
            FriendRow(
                user=friend,
                hidden=friend.hide_presence,
                online=friend.pk in online or friend.pk in tables,
                tables=tuple(tables.get(friend.pk, ())),
                play_again=game,
                play_again_with=others,
            )
        )
    # Who is around first, then by name (friends_of's order).
    rows.sort(key=lambda r: (not r.tables, not r.online))
    return Panel(
        rows,
        accounts_friends.requests_received(viewer),
        accounts_friends.requests_sent(viewer),
    )


def friends_games(viewer: Any) -> QuerySet[Game]:
    """Public games waiting for players in which a friend of `viewer` holds a seat, that
    `viewer` could join (as the open games list decides), newest first; none organized by
    somebody who blocked them (or whom they blocked)."""
    ids = accounts_friends.friend_ids(viewer.pk)
    if not ids:
        return Game.objects.none()
    seated = Membership.objects.filter(user_id__in=ids, seat__isnull=False).values("game_id")
    return (
        Game.objects.with_people()
        .open_to(viewer)
        .filter(pk__in=seated)
        .exclude(organizer_id__in=blocking.blocked_either_way(viewer.pk))
        .order_by("-created_at")[:10]
    )


def invite_suggestions(viewer: Any, game: Game) -> list[User]:
    """Who the invite box offers with one click: the viewer's friends, then the people of
    their latest games, none already in `game` and none blocked either way."""
    taken = set(game.memberships.filter(user__isnull=False).values_list("user_id", flat=True))
    blocked = blocking.blocked_either_way(viewer.pk)
    out: list[User] = []
    seen: set[int] = set()
    recent = past_games.recent_people(viewer, viewer, count=SUGGESTIONS * 2)
    for user in [*accounts_friends.friends_of(viewer.pk), *recent]:
        if user.pk in taken or user.pk in blocked or user.pk in seen or user.pk == viewer.pk:
            continue
        seen.add(user.pk)
        out.append(user)
        if len(out) == SUGGESTIONS:
            break
    return out


def befriendable(viewer: Any, rows: list[past_games.PastGame]) -> set[str]:
    """The usernames in these past games' seat lists the viewer may ask to be friends (an
    "Add friend" button by each): not the viewer, not a friend, no request either way
    waiting, no block either way (so the button never hints at one)."""
    names = {p.username for row in rows for p in row.players if p.username}
    names.discard(viewer.username)
    if not names:
        return set()
    users = dict(User.objects.filter(username__in=names).values_list("pk", "username"))
    skip = accounts_friends.friend_ids(viewer.pk) | blocking.blocked_either_way(viewer.pk)
    pending = FriendRequest.objects.filter(sender=viewer, receiver_id__in=users).values_list(
        "receiver_id", flat=True
    )
    asked = FriendRequest.objects.filter(receiver=viewer, sender_id__in=users).values_list(
        "sender_id", flat=True
    )
    skip |= set(pending) | set(asked)
    return {name for pk, name in users.items() if pk not in skip}
