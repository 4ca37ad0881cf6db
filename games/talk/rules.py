"""Who may write where, who reads what, and what may be said now: the ONE place that
decides table talk (docs/talk.md).

- Seated members write to the players' channel; signed-in spectators of a public game and
  unseated invitees write to the spectators' channel. Anybody else may not write, and a
  private game's outsiders do not even learn that it exists (404, as for its table).
- Everybody who may see the game reads the players' channel. The spectators' channel is
  hidden from the seated players while the game is under way (it might coach them); once
  the game is over (finished or abandoned) both channels are shown to all who may see it.
- Quick reactions are for seated players (a bubble by their seat); bots never talk.
- The organizer sets the game's talk: chat and reactions, reactions only, or nothing. A
  rated game is reactions-only while a hand is being played: free chat before the first
  move of a hand (between hands) and after the game.
- `hidden_senders(viewer)`: whose words a viewer does not see (their mutes, and blocks
  either way).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import blocking
from games.models import Game, Membership, Snapshot
from games.talk.models import Channel, ChatMute

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django_stubs_ext import StrOrPromise

    from accounts.models import User

# code -> (what the bubble shows, its name for screen readers and the log), in the order of
# the buttons; the keys 1-8 send them (static/js/talk.js). Stored as codes: the words are
# said in the reader's language when drawn.
REACTIONS: dict[str, tuple[StrOrPromise, StrOrPromise]] = {
    "nice": (_("Nice!"), _("Nice!")),
    "oops": (_("Oops"), _("Oops")),
    # Translators: a quick reaction at a card table, to another player's play.
    "well_played": (_("Well played"), _("Well played")),
    "good_game": (_("Good game"), _("Good game")),
    "thinking": (_("Thinking…"), _("Thinking…")),
    # Faces from the start of Unicode's Emoticons block, which even
    # fonts without colour emoji have (DejaVu Sans).
    "smile": ("😊", _("Smiling")),
    "laugh": ("😄", _("Laughing")),
    "wow": ("😮", _("Wow")),
}

OVER = (Game.Status.FINISHED, Game.Status.ABANDONED)


@dataclass(frozen=True)
class Viewer:
    """What talk needs to know of one person at one game."""

    user_id: int | None
    member: Membership | None
    may_see: bool  # the game's table or room (a member, or anybody signed in if public)

    @property
    def seated(self) -> bool:
        return self.member is not None and self.member.seat is not None

    @property
    def seat(self) -> int | None:
        return self.member.seat if self.member is not None else None


def viewer_of(game: Game, user: User) -> Viewer:
    if not getattr(user, "is_authenticated", False):
        return Viewer(None, None, False)
    member = Membership.objects.filter(game=game, user=user).first()
    return Viewer(user.pk, member, game.public or member is not None)


def viewer_among(game: Game, user: User | AnonymousUser, members: Iterable[Membership]) -> Viewer:
    """As `viewer_of`, from the game's memberships the caller has read (all of them)."""
    if not getattr(user, "is_authenticated", False):
        return Viewer(None, None, False)
    member = next((m for m in members if m.user_id == user.pk), None)
    return Viewer(user.pk, member, game.public or member is not None)


def write_channel(game: Game, viewer: Viewer) -> str | None:
    """The channel `viewer` writes to, or None (may not write at all)."""
    if not viewer.may_see or viewer.user_id is None:
        return None
    if viewer.seated:
        return Channel.PLAYERS
    return Channel.SPECTATORS  # an unseated invitee, or a spectator of a public game


def reads(channel: str, *, may_see: bool, seated: bool, over: bool) -> bool:
    """Whether somebody reads `channel`: everybody who may see the game reads the players';
    the spectators' is hidden from the seated players until the game is `over`."""
    return may_see and (channel == Channel.PLAYERS or not seated or over)


def read_channels(game: Game, viewer: Viewer) -> frozenset[str]:
    """The channels `viewer` reads (none if they may not see the game)."""
    over = game.status in OVER
    return frozenset(
        channel
        for channel in (Channel.PLAYERS, Channel.SPECTATORS)
        if reads(channel, may_see=viewer.may_see, seated=viewer.seated, over=over)
    )


def hiding(sender_id: int) -> set[int]:
    """The users who do not see `sender_id`'s words: `hidden_senders` asked the other way
    round (those who muted the sender, and blocks either way), for a line drawn once."""
    muted_by = set(ChatMute.objects.filter(muted_id=sender_id).values_list("user_id", flat=True))
    return muted_by | blocking.blocked_either_way(sender_id)


def hidden_senders(viewer_id: int | None) -> set[int]:
    """The users whose words and reactions `viewer_id` does not see: those they muted, and
    those they blocked or who blocked them (two players of a running game who block each
    other each stop seeing the other: docs/friends.md)."""
    if viewer_id is None:
        return set()
    muted = set(ChatMute.objects.filter(user_id=viewer_id).values_list("muted_id", flat=True))
    return muted | blocking.blocked_either_way(viewer_id)


def hand_in_progress(game: Game) -> bool:
    """Whether a hand is being played: the game is on and a move has been made since the
    current hand began (the platform snapshots every hand's start, games/services/recording.py)."""
    if game.status != Game.Status.ACTIVE:
        return False
    start = (
        Snapshot.objects.filter(game=game, seq__lte=game.action_count)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return start is not None and game.action_count > start


def is_rated(game: Game) -> bool:
    from games.ratings.service import rated

    seated = Membership.objects.filter(game=game, seat__isnull=False)
    return rated(game, seated)


class Refused(Exception):
    """Talk that may not be said: a sentence for the person, and the status to answer."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


RATED_NOTE = _("Rated game: reactions only while a hand is played; chat is open between hands.")


def check_chat(game: Game, viewer: Viewer) -> str:
    """The channel `viewer` may write a message to now, or Refused saying why."""
    channel = write_channel(game, viewer)
    if channel is None:
        raise Refused(gettext("You cannot talk at this game."))
    if game.talk_mode == Game.Talk.OFF:
        raise Refused(gettext("The organizer has turned table talk off for this game."))
    if game.talk_mode == Game.Talk.REACTIONS:
        raise Refused(gettext("The organizer allows reactions only at this game."))
    if game.rated != Game.Rated.NO and hand_in_progress(game) and is_rated(game):
        raise Refused(
            gettext(
                "This is a rated game: chat opens when this hand is over. "
                "Reactions only until then."
            )
        )
    return channel


def check_reaction(game: Game, viewer: Viewer) -> None:
    """Refused unless `viewer` may send a quick reaction now."""
    if write_channel(game, viewer) is None:
        raise Refused(gettext("You cannot talk at this game."))
    if not viewer.seated:
        raise Refused(
            gettext("Reactions are for the players at the table; write in the chat instead.")
        )
    if game.talk_mode == Game.Talk.OFF:
        raise Refused(gettext("The organizer has turned table talk off for this game."))
