"""A game and its seats: the `Game` row (its kind, options, seed, status and version) with
the queries the lobby lists make of it, and each `Membership` (who sits where, a person or a
bot, and whose turn it is). Together because the lobby's queries filter games by their
memberships in one indexed step."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Count, F, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from accounts.models import User

MIN_PLAYERS = 2
MAX_PLAYERS = 10  # the largest table of any game kind (One Hundred and Four)
DEFAULT_KIND = "hundred-and-ten"

# Why a bot plays a human's seat (`Membership.cover_note`): stored in English as written
# here, and said in the reader's language when shown (`cover_text`).
COVER_TIMED_OUT = gettext_noop("away, a bot is playing for them")
COVER_ASKED = gettext_noop("%(name)s asked a bot to cover")
COVER_DECLINED = gettext_noop("%(name)s declined the rematch")


def cover_text(note: str) -> str:
    """A stored cover note in the active language (a note of another shape: as stored)."""
    if note == COVER_TIMED_OUT:
        return gettext(COVER_TIMED_OUT)
    for pattern in (COVER_ASKED, COVER_DECLINED):
        said = pattern.removeprefix("%(name)s")
        if note.endswith(said) and len(note) > len(said):
            return gettext(pattern) % {"name": note.removesuffix(said)}
    return note


def new_seed() -> str:
    return secrets.token_hex(16)


class GameQuerySet(models.QuerySet["Game"]):
    def of_member(self, user: User) -> GameQuerySet:
        """Games in which `user` holds any membership (organizer, player or invitee)."""
        return self.filter(memberships__user=user).distinct()

    def visible_to(self, user: User) -> GameQuerySet:
        """Games `user` may see: their own, plus public ones."""
        return self.filter(Q(memberships__user=user) | Q(public=True)).distinct()

    # --- lobby lists (games/presenters/lobby.py) -----------------------------------------

    def with_people(self) -> GameQuerySet:
        """Prefetch memberships with their users: lists show every player's name."""
        return self.prefetch_related(
            Prefetch("memberships", queryset=Membership.objects.select_related("user"))
        )

    def seated(self, user: User) -> GameQuerySet:
        """Games where `user` holds a seat (as organizer or player)."""
        return self.filter(memberships__user=user, memberships__seat__isnull=False)

    def your_turn(self, user: User) -> GameQuerySet:
        """Active games in which `user` must act (alone or with others), their seat not
        handed to a bot."""
        # One filter() call: the conditions apply to the same membership row.
        return self.filter(
            status=Game.Status.ACTIVE,
            memberships__user=user,
            memberships__must_act=True,
            memberships__automated=False,
        )

    def in_progress_for(self, user: User) -> GameQuerySet:
        """Active games `user` plays in where it is somebody else's turn."""
        turn = Game.objects.your_turn(user).values("pk")
        return self.seated(user).filter(status=Game.Status.ACTIVE).exclude(pk__in=turn)

    def waiting_for(self, user: User) -> GameQuerySet:
        """Games not started yet in which `user` already holds a seat."""
        return self.seated(user).filter(status=Game.Status.WAITING)

    def open_to(self, user: User) -> GameQuerySet:
        """Public games waiting for players that `user` could join (not full, not a member)."""
        players = Count("memberships", filter=Q(memberships__seat__isnull=False))
        return (
            self.filter(public=True, status=Game.Status.WAITING)
            .exclude(memberships__user=user)
            .annotate(player_count=players)
            .filter(player_count__lt=F("max_players"))
        )

    # --- past games and watching (games/services/past_games.py) ---------------------------

    def past_for(self, user: User) -> GameQuerySet:
        """Games `user` held a seat in that are over (finished or abandoned), newest first."""
        return (
            self.seated(user)
            .filter(status__in=(Game.Status.FINISHED, Game.Status.ABANDONED))
            .order_by("-finished_at", "-pk")
        )

    def watchable_by(self, user: User) -> GameQuerySet:
        """Public games in progress in which `user` holds no seat (they may watch)."""
        seats = Membership.objects.filter(user=user, seat__isnull=False).values("game_id")
        return self.filter(public=True, status=Game.Status.ACTIVE).exclude(pk__in=seats)


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    name = models.CharField(max_length=60)
    # Which game (a slug of games.registry.REGISTRY) and its rule options, chosen at creation.
    kind = models.CharField(max_length=32, default=DEFAULT_KIND)
    options = models.JSONField(default=dict, blank=True)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organized_games"
    )
    public = models.BooleanField(
        default=False, help_text=_("Anyone may see and join a public game.")
    )
    # The table's size: how many seats the waiting room offers (the kind allows it).
    max_players = models.PositiveSmallIntegerField(
        default=4,
        validators=[MinValueValidator(MIN_PLAYERS), MaxValueValidator(MAX_PLAYERS)],
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    # The pace: seconds a seat has for each move (live: 30 s to 2 min; correspondence: days),
    # or 0 for no clock (games/clocks/turns.py). When a clock runs out, a bot plays for the seat.
    move_seconds = models.PositiveIntegerField(default=0)
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    # Bumped by every change (lobby or move): a client that saw an older version is stale.
    version = models.PositiveIntegerField(default=0)
    # How many actions the log holds, updated with `version` in the same row write. Reads
    # replay only up to it, so a page shows the state that matches the version it carries
    # even while a newer move is being committed.
    action_count = models.PositiveIntegerField(default=0)
    # How the game ended (games.kinds.protocol.Outcome as JSON: "scores" per seat,
    # "winners", "winning_team"), set with the move that ends it.
    outcome = models.JSONField(null=True, blank=True)

    class Rated(models.TextChoices):
        PEOPLE = "people", _("Rated when every seat is a person")
        WITH_BOTS = "bots", _("Rated, bots included")
        NO = "no", _("Not rated")

    # Whether the game counts for the ratings (games/ratings/), chosen at creation.
    rated = models.CharField(max_length=8, choices=Rated.choices, default=Rated.PEOPLE)

    class Talk(models.TextChoices):
        ON = "on", _("Chat and reactions")
        REACTIONS = "reactions", _("Reactions only")
        OFF = "off", _("No table talk")

    # Table talk (games/talk/), as the organizer sets it: chat, reactions only, or nothing.
    talk_mode = models.CharField(max_length=10, choices=Talk.choices, default=Talk.ON)
    # Undo by consent (games/services/undo.py) of the log's last action: None, or which action
    # may be taken back and where the asking stands, e.g. {"seq": 41, "seat": 2, "asked":
    # [0, 3], "yes": [3]} (docs/undo.md). Written with `version`, copied by pushes.
    undo = models.JSONField(null=True, blank=True)
    # When an open question lapses unanswered: the deadline sweep looks for it here.
    undo_until = models.DateTimeField(null=True, blank=True)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The deadline sweep: questions of undo that lapse, among the few open at all.
            models.Index(
                fields=["undo_until"], condition=Q(undo_until__isnull=False), name="game_undo_due"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_players__gte=MIN_PLAYERS) & Q(max_players__lte=MAX_PLAYERS),
                name="game_max_players_2_to_10",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several when they share the win)."""
        return tuple((self.outcome or {}).get("winners", ()))


class Membership(models.Model):
    """A person's (or a bot's) place in a game. Players and the organizer have a seat."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        PLAYER = "player", _("Player")
        INVITEE = "invitee", _("Invitee")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # A bot's level: "easy", "medium" or "hard" (games/kinds/levels.py); "" for a human.
    bot = models.CharField(max_length=16, blank=True, default="")
    bot_name = models.CharField(max_length=40, blank=True)
    # A human seat handed to the bot ("automate"): the bot plays it from then on.
    automated = models.BooleanField(default=False)
    # Why a bot plays a human's seat, in English ("away, a bot is playing for them", "Carol
    # asked a bot to cover": COVER_*); empty when its player handed it over themselves.
    cover_note = models.CharField(max_length=80, blank=True)
    # The game waits for this seat (mirrors the rules' `to_act` after every change).
    must_act = models.BooleanField(default=False)
    # When the seat to act runs out of time (its clock), or, for a seat the server plays,
    # when its bot move is due (after the pause between machine moves, or the end of a
    # sweep's claim). Stored so that any process fires it, once (games/clocks/deadlines.py). None
    # when the seat is not awaited or has no clock.
    deadline = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)
    # Given an absent player's seat during the game: the seat is unrated (docs/ratings.md).
    stand_in = models.BooleanField(default=False)

    class Meta:
        ordering = ["seat", "joined_at"]
        indexes = [
            # The deadline sweep: due seats, among the few that have a deadline at all.
            models.Index(
                fields=["deadline"], condition=Q(deadline__isnull=False), name="membership_due"
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(user__isnull=False),
                name="one_membership_per_user_and_game",
            ),
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=Q(seat__isnull=False),
                name="unique_seat_per_game",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False, bot="") | Q(user__isnull=True) & ~Q(bot=""),
                name="membership_is_a_user_or_a_bot",
            ),
            models.CheckConstraint(
                condition=Q(role="invitee", seat__isnull=True)
                | ~Q(role="invitee") & Q(seat__isnull=False),
                name="players_have_seats_invitees_do_not",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game_id} ({self.role})"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def plays_itself(self) -> bool:
        """True when the server chooses this seat's moves (a bot, or an automated human)."""
        return self.is_bot or self.automated

    @property
    def cover_text(self) -> str:
        """`cover_note` as the table says it, in the active language."""
        return cover_text(self.cover_note)

    @property
    def name(self) -> str:
        if self.user is not None:
            return str(self.user.shown_name)
        return self.bot_name or gettext("Bot")
