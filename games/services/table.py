"""Moves at the table, for every game kind: start a game's log, load its state, submit a move.

A game is its kind, options and seed plus the append-only `GameAction` log of (seat, action).
`begin` stores the dealt state as `Snapshot(seq=0)`; every action that starts a new hand
stores another snapshot, so loading a game replays at most one hand however long it has run.
The rules come from the game's kind (`games.registry`), never from an `if` on the kind here.

Every write locks the game row first (`select_for_update`; SQLite serialises writers with
`transaction_mode=IMMEDIATE`), so two tabs submitting at once give one applied move and one
"the table changed" answer. A submission made from an older page is stale only if the
mover's own decision changed since (`rules.decision_key`): in a simultaneous phase other
seats' choices do not bounce yours. Notifications go out after commit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import clocks, mail, presence, realtime, registry, signals, thinking
from games.committed import CommittedCache, game_identity
from games.gamekind import BadAction, GameKind
from games.kinds.protocol import IllegalAction
from games.models import Game, GameAction, Membership, Snapshot
from games.ratings import service as ratings
from games.services.change import Moves, change_of

if TYPE_CHECKING:
    from accounts.models import User

STALE_MESSAGE = "The table changed; here is the current one."

# How a request names its action: from the game's kind and the mover's seat to the action (a
# view reads its POST with the kind's table; tests hand over an engine action).
ActionChoice = Callable[[GameKind, int], Any]


class TableError(Exception):
    """A refused request at the table; `str(error)` is shown to the player and `status` is
    the HTTP status of the answer."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleTable(TableError):
    """The player acted on an old view of the table."""

    status = 409

    def __init__(self, message: str = STALE_MESSAGE) -> None:
        super().__init__(message)


class NotAPlayer(TableError):
    """The user has no seat in this game (a spectator, an invitee or an outsider)."""

    status = 403


class RefusedMove(TableError):
    """The rules (or the game's status) refuse this move."""

    status = 422


class UnreadableMove(TableError):
    """The request does not name an action of this game."""

    status = 400


def kind_of(game: Game) -> GameKind:
    return registry.kind(game.kind)


# --- loading ---------------------------------------------------------------------------------


# Engine states by (game identity, number of actions): the state after the first `seq`
# actions of a game never changes once committed, so a process may keep it. Only committed
# states get in (`CommittedCache.put`). A move puts its new state here,
# so the page answering it and every socket's redraw of that version load nothing; a
# snapshot parsed from the database lands here too, keyed by its `seq`.
StateKey = tuple[int, str, float, int]
STATES: CommittedCache[StateKey, Any] = CommittedCache(size=4096)


def clear_state_cache() -> None:
    """Forget every state this process keeps (tests; a simulated restart)."""
    STATES.clear()


def _key(game: Game, seq: int) -> StateKey:
    return (*game_identity(game), seq)


def load_state(game: Game) -> Any:
    """The rules state after the game's `action_count` actions.

    Usually kept by this process already (the move that made it put it there). Otherwise:
    the latest snapshot (one per hand start; parsed once per process) plus the actions
    after it, so a load replays at most one hand however long the game has run.
    """
    key = _key(game, game.action_count)
    state = STATES.get(key)
    if state is not None:
        return state
    rules = kind_of(game).rules
    latest = (
        Snapshot.objects.filter(game=game, seq__lte=game.action_count)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    if latest is None:
        raise RefusedMove("This game has not started yet.")
    state = STATES.get(_key(game, latest))
    if state is None:
        state = rules.state_from_json(Snapshot.objects.get(game=game, seq=latest).state)
        STATES.put(_key(game, latest), state)
    if latest < game.action_count:
        actions = GameAction.objects.filter(
            game=game, seq__gt=latest, seq__lte=game.action_count
        ).order_by("seq")
        for seat, data in actions.values_list("seat", "move"):
            state = rules.apply(state, seat, rules.action_from_json(data))
        STATES.put(key, state)
    return state


def memberships(game: Game) -> tuple[Membership, ...]:
    """Every membership of the game (invitees too), users loaded: one query."""
    return tuple(game.memberships.select_related("user"))


def seated(game: Game, members: Iterable[Membership] | None = None) -> dict[int, Membership]:
    """The game's seated memberships by seat (picked from `members` if already read)."""
    if members is None:
        members = memberships(game)
    return {m.seat: m for m in members if m.seat is not None}


# --- starting --------------------------------------------------------------------------------


def begin(game: Game) -> Any:
    """Deal the first hand of `game` (called by the lobby's `start_game`, in its transaction).

    Stores Snapshot(seq=0), marks the game active and the seats to act. If bots act first,
    they play (now when bot moves are synchronous, else on a timer after commit).
    """
    if Snapshot.objects.filter(game=game).exists():
        raise RefusedMove("This game has already started.")
    rules = kind_of(game).rules
    members = memberships(game)
    players = len(seated(game, members))
    state = rules.initial_state(game.seed, players, game.options)
    Snapshot.objects.create(game=game, seq=0, state=rules.state_to_json(state))
    STATES.put(_key(game, 0), state)
    game.status = Game.Status.ACTIVE
    game.started_at = game.started_at or timezone.now()
    game.outcome = None
    game.save(update_fields=["status", "started_at", "outcome"])
    clocks.set_turns(game, frozenset(), rules.to_act(state))
    after_change(game, state, state, mover_seat=None, members=members)
    return state


# --- moving ----------------------------------------------------------------------------------


def record(game: Game, before: Any, seat: int, action: Any, *, auto: bool) -> Any:
    """Apply `seat`'s `action` to `before` and store it (call with the game row locked).

    Appends GameAction(seq=n+1), bumps the version, mirrors the seats to act and the outcome
    on the game, and snapshots the state when the action started a new hand.
    """
    rules = kind_of(game).rules
    after = rules.apply(before, seat, action)
    seq = game.action_count + 1
    GameAction.objects.create(
        game=game, seq=seq, seat=seat, move=rules.action_to_json(action), auto=auto
    )
    if rules.hand_number(after) != rules.hand_number(before):
        Snapshot.objects.create(game=game, seq=seq, state=rules.state_to_json(after))
    STATES.put(_key(game, seq), after)
    game.version += 1
    game.action_count = seq
    fields = ["version", "action_count"]
    outcome = rules.outcome(after)
    if outcome is not None:
        game.status = Game.Status.FINISHED
        game.outcome = asdict(outcome)
        game.finished_at = timezone.now()
        fields += ["status", "outcome", "finished_at"]
        ratings.game_over(game, after, outcome)
    game.save(update_fields=fields)
    clocks.set_turns(game, rules.to_act(before), rules.to_act(after), restarted=(seat,))
    return after


def bots_are_synchronous() -> bool:
    """With no pause between bot moves (tests), bots play inside the mover's transaction."""
    return float(settings.BOT_DELAY_SECONDS) <= 0


def bot_action(game: Game, state: Any, seat: int, member: Membership, *, ahead: int = 0) -> Any:
    """What the bot of `member`'s seat plays now (its own level, or the kind's seat bot for
    a human seat handed over), as the next action but `ahead`. Its randomness is seeded by
    the game and the move number; a search runs in a worker process (games/thinking.py)."""
    kind = kind_of(game)
    level = member.bot if member.bot in kind.bots else kind.seat_bot
    seed = f"{game.seed}:{game.action_count + ahead}:{seat}"
    return thinking.decide(kind, level, state, seat, seed)


def bot_seats(game: Game, state: Any, members: dict[int, Membership]) -> list[int]:
    """The seats to act now whose moves the server chooses, lowest first."""
    return [
        seat
        for seat in sorted(kind_of(game).rules.to_act(state))
        if (member := members.get(seat)) is not None and member.plays_itself
    ]


def play_bots_now(game: Game, state: Any, members: dict[int, Membership]) -> tuple[Any, Moves]:
    """Let every self-playing seat act until only humans are awaited, or the end (game row
    locked). Returns the state and the moves made."""
    moves: Moves = []
    while seats := bot_seats(game, state, members):
        seat = seats[0]
        action = bot_action(game, state, seat, members[seat])
        state = record(game, state, seat, action, auto=True)
        moves.append((seat, action))
    return state, moves


def after_change(
    game: Game,
    before: Any,
    after: Any,
    *,
    mover_seat: int | None,
    members: tuple[Membership, ...] | None = None,
    moves: Sequence[tuple[int, Any]] = (),
) -> Any:
    """Run synchronous bots, then queue the notifications (and bot timers) for after commit.

    `members` are every membership if the caller has just read them (`memberships(game)`,
    under the game's lock, after any change to them). `mover_seat` None: the game started or
    a seat changed hands, so everybody's turn may have changed. `moves`: what the caller
    recorded, when those moves are all that changed the game (its members apart from whose
    turn it is, their clocks and who plays them): the push then carries them, so another
    process advances its copy of the table without reading it (`games.basis.adopt`).
    """
    rules = kind_of(game).rules
    everyone = members if members is not None else memberships(game)
    by_seat = seated(game, everyone)
    moves = list(moves)
    if bots_are_synchronous():
        after, played = play_bots_now(game, after, by_seat)
        moves += played
    if game.move_seconds:  # the rows as the moves left them: the redraws show the clocks
        everyone = memberships(game)
        by_seat = seated(game, everyone)
    game_id = game.pk
    member_ids = [m.user_id for m in by_seat.values() if m.user_id is not None]
    waited = rules.to_act(before) if mover_seat is not None else frozenset()
    waiting = rules.to_act(after)

    def human(seat: int) -> int | None:
        member = by_seat.get(seat)
        if member is None or member.plays_itself or member.user_id is None:
            return None
        return member.user_id

    # It has just become these players' turn (they get the cue: chime, title, notification);
    # the mover who acts again (a trick's winner leads) is at the table already.
    fresh = [uid for s in waiting - waited if s != mover_seat and (uid := human(s)) is not None]
    ended = rules.outcome(after) is not None
    turn_changed = waited != waiting or mover_seat is None
    # Whose turn banner may change: the players whose turn ended or began (everybody's at
    # the start and the end, or when a seat changed hands).
    banner_for: list[int] | None = None
    if not ended and mover_seat is not None:
        banner_for = [
            m.user_id
            for seat in (waited ^ waiting) | {mover_seat}
            if (m := by_seat.get(seat)) is not None and m.user_id is not None
        ]

    # Word by email to those away from the table (sent later, unless they are back by then).
    if fresh:
        mail.turn_began(game, fresh)
    if ended:
        mail.game_ended(game)

    change = change_of(game, rules, moves, everyone) if moves else None

    def notify() -> None:
        # Prepares what every redraw of this version shares (games.basis), then pushes.
        signals.version_committed.send(sender=Game, game=game, members=everyone)
        # After the synchronous bots' moves.
        realtime.game_changed(game_id, game.version, change=change)
        if ended or turn_changed or fresh:
            realtime.lobby_changed(
                member_ids, banner_for=banner_for, turn_users=fresh, game_id=game_id
            )
        if ended and game.public:  # everyone's "Watch a game" list may change
            realtime.public_games_changed()

    transaction.on_commit(notify)
    if not bots_are_synchronous() and not ended and bot_seats(game, after, by_seat):
        transaction.on_commit(lambda: signals.bot_turn.send(sender=Game, game_id=game_id))
    return after


@transaction.atomic
def submit_move(
    *,
    game_id: int,
    user: User,
    choice: ActionChoice,
    seen_version: int,
    seen_turn: str = "",
) -> Game:
    """Apply `choice` for the seat `user` holds in the game; one transaction, row locked.

    `seen_version` and `seen_turn` (the decision key the page showed) come from the page the
    player acted on. Raises NotAPlayer (no seat), StaleTable (the player's own decision
    changed since that page), UnreadableMove, RefusedMove (the rules or the game's status
    refuse it). Nothing is stored unless the move is accepted.
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    members = memberships(game)
    member = next((m for m in members if m.user_id == user.pk), None)  # one per user
    if member is None or member.seat is None:
        raise NotAPlayer("Only the players at this table can make moves.")
    # The mover is here: stamped now, not after the answer (games/middleware.py), so the
    # pages this move redraws never list them as away.
    presence.seen(game.pk, user.pk)
    if game.status == Game.Status.WAITING:
        raise RefusedMove("This game has not started yet.")
    kind = kind_of(game)
    if seen_version != game.version and game.status == Game.Status.ACTIVE:
        # Another change came first: fine if this seat still faces the decision it saw.
        current = kind.rules.decision_key(load_state(game), member.seat)
        if not seen_turn or seen_turn != current:
            raise StaleTable()
    elif seen_version != game.version:
        raise StaleTable()
    if game.status == Game.Status.FINISHED:
        raise RefusedMove("The game is over.")
    if game.status == Game.Status.ABANDONED:
        raise RefusedMove("This game was abandoned.")
    if member.automated:
        raise RefusedMove("A bot plays your seat now.")
    try:
        action = choice(kind, member.seat)
    except BadAction as exc:
        raise UnreadableMove(str(exc)) from exc
    before = load_state(game)
    try:
        after = record(game, before, member.seat, action, auto=False)
    except IllegalAction as exc:
        raise RefusedMove(exc.message) from exc
    after_change(
        game, before, after, mover_seat=member.seat, members=members, moves=[(member.seat, action)]
    )
    return game
