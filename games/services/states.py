"""A game's rules and state: its kind (from `games.registry`, never an `if` on the kind), its
state after the committed actions (kept per process, else the latest snapshot plus the
actions after it, so a load replays at most one hand), and its memberships."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from games import registry
from games.gamekind import GameKind
from games.live.committed import CommittedCache, game_identity
from games.models import Game, GameAction, Membership, Snapshot
from games.services.errors import RefusedMove


def kind_of(game: Game) -> GameKind:
    return registry.kind(game.kind)


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


def state_key(game: Game, seq: int) -> StateKey:
    return (*game_identity(game), seq)


def load_state(game: Game) -> Any:
    """The rules state after the game's `action_count` actions.

    Usually kept by this process already (the move that made it put it there). Otherwise:
    the latest snapshot (one per hand start; parsed once per process) plus the actions
    after it, so a load replays at most one hand however long the game has run.
    """
    key = state_key(game, game.action_count)
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
        raise RefusedMove(_("This game has not started yet."))
    state = STATES.get(state_key(game, latest))
    if state is None:
        state = rules.state_from_json(Snapshot.objects.get(game=game, seq=latest).state)
        STATES.put(state_key(game, latest), state)
    if latest < game.action_count:
        actions = GameAction.objects.filter(
            game=game, seq__gt=latest, seq__lte=game.action_count
        ).order_by("seq")
        state = replayed(rules, state, actions.values_list("seat", "move", "undoes"))
        STATES.put(key, state)
    return state


def replayed(rules: Any, state: Any, log: Iterable[tuple[int, Any, int | None]]) -> Any:
    """The state after the log's rows (seat, move, undoes) from `state`. A row that takes
    an action back (`undoes`, games/services/undo.py) leaves the state as it was before that
    action, which is always the row just before it and never begins a hand, so it lies
    after the snapshot a load starts from."""
    states = [state]
    for seat, data, undoes in log:
        if undoes is not None:
            if len(states) < 2:
                raise ValueError(f"undo of action {undoes} before the state replayed from")
            states.pop()
        else:
            states.append(rules.apply(states[-1], seat, rules.action_from_json(data)))
    return states[-1]


def memberships(game: Game) -> tuple[Membership, ...]:
    """Every membership of the game (invitees too), users loaded: one query."""
    return tuple(game.memberships.select_related("user"))


def seated(game: Game, members: Iterable[Membership] | None = None) -> dict[int, Membership]:
    """The game's seated memberships by seat (picked from `members` if already read)."""
    if members is None:
        members = memberships(game)
    return {m.seat: m for m in members if m.seat is not None}
