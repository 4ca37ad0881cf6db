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

from games.kinds.conformance import ExportByHand
from games.kinds.protocol import Outcome

from .conformance import TRACE_FORMAT
from .engine.actions import Action, Pass, Play
from .engine.cards import CODES, HEARTS_MASK, Card
from .engine.seam import RULES, SLUG
from .engine.state import PLAY, SEATS, HeartsState


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
    entry: dict[str, Any], state: HeartsState, seat: int, action: Action, after: HeartsState
) -> None:
    """`seat`'s `action` on `state`, which made `after`, as the trace writes it."""
    before, shown = RULES.view(state, None), RULES.view(after, None)
    step: dict[str, Any] = {"seat": seat, "action": _action_json(action)}
    if isinstance(action, Play):
        step["legal"] = [
            CODES[a.card] for a in RULES.legal_actions(state, seat) if isinstance(a, Play)
        ]
    hand_over = len(shown.history) > len(before.history)
    if isinstance(action, Play):
        if hand_over:
            tricks = shown.history[-1].tricks
            done = tricks[-1]
            broken = any(HEARTS_MASK >> c & 1 for trick in tricks for c in trick.cards)
        elif len(shown.tricks) > len(before.tricks):
            done, broken = shown.tricks[-1], shown.hearts_broken
        else:
            done = None
        if done is None:
            step["trick"] = [CODES[c] for _, c in shown.trick]
        else:
            step["trick"] = _codes(done.cards)
            step["trick_winner"] = done.winner
            step["trick_points"] = done.points
            step["hearts_broken"] = broken
    step["to_act"] = [] if hand_over else sorted(RULES.to_act(after))
    entry["steps"].append(step)
    if not hand_over and entry["hands_after_pass"] is None and shown.phase == PLAY:
        entry["hands_after_pass"] = _hands(after)


def _end(entry: dict[str, Any], state: HeartsState) -> None:
    record = RULES.view(state, None).history[-1]
    entry.update(
        taken=list(record.taken),
        moon_shooter=record.moon_shooter,
        points=list(record.points),
        totals=list(record.totals),
    )


def _trace(
    state: HeartsState, outcome: Outcome, hands: list[dict[str, Any]], name: str
) -> dict[str, Any]:
    return {
        "format": TRACE_FORMAT,
        "game": SLUG,
        "id": name,
        "seats": SEATS,
        "options": {"target": state.target},
        "hands": hands,
        "outcome": {"totals": list(outcome.scores), "winners": list(outcome.winners)},
    }


# The trace of the game that starts at `initial` and is played by `log` (see the module
# docstring); ValueError if `log` does not end the game.
export_trace = ExportByHand(RULES, _hand, _step, _end, _trace, "game")
