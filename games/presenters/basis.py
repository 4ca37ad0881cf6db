"""What the table shows alike to every viewer of one version of a game: `TableBasis`.

What is the same for every viewer of a version (memberships, names, the state, the side
panel built from the spectators' view) is computed once per version and process
(`table_basis`), so a move's redraws (its answer, every socket) share it. The basis keeps
the game row it was built from, so a socket told "version v" redraws with no query when this
process already knows v (`known_game`), and a process that did not make a move follows it
on its own copy (`adopt`). What each viewer adds is in games/presenters/context.py.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString

from games import registry
from games.addresses import game_url, table_urls
from games.gamekind import GameKind
from games.kinds.protocol import IllegalAction
from games.live import sockets
from games.live.committed import CommittedCache, game_identity
from games.models import Game, Membership
from games.ratings import board
from games.ratings.scale import Shown
from games.services import states

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

log = logging.getLogger(__name__)


def names_of(members: dict[int, Membership], players: int) -> tuple[str, ...]:
    return tuple(members[s].name if s in members else f"Seat {s + 1}" for s in range(players))


@dataclass(frozen=True)
class TableBasis:
    """What the table shows alike to every viewer of one version of a game.

    Built once per version and process (`table_basis`), then shared by the page that
    answers a move and by every socket's redraw of that version: each viewer only adds
    their own seat's part (`table_context`). It holds the whole rules state, hands
    included, so it never leaves the server: only views built with `rules.view` do.
    """

    kind: GameKind
    members: tuple[Membership, ...]  # every membership (invitees too), users loaded
    seated: dict[int, Membership]
    state: Any  # None until the game has started
    public: Any  # the state as a spectator sees it (`rules.view(state, None)`), or None
    names: tuple[str, ...]
    urls: dict[str, str]
    rematch_url: str
    side_key: str  # what the side panel (#table-side, the same for everybody) shows
    game: Game  # the row at this version: this basis's own copy, only ever read
    # Each seat's rating in this game (games/ratings/board.py), by seat: they change only
    # when the game ends, so a version built in memory (`adopt`) keeps the one before's.
    ratings: dict[int, Shown] = field(default_factory=dict)
    # Whether a hand is being played at this version (a move made since the hand began):
    # a rated game's chat is closed then (games/talk/rules.py). Known without a query when
    # the version is followed in memory (`adopt`), so a socket redraws its chat composer
    # with the table when it opens or closes (games/consumers/tables.py).
    in_hand: bool = False
    # Whether the version is known to be committed (`table_basis`): how a side panel drawn
    # later is kept.
    committed: bool = False
    # The side panel by language, each drawn when a viewer in that language first asks
    # (`side`): one drawing when everybody reads one language, as before languages.
    sides: dict[str, SafeString] = field(default_factory=dict, compare=False, repr=False)
    # The felt (every seat and the middle) and the middle alone as a spectator sees them,
    # drawn once for every viewer of this version (games/presenters/felt.py `Public`).
    felts: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def side(self) -> SafeString:
        """The side panel (#table-side) in the active language: the same for every viewer
        reading it."""
        if self.state is None:
            return SafeString("")
        language = translation.get_language()
        html = self.sides.get(language)
        if html is None:
            html = _side_panel(self, language)
            self.sides[language] = html  # a race draws it twice, and keeps either
        return html

    def member_of(self, user: User | AnonymousUser) -> Membership | None:
        """`user`'s membership (seated or not), or None for anybody else."""
        if not getattr(user, "is_authenticated", False):
            return None
        return next((m for m in self.members if m.user_id == user.pk), None)


BasisKey = tuple[int, str, float, int]
_BASES: CommittedCache[BasisKey, TableBasis] = CommittedCache(size=2048)
_SIDES: CommittedCache[tuple[Any, ...], SafeString] = CommittedCache(size=2048)
# A seat box's inside by its content: at a table of ten every viewer sees the nine other
# boxes alike, so each is drawn once per change instead of once per viewer.
_SEAT_BOXES: CommittedCache[str, SafeString] = CommittedCache(size=8192)
# The head above the felt (games/presenters/felt.py `head`) by what it shows: it changes with
# the facts, seldom with the version.
HEADS: CommittedCache[tuple[Any, ...], SafeString] = CommittedCache(size=2048)
# A committed version's members, read under the game's lock, kept when no socket of the game
# is open here to have its table built at once (`on_version_committed`).
_MEMBERS: CommittedCache[BasisKey, tuple[Membership, ...]] = CommittedCache(size=256)


def clear_table_cache() -> None:
    """Forget every shared table part of this process (tests)."""
    _BASES.clear()
    _SIDES.clear()
    _SEAT_BOXES.clear()
    HEADS.clear()
    _MEMBERS.clear()


def on_version_committed(
    sender: Any,
    *,
    game: Game,
    members: tuple[Membership, ...],
    moves: dict[str, Any] | None = None,
    **_: Any,
) -> None:
    """After a commit, before the sockets are told: build the table's shared part for the
    committed version, so every redraw of it in this process reads nothing (`known_game`).
    When the change was moves alone (`moves`, as a push carries them) and the game goes on,
    from the version before, as every other process does (`adopt`): the ratings and whether
    a hand is in progress come along instead of being read again at each move (at the end
    they are read: the ratings have just changed). Read from the database only when a socket
    of the game is open here (`live.sockets`): else whoever draws the version first builds it,
    with the members read under the lock (`_MEMBERS`).
    Connected to `games.signals.version_committed`."""
    try:
        followed = (
            moves is not None
            and game.status != Game.Status.FINISHED
            and adopt(game.pk, game.version, moves) is not None
        )
        if followed:
            return
        if sockets.any_open(game.pk):
            table_basis(game, members)
        else:  # kept for whoever draws this version here first (a move's answer)
            _MEMBERS.put_now((*game_identity(game), game.version), members)
    except Exception:  # best effort: without it each redraw reads what it needs
        log.exception("could not prepare the redraws of game %s", game.pk)


def adopt(game_id: int, version: int, change: dict[str, Any]) -> Game | None:
    """The game row at `version`, with the table's shared part for it built in memory from
    this process's basis of the version before and the `change` a push carried
    (`services.change.change_of`: the moves, the row's fields, the members'); None when this
    process has no basis of that version before (then the caller reads the database).

    This is how a process that did not make a move redraws its sockets for it without a
    query or a replay from the last snapshot: it makes the same moves on its own copy."""
    try:
        identity = _identity_in(change, game_id)
        if identity is None:
            return None
        basis = _BASES.get((*identity, version))
        if basis is not None:
            return basis.game
        before = _BASES.get((*identity, int(change["from"])))
        if before is None or before.state is None:
            return None
        rules = before.kind.rules
        state = before.state
        in_hand = before.in_hand
        for seat, data in change["actions"]:
            last = state
            state = rules.apply(state, int(seat), rules.action_from_json(data))
            # A move that starts a new hand leaves none in progress (its snapshot marks it).
            in_hand = rules.hand_number(state) == rules.hand_number(last)
        game = copy.copy(before.game)
        row = change["row"]
        game.version = version
        game.action_count = int(row["action_count"])
        game.status = str(row["status"])
        game.outcome = row["outcome"]
        finished = row["finished_at"]
        game.finished_at = datetime.fromisoformat(finished) if finished else None
        game.talk_mode = str(row.get("talk_mode", game.talk_mode))
        game.undo, game.undo_until = row.get("undo"), None  # a move leaves no question open
        fields = {int(pk): rest for pk, *rest in change["members"]}
        if set(fields) != {m.pk for m in before.members}:
            return None  # somebody joined or left: read them
        members = []
        for old in before.members:
            member = copy.copy(old)
            must_act, deadline, automated, cover_note = fields[old.pk]
            member.must_act = bool(must_act)
            member.deadline = datetime.fromisoformat(deadline) if deadline else None
            member.automated = bool(automated)
            member.cover_note = str(cover_note)
            members.append(member)
    except (KeyError, TypeError, ValueError, IndexError, IllegalAction):
        log.exception("could not follow the change to version %s of game %s", version, game_id)
        return None
    states.STATES.put_now((*identity, game.action_count), state)
    in_hand = in_hand and game.status == Game.Status.ACTIVE
    basis = table_basis(
        game, tuple(members), committed=True, ratings=before.ratings, in_hand=in_hand
    )
    return basis.game


def adoptable(game_id: int, version: int, change: dict[str, Any]) -> bool:
    """Whether `adopt` would build that version in memory alone: this process keeps the
    version before, and the change does not end the game (a finished table looks up its
    rematch in the database)."""
    try:
        identity = _identity_in(change, game_id)
        if identity is None:
            return False
        if _BASES.get((*identity, version)) is not None:
            return True
        return (
            _BASES.get((*identity, int(change["from"]))) is not None
            and change["row"]["status"] != Game.Status.FINISHED
        )
    except (KeyError, TypeError, ValueError, IndexError):
        return False


def _identity_in(change: dict[str, Any], game_id: int) -> tuple[int, str, float] | None:
    """The game identity a change names (`game_identity`), if it is `game_id`'s; raises
    KeyError, TypeError, ValueError or IndexError when the change is malformed."""
    raw = change["identity"]
    identity = (int(raw[0]), str(raw[1]), float(raw[2]))
    return identity if identity[0] == game_id else None


def known_game(identity: tuple[int, str, float], version: int) -> Game | None:
    """The game row at `version` if this process has built that version's basis (a game's
    row changes only with its version), else None: then read it from the database."""
    basis = _BASES.get((*identity, version))
    return basis.game if basis is not None else None


def table_basis(
    game: Game,
    members: tuple[Membership, ...] | None = None,
    *,
    committed: bool = False,
    ratings: dict[int, Shown] | None = None,
    in_hand: bool | None = None,
) -> TableBasis:
    """The shared part of `game`'s table at `game.version` (one query and a cached state
    the first time in this process, nothing after that). `members`: every membership at
    that version, if the caller has read them (`services.states.memberships`). `committed`:
    the version is known to be committed (a push announced it), so the basis is kept at
    once, not when the current transaction commits (which asks the database, and `adopt`
    may run on the event loop)."""
    key = (*game_identity(game), game.version)
    basis = _BASES.get(key)
    if basis is not None:
        return basis
    kind = registry.kind(game.kind)
    if members is None:
        members = _MEMBERS.get(key) or states.memberships(game)
    seated = {m.seat: m for m in members if m.seat is not None}
    state = None if game.status == Game.Status.WAITING else states.load_state(game)
    names = names_of(seated, len(seated))
    if ratings is None:
        by_member = board.of_members(kind, seated.values())
        ratings = {seat: by_member[m.pk] for seat, m in seated.items() if m.pk in by_member}
    if in_hand is None:  # read: one query, only for a game in progress
        from games.talk.rules import hand_in_progress

        in_hand = game.status == Game.Status.ACTIVE and hand_in_progress(game)
    rematch_url = ""
    if game.status == Game.Status.FINISHED:
        rematch = Game.objects.filter(rematch_of=game).order_by("created_at").first()
        if rematch is not None:
            rematch_url = game_url("table", rematch.pk)
    public = kind.rules.view(state, None) if state is not None else None
    side_key = kind.table.side_key(public) if state is not None else ""
    basis = TableBasis(
        kind=kind,
        members=members,
        seated=seated,
        state=state,
        public=public,
        names=names,
        urls=table_urls(game.pk, kind.slug),
        rematch_url=rematch_url,
        side_key=side_key,
        game=copy.copy(game),  # the caller's row may go on to later versions (bots)
        ratings=ratings,
        in_hand=in_hand,
        committed=committed,
    )
    if state is not None:  # drawn now in the builder's language, as before languages
        language = translation.get_language()
        basis.sides[language] = _side_panel(basis, language)
    if committed:
        _BASES.put_now(key, basis)
    else:
        _BASES.put(key, basis)
    return basis


# What a seat dict holds for the felt around the box (games/_felt.html), not for the box:
# its group's name. Left out of the box's key. Nothing in a box depends on who looks at it
# (static/css/seats.css marks the viewer's own), so every viewer shares one drawing of it.
AROUND_THE_BOX = frozenset({"label"})


def seat_box(kind: GameKind, seat_turn: Any, s: dict[str, Any]) -> SafeString:
    """The inside of one seat's box (games/_seat.html and the game's seat template), drawn
    once for the same content. Everything the box shows is in `s` (and the game's word for
    a seat to act), so the key is their text, less what only the felt around it uses, and
    the language it is drawn in."""
    inputs = [(k, v) for k, v in s.items() if k not in AROUND_THE_BOX]
    key = repr((translation.get_language(), kind.slug, seat_turn, inputs))
    html = _SEAT_BOXES.get(key)
    if html is None:
        context = {"s": s, "kind": kind, "g": {"seat_turn": seat_turn}}
        html = SafeString(render_to_string("games/_seat.html", context))
        _SEAT_BOXES.put_now(key, html)
    return html


def _side_panel(basis: TableBasis, language: str) -> SafeString:
    """The side panel (score sheet, history) of `basis` in `language` (the active one),
    built from the spectators' view (`basis.public`; finished hands are open to all), so one
    rendering serves every viewer reading that language, and every version until its key
    changes."""
    key = (*game_identity(basis.game), basis.side_key, basis.names, language)
    html = _SIDES.get(key)
    if html is None:
        kind = basis.kind
        html = SafeString(
            render_to_string(
                "games/table.html#side",
                {
                    "side_key": basis.side_key,
                    "side_template": kind.table.side_template,
                    "g": kind.table.side(basis.public, basis.names),
                },
            )
        )
        if basis.committed:
            _SIDES.put_now(key, html)
        else:
            _SIDES.put(key, html)
    return html
