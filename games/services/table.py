"""Moves at the table: start a game's log, load its state, and submit a move.

A game is its seed plus the append-only `GameAction` log. `begin` stores the dealt state as
`Snapshot(seq=0)`; every action that starts a new round stores another snapshot, so loading
a game replays at most one round of actions however long the game has run.

Every write locks the game row first (`select_for_update`; SQLite serialises writers with
`transaction_mode=IMMEDIATE`), so two tabs submitting at once give one applied move and one
"the table changed" answer. Notifications go out after commit.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import engine, realtime
from games.committed import CommittedCache, game_identity
from games.engine import GameState, IllegalMove, Move
from games.models import Game, GameAction, Membership, Snapshot

log = logging.getLogger(__name__)

STALE_MESSAGE = "The table changed; here is the current one."

# Bidding amounts offered by the move form (0 = pass).
MOVE_KINDS = ("bid", "unpass", "trump", "discard", "play")


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


@dataclass(frozen=True)
class MoveChoice:
    """What the player chose, without a seat: the seat always comes from their Membership."""

    kind: str
    amount: int = 0
    suit: str = ""
    cards: tuple[engine.Card, ...] = field(default_factory=tuple)

    def as_move(self, seat: int) -> Move:
        if self.kind == "bid":
            return engine.Bid(seat, self.amount)
        if self.kind == "unpass":
            return engine.Unpass(seat)
        if self.kind == "trump":
            return engine.SelectTrump(seat, self.suit)
        if self.kind == "discard":
            return engine.Discard(seat, self.cards)
        if self.kind == "play" and len(self.cards) == 1:
            return engine.Play(seat, self.cards[0])
        raise RefusedMove("That is not a move of this game.")


# --- loading ---------------------------------------------------------------------------------


# Engine states by (game identity, number of actions): the state after the first `seq`
# actions of a game never changes once committed, so a process may keep it. Only committed
# states get in (`CommittedCache.put`). A move puts its new state here,
# so the page answering it and every socket's redraw of that version load nothing; a
# snapshot parsed from the database lands here too, keyed by its `seq`.
StateKey = tuple[int, str, float, int]
STATES: CommittedCache[StateKey, GameState] = CommittedCache(size=4096)


def clear_state_cache() -> None:
    """Forget every state this process keeps (tests; a simulated restart)."""
    STATES.clear()


def _key(game: Game, seq: int) -> StateKey:
    return (*game_identity(game), seq)


def load_state(game: Game) -> GameState:
    """The engine state after the game's `action_count` actions.

    Usually kept by this process already (the move that made it put it there). Otherwise:
    the latest snapshot (one per round start; parsed once per process) plus the actions
    after it, so a load replays at most one round however long the game has run.
    """
    key = _key(game, game.action_count)
    state = STATES.get(key)
    if state is not None:
        return state
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
        state = engine.state_from_json(Snapshot.objects.get(game=game, seq=latest).state)
        STATES.put(_key(game, latest), state)
    if latest < game.action_count:
        moves = GameAction.objects.filter(
            game=game, seq__gt=latest, seq__lte=game.action_count
        ).order_by("seq")
        for data in moves.values_list("move", flat=True):
            state = engine.apply(state, engine.move_from_json(data))
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


def begin(game: Game, *, target: int | None = None) -> GameState:
    """Deal the first round of `game` (called by the lobby's `start_game`, in its transaction).

    Stores Snapshot(seq=0), marks the game active and sets `active_seat`. If a bot speaks
    first, it plays (now when bot moves are synchronous, else on a timer after commit).
    `target` (default 110) is kept in the snapshot; long benchmark games raise it.
    """
    if Snapshot.objects.filter(game=game).exists():
        raise RefusedMove("This game has already started.")
    members = memberships(game)
    players = len(seated(game, members))
    state = engine.new_game(game.seed, players, target or engine.DEFAULT_TARGET)
    Snapshot.objects.create(game=game, seq=0, state=engine.state_to_json(state))
    STATES.put(_key(game, 0), state)
    game.status = Game.Status.ACTIVE
    game.started_at = game.started_at or timezone.now()
    game.active_seat = state.active_seat
    game.winner_seat = None
    game.save(update_fields=["status", "started_at", "active_seat", "winner_seat"])
    _after_change(game, state, state, mover_seat=None, members=members)
    return state


# --- moving ----------------------------------------------------------------------------------


def record(game: Game, before: GameState, move: Move, *, auto: bool) -> GameState:
    """Apply `move` to `before` and store it (call with the game row locked).

    Appends GameAction(seq=n+1), bumps the version, mirrors active/winner seat and status on
    the game, and snapshots the state when the move started a new round.
    """
    after = engine.apply(before, move)
    seq = game.action_count + 1
    GameAction.objects.create(
        game=game, seq=seq, seat=move.seat, move=engine.move_to_json(move), auto=auto
    )
    if after.round_index != before.round_index:
        Snapshot.objects.create(game=game, seq=seq, state=engine.state_to_json(after))
    STATES.put(_key(game, seq), after)
    game.version += 1
    game.action_count = seq
    game.active_seat = after.active_seat
    fields = ["version", "action_count", "active_seat"]
    if after.status == engine.Status.WON:
        game.status = Game.Status.FINISHED
        game.winner_seat = after.winner
        game.finished_at = timezone.now()
        fields += ["status", "winner_seat", "finished_at"]
    game.save(update_fields=fields)
    return after


def bots_are_synchronous() -> bool:
    """With no pause between bot moves (tests), bots play inside the mover's transaction."""
    return float(settings.BOT_DELAY_SECONDS) <= 0


def play_bots_now(game: Game, state: GameState, members: dict[int, Membership]) -> GameState:
    """Let every self-playing seat act until a human's turn or the end (game row locked)."""
    while state.active_seat is not None and state.status != engine.Status.WON:
        member = members.get(state.active_seat)
        if member is None or not member.plays_itself:
            break
        state = record(game, state, engine.suggestion(state), auto=True)
    return state


def _prepare_redraws(game: Game, members: tuple[Membership, ...]) -> None:
    """After commit, before the sockets are told: build the table's shared part for the
    committed version, so every redraw of it in this process reads nothing
    (`games.context.known_game`)."""
    from games.context import table_basis  # the context builds on this module

    try:
        table_basis(game, members)
    except Exception:  # best effort: without it each redraw reads what it needs
        log.exception("could not prepare the redraws of game %s", game.pk)


def _after_change(
    game: Game,
    before: GameState,
    after: GameState,
    *,
    mover_seat: int | None,
    members: tuple[Membership, ...] | None = None,
) -> GameState:
    """Run synchronous bots, then queue the notifications (and bot timers) for after commit.

    `members` are every membership if the caller has just read them (`memberships(game)`,
    under the game's lock, after any change to them).
    """
    everyone = members if members is not None else memberships(game)
    by_seat = seated(game, everyone)
    if bots_are_synchronous():
        after = play_bots_now(game, after, by_seat)
    game_id = game.pk
    member_ids = [m.user_id for m in by_seat.values() if m.user_id is not None]
    turn_user: int | None = None
    active = by_seat.get(after.active_seat) if after.active_seat is not None else None
    if (
        active is not None
        and not active.plays_itself
        and active.user_id is not None
        and (after.active_seat != mover_seat or before.active_seat != after.active_seat)
    ):
        turn_user = active.user_id
    turn_changed = before.active_seat != after.active_seat or mover_seat is None
    ended = after.status == engine.Status.WON
    # Whose turn banner may change: the players whose turn ended or began (everybody's at
    # the start and the end, or when a seat was handed to a bot).
    banner_for: list[int] | None = None
    if not ended and mover_seat is not None and before.active_seat == mover_seat:
        banner_for = [
            m.user_id
            for seat in (before.active_seat, after.active_seat)
            if seat is not None and (m := by_seat.get(seat)) is not None and m.user_id
        ]

    def notify() -> None:
        _prepare_redraws(game, everyone)
        realtime.game_changed(game_id, game.version)  # after the synchronous bots' moves
        if ended or turn_changed or turn_user is not None:
            turn = (turn_user, game_id) if turn_user is not None else None
            realtime.lobby_changed(member_ids, banner_for=banner_for, turn=turn)

    transaction.on_commit(notify)
    if not bots_are_synchronous() and active is not None and active.plays_itself and not ended:
        from games import bots  # bots imports this module

        transaction.on_commit(lambda: bots.schedule(game_id))
    return after


@transaction.atomic
def submit_move(*, game_id: int, user: Any, choice: MoveChoice, seen_version: int) -> Game:
    """Apply `choice` for the seat `user` holds in the game; one transaction, row locked.

    Raises NotAPlayer (no seat), StaleTable (`seen_version` is old), RefusedMove (the rules
    or the game's status refuse it). Nothing is stored unless the move is accepted.
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    members = memberships(game)
    member = next((m for m in members if m.user_id == user.pk), None)  # one per user
    if member is None or member.seat is None:
        raise NotAPlayer("Only the players at this table can make moves.")
    if seen_version != game.version:
        raise StaleTable()
    if game.status == Game.Status.FINISHED:
        raise RefusedMove("The game is over.")
    if game.status != Game.Status.ACTIVE:
        raise RefusedMove("This game has not started yet.")
    if member.automated:
        raise RefusedMove("A bot plays your seat now.")
    before = load_state(game)
    try:
        after = record(game, before, choice.as_move(member.seat), auto=False)
    except IllegalMove as exc:
        raise RefusedMove(exc.message) from exc
    _after_change(game, before, after, mover_seat=member.seat, members=members)
    return game


@transaction.atomic
def automate(*, game_id: int, user: Any) -> Game:
    """Hand the user's seat to the bot for the rest of the game (cannot be undone)."""
    game = Game.objects.select_for_update().get(pk=game_id)
    member = game.memberships.filter(user=user, seat__isnull=False).first()
    if member is None:
        raise NotAPlayer("Only the players at this table can hand their seat to a bot.")
    if game.status != Game.Status.ACTIVE:
        raise RefusedMove("Only a game in progress can be handed to a bot.")
    if member.automated:
        raise RefusedMove("A bot already plays your seat.")
    member.automated = True
    member.save(update_fields=["automated"])
    game.version += 1
    game.save(update_fields=["version"])
    state = load_state(game)
    _after_change(game, state, state, mover_seat=member.seat)
    return game


@transaction.atomic
def play_bot_move(game_id: int, expected_version: int) -> bool:
    """One bot move, if the game is still where the scheduler saw it; True if one was made.

    Checking the version makes duplicate schedules (two processes, a healed timer) harmless.
    """
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.version != expected_version or game.status != Game.Status.ACTIVE:
        return False
    state = load_state(game)
    if state.active_seat is None:
        return False
    members = memberships(game)
    member = seated(game, members).get(state.active_seat)
    if member is None or not member.plays_itself:
        return False
    after = record(game, state, engine.suggestion(state), auto=True)
    _after_change(game, state, after, mover_seat=state.active_seat, members=members)
    return True


@transaction.atomic
def advance_bots(game_id: int) -> int:
    """Every pending bot move of the game at once (no pauses); returns how many were made."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return 0
    before = load_state(game)
    start = game.version
    members = memberships(game)
    after = play_bots_now(game, before, seated(game, members))
    if game.version != start:
        _after_change(game, before, after, mover_seat=before.active_seat, members=members)
    return game.version - start


@transaction.atomic
def rematch(*, game_id: int, user: Any) -> Game:
    """A new game with the same seats (bots too), started at once; one per finished game.

    Whoever asks becomes its organizer; automated seats get their humans back.
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    members = seated(game)
    mine = next((m for m in members.values() if m.user_id == user.pk), None)
    if mine is None:
        raise NotAPlayer("Only the players of this game can start a rematch.")
    if game.status != Game.Status.FINISHED:
        raise RefusedMove("A rematch can start once the game is over.")
    existing = Game.objects.filter(rematch_of=game).order_by("created_at").first()
    if existing is not None:
        return existing
    new = Game.objects.create(
        name=game.name if game.name.endswith("(rematch)") else f"{game.name} (rematch)"[:60],
        organizer=user,
        public=game.public,
        max_players=game.max_players,
        rematch_of=game,
    )
    for seat, member in sorted(members.items()):
        Membership.objects.create(
            game=new,
            user=member.user,
            role=Membership.Role.ORGANIZER if member.user_id == user.pk else Membership.Role.PLAYER,
            seat=seat,
            bot=member.bot,
            bot_name=member.bot_name,
        )
    target = engine.state_from_json(Snapshot.objects.get(game=game, seq=0).state).target
    begin(new, target=target)
    game.version += 1  # the old table now shows the way to the rematch
    game.save(update_fields=["version"])
    old_id, version = game.pk, game.version
    transaction.on_commit(lambda: realtime.game_changed(old_id, version))
    return new
