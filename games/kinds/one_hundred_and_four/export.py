"""A finished game of ours as a One Hundred and Four conformance trace
(shared/conformance/one-hundred-and-four/FORMAT.md): pure Python, the inverse of
`conformance.py`.

The game is replayed from its first state and action log through the rules protocol. Each deal is
written as dealt (rows, hands in deal order, the unused rest); each turn with its steps, the
cards chosen, the placements in order (a too-low card's with the seat asked, its legal rows
and the bot policy's row at the pause), the rows and this deal's penalties after it; a
match's deals also with their penalties and running totals; the game with its outcome. A
one-deal game takes the format's `deal`/`turns` shape, a match its `deals` shape.

Left out: refused steps and `after_end` (optional in the format) and `seed` (the deals are
all written out; our seed stays on the server).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .bots import policy_row
from .conformance import TRACE_FORMAT, placement_to_trace
from .engine.actions import Action, Choose, TakeRow
from .engine.cards import Rows
from .engine.seam import RULES, SLUG
from .engine.state import PAUSE, HundredAndFourState, LastTurn, deal_to_json


def _rows(rows: Rows) -> list[list[int]]:
    return [list(row) for row in rows]


def _deal(state: HundredAndFourState) -> dict[str, Any]:
    """The trace's entry for the deal `state` has just dealt (its turns still to come)."""
    return {"deal": deal_to_json(state.source.deal(state.deal, state.seats)), "turns": []}


def _pause(state: HundredAndFourState) -> dict[str, Any]:
    """What the format adds to a too-low placement, read at the pause."""
    view = RULES.view(state, None)
    asked = view.asked
    assert asked is not None  # in a pause
    rows = [a.row for a in RULES.legal_actions(state, asked) if isinstance(a, TakeRow)]
    return {"asked": asked, "legal_rows": rows, "policy_row": policy_row(view.rows)}


def _turn(
    state: HundredAndFourState,
    last: LastTurn,
    steps: list[dict[str, Any]],
    pause: dict[str, Any] | None,
) -> dict[str, Any]:
    """The trace's entry for the turn `last` that `state`'s last action resolved."""
    resolution = [placement_to_trace(p) for p in last.placements]
    if pause is not None:
        resolution[0].update(pause)  # only the lowest card of a turn can be too low
    view = RULES.view(state, None)
    same_deal = view.deal == last.deal
    penalties = view.penalties if same_deal else view.history[last.deal].penalties
    return {
        "steps": steps,
        "choices": [card for _, card in sorted(last.choices)],
        "resolution": resolution,
        "rows_after": _rows(last.rows_after),
        "penalties_after": list(penalties),
    }


def export_trace(
    initial: HundredAndFourState, log: Sequence[tuple[int, Action]], *, name: str
) -> dict[str, Any]:
    """The trace of the game that starts at `initial` and is played by `log` (see the
    module docstring). ValueError if `log` does not end the game."""
    state = initial
    deals: list[dict[str, Any]] = []
    entry = _deal(state)
    steps: list[dict[str, Any]] = []
    pause: dict[str, Any] | None = None
    for seat, action in log:
        turn = (state.deal, state.turn)
        finished = len(state.history)
        state = RULES.apply(state, seat, action)
        steps.append({"seat": seat, **RULES.action_to_json(action)})
        if isinstance(action, Choose) and state.phase == PAUSE:
            pause = _pause(state)
        last = state.last_turn
        if last is not None and (last.deal, last.turn) == turn:
            entry["turns"].append(_turn(state, last, steps, pause))
            steps, pause = [], None
        if len(state.history) > finished:
            record = state.history[-1]
            if state.match_to is not None:
                entry.update(penalties=list(record.penalties), totals_after=list(record.totals))
            deals.append(entry)
            if RULES.outcome(state) is None:
                entry = _deal(state)
    outcome = RULES.outcome(state)
    if outcome is None or steps:
        raise ValueError("The game is not over: only a finished game makes a trace.")
    trace: dict[str, Any] = {
        "format": TRACE_FORMAT,
        "game": SLUG,
        "id": name,
        "seats": state.seats,
        "options": {"match_to": state.match_to},
    }
    if state.match_to is None:
        trace.update(deals[0])
    else:
        trace["deals"] = deals
    trace["outcome"] = {"penalties": list(outcome.scores), "winners": list(outcome.winners)}
    return trace
