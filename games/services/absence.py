"""Getting past an absent player: a bot covers their seat, a stand-in takes it over, or the
organizer abandons the game.

Absent means not present at the game (games/live/presence.py: no page of it open, and no request
on it for the away threshold) for some time: a player whose absence began at least
`settings.COVER_GRACE_SECONDS` ago may have their seat covered
by a bot (any other seated player asks) or given to one of the game's invitees (the
organizer decides). A player who never had the table open counts as away long enough. The
organizer may abandon a game in progress once every other human player has been away for
`settings.ABANDON_AFTER_SECONDS` (at once if nobody else is human).

Each service runs in one transaction with the game row locked, checks everything again
(the page may be old: the table is not redrawn when somebody leaves), and refuses with the
table's errors (`NotAPlayer` 403, `RefusedMove` 422, ...). `offers` decides what the table
shows each viewer (templates/games/_absence.html): the buttons appear as soon as a player
is disconnected, and a click before the grace time has passed says how long is left.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clocks import turns
from games.live import realtime
from games.live.presence import Presence, presence_of
from games.models import COVER_ASKED, Game, Invitation, Membership
from games.ratings import service as ratings
from games.services.errors import NotAPlayer, RefusedMove, TableError, UnreadableMove
from games.services.seats import changed_hands
from games.services.states import memberships, seated

if TYPE_CHECKING:
    from accounts.models import User


class NotOrganizer(TableError):
    """A player asks for something only the organizer may do."""

    status = 403


# --- how long somebody has been away -----------------------------------------------------------


def away_for(here: Presence, user_id: int) -> float | None:
    """How many seconds `user_id` has been away from the game: None while present (a page
    open, or a recent request), infinity when they never had it open (or their departure is
    forgotten)."""
    if here.present(user_id):
        return None
    away = here.away.get(user_id)
    return math.inf if away is None else float(away.seconds)


def how_long(seconds: float) -> str:
    """A time away, rounded down: "45 s", "3 min"."""
    whole = int(seconds)
    return _seconds(whole) if whole < 60 else _minutes(whole // 60)


def limit_text(seconds: int) -> str:
    """A time limit, exactly: "2 min", "90 s", "15 min"."""
    return _minutes(seconds // 60) if seconds >= 60 and seconds % 60 == 0 else _seconds(seconds)


def _seconds(count: int) -> str:
    # Translators: a duration in seconds, short ("45 s").
    return _("%(count)s s") % {"count": count}


def _minutes(count: int) -> str:
    # Translators: a duration in minutes, short ("3 min").
    return _("%(count)s min") % {"count": count}


def cover_grace() -> int:
    return int(settings.COVER_GRACE_SECONDS)


def abandon_after() -> int:
    return int(settings.ABANDON_AFTER_SECONDS)


def _require_away(member: Membership, here: Presence, seconds: int, too_soon: str) -> None:
    """Refuse unless `member`'s player has been away for `seconds`; `too_soon` is the
    sentence otherwise, with `%(name)s`, how long they have been away (`%(away)s`) and when
    it becomes possible (`%(limit)s`)."""
    assert member.user_id is not None
    away = away_for(here, member.user_id)
    if away is None:
        raise RefusedMove(_("%(name)s is at the table.") % {"name": member.name})
    if away < seconds:
        raise RefusedMove(
            too_soon % {"name": member.name, "away": how_long(away), "limit": limit_text(seconds)}
        )


# --- the services --------------------------------------------------------------------------


def _locked(game_id: int) -> tuple[Game, tuple[Membership, ...]]:
    game = Game.objects.select_for_update().get(pk=game_id)
    return game, memberships(game)


def _require_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise RefusedMove(_("Only a game in progress can do without a player."))


def _at_seat(members: Iterable[Membership], seat: int) -> Membership:
    member = next((m for m in members if m.seat is not None and m.seat == seat), None)
    if member is None:
        raise UnreadableMove(_("There is no such seat at this table."))
    return member


@transaction.atomic
def cover(*, game_id: int, by: User, seat: int) -> Game:
    """A seated player asks a bot to play the seat of a player who has been away for the
    grace time; the bot plays it (at once if it is that seat's turn) until its player takes
    it back."""
    game, members = _locked(game_id)
    mine = next((m for m in members if m.user_id == by.pk and m.seat is not None), None)
    if mine is None:
        raise NotAPlayer(_("Only the players at this table can ask a bot to cover a seat."))
    _require_active(game)
    target = _at_seat(members, seat)
    if target.pk == mine.pk:
        raise RefusedMove(_("That is your own seat: hand it to a bot yourself if you must go."))
    if target.user_id is None:
        raise RefusedMove(_("%(name)s is a bot already.") % {"name": target.name})
    if target.automated:
        raise RefusedMove(_("A bot plays %(name)s’s seat already.") % {"name": target.name})
    _require_away(
        target,
        presence_of(game.pk, [target.user_id], fresh=True),
        cover_grace(),
        _("%(name)s has been away only %(away)s; a bot can cover after %(limit)s."),
    )
    target.automated = True
    target.cover_note = (COVER_ASKED % {"name": by.shown_name})[:80]  # English: cover_text
    target.save(update_fields=["automated", "cover_note"])
    changed_hands(game)
    return game


@transaction.atomic
def replace(*, game_id: int, by: User, seat: int, invitee_membership_id: int) -> Game:
    """The organizer gives the seat of a player who has been away for the grace time to one
    of the game's invitees, who plays on from there (the seat's hand is theirs now). The
    absent player leaves the game."""
    game, members = _locked(game_id)
    if game.organizer_id != by.pk:
        if not any(m.user_id == by.pk and m.seat is not None for m in members):
            raise NotAPlayer(_("Only the organizer can give a seat to somebody else."))
        raise NotOrganizer(_("Only the organizer can give a seat to somebody else."))
    _require_active(game)
    target = _at_seat(members, seat)
    if target.user_id == by.pk:
        raise RefusedMove(_("You cannot give your own seat away."))
    if target.user_id is None:
        raise RefusedMove(
            _("%(name)s is a bot: only an absent player’s seat is given away.")
            % {"name": target.name}
        )
    newcomer = next(
        (m for m in members if m.pk == invitee_membership_id and m.role == Membership.Role.INVITEE),
        None,
    )
    if newcomer is None or newcomer.user_id is None:
        raise UnreadableMove(_("That person has no invitation to this game."))
    invitation = Invitation.objects.filter(
        game=game, invitee_id=newcomer.user_id, state=Invitation.State.PENDING
    ).first()
    if invitation is None:
        raise RefusedMove(_("%(name)s’s invitation is no longer open.") % {"name": newcomer.name})
    _require_away(
        target,
        presence_of(game.pk, [target.user_id], fresh=True),
        cover_grace(),
        _("%(name)s has been away only %(away)s; you can give the seat away after %(limit)s."),
    )
    gone_id = target.user_id
    # One seat per membership (a unique constraint): the absent player goes first.
    target.delete()
    newcomer.role = Membership.Role.PLAYER
    newcomer.seat = seat
    newcomer.must_act = target.must_act
    newcomer.automated, newcomer.cover_note = False, ""
    newcomer.stand_in = True  # an unrated seat (docs/ratings.md)
    newcomer.save(update_fields=["role", "seat", "must_act", "automated", "cover_note", "stand_in"])
    invitation.state = Invitation.State.ACCEPTED
    invitation.responded_at = timezone.now()
    invitation.save(update_fields=["state", "responded_at"])
    changed_hands(game)  # the newcomer's clock starts afresh on their turn
    transaction.on_commit(lambda: realtime.lobby_changed([gone_id]))
    return game


@transaction.atomic
def abandon(*, game_id: int, by: User) -> Game:
    """The organizer ends a game in progress that nobody else is playing any more: every
    other human player has been away for `ABANDON_AFTER_SECONDS` (or there is none)."""
    game, members = _locked(game_id)
    if game.organizer_id != by.pk:
        if not any(m.user_id == by.pk and m.seat is not None for m in members):
            raise NotAPlayer(_("Only the organizer can abandon this game."))
        raise NotOrganizer(_("Only the organizer can abandon this game."))
    if game.status != Game.Status.ACTIVE:
        raise RefusedMove(_("Only a game in progress can be abandoned."))
    others = [
        m for m in seated(game, members).values() if m.user_id is not None and m.user_id != by.pk
    ]
    here = presence_of(game.pk, [m.user_id for m in others if m.user_id is not None], fresh=True)
    for member in others:
        _require_away(
            member,
            here,
            abandon_after(),
            _("%(name)s has been away only %(away)s; you can abandon the game after %(limit)s."),
        )
    game.status = Game.Status.ABANDONED
    game.finished_at = timezone.now()
    game.version += 1
    game.save(update_fields=["status", "finished_at", "version"])
    ratings.game_abandoned(game, members, present={by.pk})
    turns.clear(game)
    game_id, version = game.pk, game.version
    people = [m.user_id for m in members if m.user_id is not None]
    transaction.on_commit(lambda: realtime.game_changed(game_id, version))
    transaction.on_commit(lambda: realtime.lobby_changed(people))
    if game.public:  # everyone's "Watch a game" list may change
        transaction.on_commit(realtime.public_games_changed)
    return game


# --- what the table offers -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class AbsentSeat:
    """A seat whose player is not at the table, and what the viewer may do about it."""

    seat: int
    name: str
    away: str  # "away 3 min"; "" when they never had the table open
    cover: bool  # the viewer may ask a bot to cover it
    replace: bool  # the viewer (the organizer) may give it to an invitee
    early: bool  # the grace time has not passed yet: a click says how long is left
    seconds: int = 0  # how long they had been away when drawn (the page counts on: table.js)
    ready_in: int = 0  # seconds until the grace time has passed (the page hides the hint then)


@dataclasses.dataclass(frozen=True)
class Offers:
    """What `_absence.html` shows one viewer of a game in progress."""

    seats: tuple[AbsentSeat, ...] = ()
    invitees: tuple[tuple[int, str], ...] = ()  # (membership id, name), for `replace`
    invite: bool = False  # the organizer may invite a stand-in (a seat is absent)
    abandon: bool = False  # the organizer may try: everybody else is disconnected
    abandon_early: bool = False  # ... but not for long enough yet
    abandon_ready_in: int = 0  # seconds until it is long enough (the page hides the hint then)
    stand_in: str = ""  # the viewer is an invitee: who can give them a seat
    links: tuple[Invitation, ...] = ()  # the organizer's unused stand-in links
    grace: str = ""  # "2 min"
    abandon_after: str = ""  # "15 min"


def offers(
    game: Game, members: Iterable[Membership], viewer: Membership | None, here: Presence
) -> Offers | None:
    """What the table offers `viewer` about absent players (None: nothing). Pure: `members`
    are every membership (invitees too) and `here` who is connected."""
    if game.status != Game.Status.ACTIVE or viewer is None or viewer.user_id is None:
        return None
    everyone = list(members)
    organizer = next((m for m in everyone if m.user_id == game.organizer_id), None)
    if viewer.role == Membership.Role.INVITEE:
        name = organizer.name if organizer is not None else _("The organizer")
        return Offers(stand_in=name)
    if viewer.seat is None:
        return None
    is_organizer = viewer.user_id == game.organizer_id
    invitees = tuple(
        (m.pk, m.name)
        for m in everyone
        if m.role == Membership.Role.INVITEE and m.user_id is not None
    )
    grace, after = cover_grace(), abandon_after()
    others = sorted(
        (m for m in everyone if m.seat is not None and m.user_id not in (None, viewer.user_id)),
        key=lambda m: m.seat or 0,
    )
    absent = []
    quiet = []  # how long each other human has been away (None: connected)
    for member in others:
        assert member.user_id is not None and member.seat is not None
        away = away_for(here, member.user_id)
        quiet.append(away)
        if away is None:
            continue
        # Anyone may ask them to come back (games.mail); a bot covers a seat not covered yet.
        cover = not member.automated
        replace = is_organizer and bool(invitees)
        seen = here.away.get(member.user_id)
        absent.append(
            AbsentSeat(
                seat=member.seat,
                name=member.name,
                away=seen.text if seen is not None else "",
                cover=cover,
                replace=replace,
                early=away < grace,
                seconds=seen.seconds if seen is not None else 0,
                ready_in=_wait(grace, away),
            )
        )
    abandon = is_organizer and all(away is not None for away in quiet)
    if not absent and not abandon:
        return None
    return Offers(
        seats=tuple(absent),
        invitees=invitees if is_organizer else (),
        invite=is_organizer and bool(absent),
        abandon=abandon,
        abandon_early=abandon and any(away is not None and away < after for away in quiet),
        abandon_ready_in=max((_wait(after, away) for away in quiet if away is not None), default=0),
        grace=limit_text(grace),
        abandon_after=limit_text(after),
    )


def _wait(limit: int, away: float) -> int:
    """Whole seconds (rounded up) until somebody away for `away` seconds reaches `limit`."""
    return 0 if away >= limit else math.ceil(limit - away)


def table_offers(
    game: Game, members: Iterable[Membership], viewer: Membership | None, here: Presence
) -> Offers | None:
    """`offers`, with the organizer's open stand-in links when the invite box shows (one
    query then, none otherwise)."""
    found = offers(game, members, viewer, here)
    if found is None or not found.invite or viewer is None:
        return found
    links = Invitation.objects.filter(
        game=game,
        inviter_id=viewer.user_id,
        state=Invitation.State.PENDING,
        token__isnull=False,
        invitee__isnull=True,
    ).order_by("-created_at")
    open_links = tuple(link for link in links if not link.has_expired())
    return dataclasses.replace(found, links=open_links)
