"""Recording an action: the rules applied, the action appended to the game's log (and a
snapshot when a hand starts), the version, the outcome, the ratings and whose turn it is
mirrored on the rows. Called with the game row locked."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.utils import timezone

from games.clocks import turns
from games.models import Game, GameAction, Snapshot
from games.ratings import service as ratings
from games.services import undo
from games.services.states import STATES, kind_of, state_key


def record(
    game: Game,
    before: Any,
    seat: int,
    action: Any,
    *,
    auto: bool,
    served: frozenset[int] | None = None,
) -> Any:
    """Apply `seat`'s `action` to `before` and store it (call with the game row locked).

    Appends GameAction(seq=n+1), bumps the version, mirrors the seats to act and the outcome
    on the game, and snapshots the state when the action started a new hand. `served`: the
    seats the server plays, if the caller read the members under the lock (`turns.set_turns`).
    """
    rules = kind_of(game).rules
    after = rules.apply(before, seat, action)
    seq = game.action_count + 1
    GameAction.objects.create(
        game=game, seq=seq, seat=seat, move=rules.action_to_json(action), auto=auto
    )
    if rules.hand_number(after) != rules.hand_number(before):
        Snapshot.objects.create(game=game, seq=seq, state=rules.state_to_json(after))
    STATES.put(state_key(game, seq), after)
    game.version += 1
    game.action_count = seq
    # Whether the mover may ask to take it back (games/services/undo.py); any question
    # about the action before is over.
    game.undo = None if auto else undo.marker(rules, before, seat, action, after, seq=seq)
    game.undo_until = None
    fields = ["version", "action_count", "undo", "undo_until"]
    outcome = rules.outcome(after)
    if outcome is not None:
        game.status = Game.Status.FINISHED
        game.outcome = asdict(outcome)
        game.finished_at = timezone.now()
        fields += ["status", "outcome", "finished_at"]
        ratings.game_over(game, after, outcome)
    game.save(update_fields=fields)
    turns.set_turns(
        game, rules.to_act(before), rules.to_act(after), restarted=(seat,), served=served
    )
    return after
