"""A finished match of ours as a Fifty-Six conformance trace
(shared/conformance/fifty-six/FORMAT.md): pure Python, the inverse of `conformance.py`.

The match is replayed from its first state and action log through the rules protocol. Each hand is
written with its dealer and deal (each seat's cards in dealing order); each action with the
complete legal list before it and the public state after it (`conformance.public_state`);
each hand's end with its result (the face-down trump card included, also when it was never
revealed: a finished match is open); the match with its outcome.

Left out: refused probes (only some of the format's matches have them). The format has no
seed to leave out.
"""

from __future__ import annotations

from typing import Any

from games.kinds.conformance import ExportByHand
from games.kinds.protocol import Outcome

from .conformance import GAME, TRACE_FORMAT, public_state
from .engine.actions import Action
from .engine.cards import CODES
from .engine.seam import RULES
from .engine.state import FiftySixState


def _hand(state: FiftySixState) -> dict[str, Any]:
    """The trace's entry for the hand `state` has just dealt (its steps still to come)."""
    index, dealer = state.hand_index, state.dealer
    deal = state.source.deal(index, dealer, state.seats)
    return {
        "index": index,
        "dealer": dealer,
        "deal": [[CODES[c] for c in hand] for hand in deal],
        "steps": [],
    }


def _result(state: FiftySixState) -> dict[str, Any]:
    """The result of the hand `state`'s last action ended."""
    record = state.history[-1]
    return {
        "outcome": record.outcome,
        "bidder": record.bidder,
        "contract": record.contract,
        "trump": None if record.trump is None else CODES[record.trump],
        "trump_revealed": record.trump_revealed,
        "trick_winners": [trick.winner for trick in record.tricks],
        "points": list(record.points),
        "game_points": record.game_points,
        "tables": None if record.tables is None else list(record.tables),
    }


def _step(
    entry: dict[str, Any], before: FiftySixState, seat: int, action: Action, after: FiftySixState
) -> None:
    legal = [RULES.action_to_json(a) for a in RULES.legal_actions(before, seat)]
    entry["steps"].append(
        {
            "seat": seat,
            "action": RULES.action_to_json(action),
            "legal": legal,
            "after": public_state(after, RULES.view(after, None)),
        }
    )


def _end(entry: dict[str, Any], state: FiftySixState) -> None:
    entry["result"] = _result(state)


def _trace(
    state: FiftySixState, outcome: Outcome, hands: list[dict[str, Any]], name: str
) -> dict[str, Any]:
    public = RULES.view(state, None)
    return {
        "format": TRACE_FORMAT,
        "game": GAME,
        "id": name,
        "seats": state.seats,
        "options": {"tables_per_team": state.tables_per_team},
        "hands": hands,
        "outcome": {
            "tables": None if public.tables is None else list(public.tables),
            "winner": outcome.winning_team,
            "hands": state.hand_index + 1,
            "game_points": list(public.game_points),
        },
    }


# The trace of the match that starts at `initial` and is played by `log` (see the module
# docstring); ValueError if `log` does not end the match.
export_trace = ExportByHand(RULES, _hand, _step, _end, _trace, "match")
