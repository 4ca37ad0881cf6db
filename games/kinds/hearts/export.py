"""A finished game of ours as a Hearts conformance trace (shared/conformance/hearts/FORMAT.md):
pure Python, the inverse of `conformance.py`.

The game is replayed from its first state and action log through the rules protocol. Each hand is
written with its pass direction, its deal (each seat's cards in deal order, as our deals
come from the deck), the seats to act first and the hands after the pass; each action with
what the format records after it (legal cards before a play, the trick, its winner, points
and hearts broken, the seats to act); each hand's end with `taken`, `moon_shooter`,
`points` and `totals`; the game with its `outcome`. A pass is written sorted, as the format
lists it (our log keeps the order the player picked the cards in).

Left out: refused probes (only some of the format's games have them) and `seed` (the deals
are all written out; our seed stays on the server).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .conformance import TRACE_FORMAT
from .engine.actions import Action, Pass, Play
from .engine.cards import CODES, HEARTS_MASK, Card
from .engine.seam import RULES, SLUG
from .engine.state import PLAY, SEATS, HeartsState
from .engine.view import HeartsView


def _codes(cards: Sequence[Card]) -> list[str]:
    return [CODES[c] for c in cards]


def _hands(state: HeartsState) -> list[list[str]]:
    """Every seat's hand, sorted."""
    return [_codes(RULES.view(state, seat).hand) for seat in range(SEATS)]


def _hand(state: HeartsState) -> dict[str, Any]:
    """The trace's entry for the hand `state` has just dealt (its steps still to come)."""
    public = RULES.view(state, None)
    index = public.hand_index
    return {
        "index": index,
        "pass_direction": public.pass_direction,
        "deal": [_codes(hand) for hand in state.source.order(index)],
        "to_act": sorted(RULES.to_act(state)),
        # Known at once in a hold hand; in a passing hand once the fourth pass is in.
        "hands_after_pass": _hands(state) if public.phase == PLAY else None,
        "steps": [],
    }


def _action_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Pass):
        return RULES.action_to_json(Pass(tuple(sorted(action.cards))))
    return RULES.action_to_json(action)


def _step(
    state: HeartsState, before: HeartsView, seat: int, action: Action
) -> tuple[HeartsState, dict[str, Any]]:
    """Apply `seat`'s `action` to `state` (whose spectator's view is `before`); the new
    state and the step as the trace writes it."""
    step: dict[str, Any] = {"seat": seat, "action": _action_json(action)}
    if isinstance(action, Play):
        step["legal"] = [
            CODES[a.card] for a in RULES.legal_actions(state, seat) if isinstance(a, Play)
        ]
    state = RULES.apply(state, seat, action)
    after = RULES.view(state, None)
    hand_over = len(after.history) > len(before.history)
    if isinstance(action, Play):
        if hand_over:
            tricks = after.history[-1].tricks
            done = tricks[-1]
            broken = any(HEARTS_MASK >> c & 1 for trick in tricks for c in trick.cards)
        elif len(after.tricks) > len(before.tricks):
            done, broken = after.tricks[-1], after.hearts_broken
        else:
            done = None
        if done is None:
            step["trick"] = [CODES[c] for _, c in after.trick]
        else:
            step["trick"] = _codes(done.cards)
            step["trick_winner"] = done.winner
            step["trick_points"] = done.points
            step["hearts_broken"] = broken
    step["to_act"] = [] if hand_over else sorted(RULES.to_act(state))
    return state, step


def export_trace(
    initial: HeartsState, log: Sequence[tuple[int, Action]], *, name: str
) -> dict[str, Any]:
    """The trace of the game that starts at `initial` and is played by `log` (see the
    module docstring). ValueError if `log` does not end the game."""
    state = initial
    hands: list[dict[str, Any]] = []
    entry = _hand(state)
    for seat, action in log:
        before = RULES.view(state, None)
        state, step = _step(state, before, seat, action)
        entry["steps"].append(step)
        after = RULES.view(state, None)
        if len(after.history) > len(before.history):
            record = after.history[-1]
            entry.update(
                taken=list(record.taken),
                moon_shooter=record.moon_shooter,
                points=list(record.points),
                totals=list(record.totals),
            )
            hands.append(entry)
            if RULES.outcome(state) is None:
                entry = _hand(state)
        elif entry["hands_after_pass"] is None and after.phase == PLAY:
            entry["hands_after_pass"] = _hands(state)
    outcome = RULES.outcome(state)
    if outcome is None:
        raise ValueError("The game is not over: only a finished game makes a trace.")
    return {
        "format": TRACE_FORMAT,
        "game": SLUG,
        "id": name,
        "seats": SEATS,
        "options": {"target": state.target},
        "hands": hands,
        "outcome": {"totals": list(outcome.scores), "winners": list(outcome.winners)},
    }
