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

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import blocking
from accounts import friends as accounts_friends
from accounts.models import User
from games.live import presence
from games.live.online import online_until
from games.models import Game, Membership
from games.services import past_games, player_page

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
        """ "at a table", "online", "offline" or "" (hidden): a code, for the page's class."""
        if self.hidden:
            return ""
        if self.tables:
            return "at a table"
        return "online" if self.online else "offline"

    @property
    def status_text(self) -> str:
        """`status` as the panel says it, in the active language."""
        said = {
            # Translators: a friend's status: playing a game now.
            "at a table": _("at a table"),
            "online": _("online"),
            "offline": _("offline"),
        }
        return said.get(self.status, "")


@dataclass(frozen=True)
class Request:
    """A friend request waiting, as the panel shows it: the other person."""

    user: User


@dataclass(frozen=True)
class Panel:
    friends: list[FriendRow] = field(default_factory=list)
    received: list[Request] = field(default_factory=list)
    sent: list[Request] = field(default_factory=list)
    # When the first friend shown online stops being so (seconds since the epoch), unless
    # seen again: the lobby's socket redraws the panel then (games/consumers/user.py).
    offline_at: float | None = None


def _tables(viewer: User, shown: list[User]) -> dict[int, list[Table]]:
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


def play_again_games(viewer: User, friend_ids: set[int]) -> dict[int, Game]:
    """For each friend, the latest finished game both played (held a seat in) whose
    rematch nobody asked for yet: the game "Play again with ..." repeats
    (games.services.rematch). One query, whatever the number of friends."""
    mine = Membership.objects.filter(user=viewer, seat__isnull=False).values("game_id")
    theirs = (
        Membership.objects.filter(
            user_id__in=friend_ids,
            seat__isnull=False,
            game__status=Game.Status.FINISHED,
            game__rematches__isnull=True,
            game_id__in=mine,
        )
        .select_related("game")
        .order_by("-game__finished_at", "-game_id")
    )
    games: dict[int, Game] = {}
    for member in theirs:
        games.setdefault(member.user_id or 0, member.game)
    return games


def panel(viewer: User, ties: accounts_friends.Circle) -> Panel:
    """The lobby's friends panel for `viewer` (`ties`: their circle)."""
    wanted = {*ties.friends, *ties.sent, *ties.received}
    if not wanted:
        return Panel()
    people = {u.pk: u for u in User.objects.filter(pk__in=wanted, is_active=True)}
    friends = sorted(
        (people[pk] for pk in ties.friends if pk in people), key=lambda u: u.shown_name.casefold()
    )
    shown = [f for f in friends if not f.hide_presence]
    online = online_until(f.pk for f in shown)
    tables = _tables(viewer, shown) if shown else {}
    again = play_again_games(viewer, {f.pk for f in friends}) if friends else {}
    names: dict[int, list[str]] = defaultdict(list)
    if again:
        seats = Membership.objects.filter(
            game_id__in={g.pk for g in again.values()}, seat__isnull=False
        ).select_related("user")
        for member in sorted(seats, key=lambda m: m.seat or 0):
            if member.user_id != viewer.pk:
                names[member.game_id].append(member.name)
    rows = []
    for friend in friends:
        game = again.get(friend.pk)
        shows = not friend.hide_presence
        rows.append(
            FriendRow(
                user=friend,
                hidden=friend.hide_presence,
                online=shows and (friend.pk in online or friend.pk in tables),
                tables=tuple(tables.get(friend.pk, ())) if shows else (),
                play_again=game,
                play_again_with=tuple(names[game.pk]) if game else (),
            )
        )
    # Who is around first, then by name.
    rows.sort(key=lambda r: (not r.tables, not r.online))
    return Panel(
        rows,
        [Request(people[pk]) for pk in ties.received if pk in people],
        [Request(people[pk]) for pk in ties.sent if pk in people],
        offline_at=min(online.values(), default=None),
    )


def friends_games(viewer: User, ties: accounts_friends.Circle) -> QuerySet[Game]:
    """Public games waiting for players in which a friend of `viewer` holds a seat, that
    `viewer` could join (as the open games list decides), newest first; none organized by
    somebody who blocked them (or whom they blocked)."""
    if not ties.friends:
        return Game.objects.none()
    seated = Membership.objects.filter(user_id__in=ties.friends, seat__isnull=False).values(
        "game_id"
    )
    return (
        Game.objects.with_people()
        .open_to(viewer)
        .filter(pk__in=seated)
        .exclude(organizer_id__in=ties.blocked)
        .order_by("-created_at")[:10]
    )


def invite_suggestions(viewer: User, game: Game) -> list[User]:
    """Who the invite box offers with one click: the viewer's friends, then the people of
    their latest games, none already in `game` and none blocked either way."""
    taken = set(game.memberships.filter(user__isnull=False).values_list("user_id", flat=True))
    blocked = blocking.blocked_either_way(viewer.pk)
    out: list[User] = []
    seen: set[int] = set()
    recent = player_page.recent_people(viewer, viewer, count=SUGGESTIONS * 2)
    for user in [*accounts_friends.friends_of(viewer.pk), *recent]:
        if user.pk in taken or user.pk in blocked or user.pk in seen or user.pk == viewer.pk:
            continue
        seen.add(user.pk)
        out.append(user)
        if len(out) == SUGGESTIONS:
            break
    return out


def befriendable(
    viewer: User, rows: list[past_games.PastGame], ties: accounts_friends.Circle
) -> set[str]:
    """The usernames in these past games' seat lists the viewer may ask to be friends (an
    "Add friend" button by each): not the viewer, not a friend, no request either way
    waiting, no block either way (so the button never hints at one). No query."""
    names = {p.username for row in rows for p in row.players if p.username}
    return names - ties.skipped_names() - {viewer.username}
