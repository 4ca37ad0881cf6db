"""Moves at the table, for every game kind: start a game's log and submit a move.

A game is its kind, options and seed plus the append-only `GameAction` log of (seat, action).
`begin` stores the dealt state as `Snapshot(seq=0)`; every action that starts a new hand
stores another snapshot, so loading a game replays at most one hand however long it has run.
The rules come from the game's kind (`games.registry`), never from an `if` on the kind here.

Every write locks the game row first (`select_for_update`; SQLite serialises writers with
`transaction_mode=IMMEDIATE`), so two tabs submitting at once give one applied move and one
"the table changed" answer. A submission made from an older page is stale only if the
mover's own decision changed since (`rules.decision_key`): in a simultaneous phase other
seats' choices do not bounce yours. Notifications go out after commit.

The parts: `errors` (what is refused), `states` (kind, state, memberships), `recording` (an
action into the log), `bot_choice` (the server's seats), `announce` (after commit).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clocks import turns
from games.gamekind import BadAction, GameKind
from games.kinds.protocol import IllegalAction
from games.live import presence
from games.models import Game, Snapshot
from games.phrases import refusal_text
from games.services import undo
from games.services.announce import after_change
from games.services.errors import NotAPlayer, RefusedMove, StaleTable, UnreadableMove
from games.services.recording import record
from games.services.states import (
    STATES,
    kind_of,
    load_state,
    memberships,
    seated,
    state_key,
)

if TYPE_CHECKING:
    from accounts.models import User

# How a request names its action: from the game's kind and the mover's seat to the action (a
# view reads its POST with the kind's table; tests hand over an engine action).
ActionChoice = Callable[[GameKind, int], Any]


# --- starting --------------------------------------------------------------------------------


def begin(game: Game) -> Any:
    """Deal the first hand of `game` (called by the lobby's `start_game`, in its transaction).

    Stores Snapshot(seq=0), marks the game active and the seats to act. If bots act first,
    the deadline sweep makes their moves when they fall due.
    """
    if Snapshot.objects.filter(game=game).exists():
        raise RefusedMove(_("This game has already started."))
    rules = kind_of(game).rules
    members = memberships(game)
    players = len(seated(game, members))
    state = rules.initial_state(game.seed, players, game.options)
    Snapshot.objects.create(game=game, seq=0, state=rules.state_to_json(state))
    STATES.put(state_key(game, 0), state)
    game.status = Game.Status.ACTIVE
    game.started_at = game.started_at or timezone.now()
    game.outcome = None
    game.save(update_fields=["status", "started_at", "outcome"])
    turns.set_turns(game, frozenset(), rules.to_act(state), served=turns.served_seats(members))
    after_change(game, state, state, mover_seat=None, members=members)
    return state


# --- moving ----------------------------------------------------------------------------------


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
        raise NotAPlayer(_("Only the players at this table can make moves."))
    # The mover is here: stamped now, not after the answer (games/middleware.py), so the
    # pages this move redraws never list them as away.
    presence.seen(game.pk, user.pk)
    if game.status == Game.Status.WAITING:
        raise RefusedMove(_("This game has not started yet."))
    kind = kind_of(game)
    if seen_version != game.version and game.status == Game.Status.ACTIVE:
        # Another change came first: fine if this seat still faces the decision it saw.
        current = kind.rules.decision_key(load_state(game), member.seat)
        if not seen_turn or seen_turn != current:
            raise StaleTable()
    elif seen_version != game.version:
        raise StaleTable()
    if game.status == Game.Status.FINISHED:
        raise RefusedMove(_("The game is over."))
    if game.status == Game.Status.ABANDONED:
        raise RefusedMove(_("This game was abandoned."))
    if member.automated:
        raise RefusedMove(_("A bot plays your seat now."))
    if (asked := undo.question(game)) is not None:
        asker = seated(game, members)[asked.seat]
        raise RefusedMove(
            _("%(name)s asked to take back their last move: wait for the table’s answer.")
            % {"name": asker.name}
        )
    try:
        action = choice(kind, member.seat)
    except BadAction as exc:
        raise UnreadableMove(str(exc)) from exc
    before = load_state(game)
    try:
        after = record(
            game, before, member.seat, action, auto=False, served=turns.served_seats(members)
        )
    except IllegalAction as exc:
        raise RefusedMove(refusal_text(exc)) from exc
    after_change(
        game, before, after, mover_seat=member.seat, members=members, moves=[(member.seat, action)]
    )
    return game
