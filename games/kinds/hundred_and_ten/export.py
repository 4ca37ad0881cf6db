"""A finished game of ours as a Hundred and Ten conformance trace
(shared/conformance/hundred-and-ten/FORMAT.md): pure Python, the inverse of `conformance.py`.

The game is replayed from its first state and action log; every round dealt is written down (dealer,
hands, draw pile) and every action becomes a step with the state after it, as the replayer
observes it (`conformance.observe`, with the naive bot's `suggestion`). Every step is an
ordinary action: the trace's automation (`automated_from_start`, `automate`, `auto`) is the
reference's naive bot, while our seats may have been played by any bot, so none is marked.
No refused probes (the format mixes a few in, nothing requires them), and none of the keys
that describe the reference's own generation (`reference`, `seed`, `generator`): the deals
are all written out, and our seed stays on the server.

The format has no options: its games are played to 110, so a game to another target cannot
be written in it (`NotExportable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.kinds.conformance import NotExportable

from .conformance import TRACE_FORMAT, move_to_trace, note_of, observe, round_end_of
from .engine.cards import format_card
from .engine.game import Transition, events_of
from .engine.moves import Move
from .engine.rules import DEFAULT_TARGET
from .engine.seam import RULES
from .engine.state import GameState


def _round(state: GameState, names: Sequence[str]) -> dict[str, Any]:
    """The trace's entry for the round `state` has just dealt."""
    return {
        "index": state.round_index,
        "dealer": names[state.dealer],
        "hands": {names[s]: [format_card(c) for c in hand] for s, hand in enumerate(state.dealt)},
        "draw_pile": [format_card(c) for c in state.pile],
    }


def _step(before: GameState, after: GameState, move: Move, names: Sequence[str]) -> dict[str, Any]:
    step: dict[str, Any] = {"action": move_to_trace(move, names)}
    note = note_of(Transition(move, False, before, after))
    if note is not None:
        step["note"] = note
    events = events_of(before, after, move)
    if events.auto_passes:
        step["auto_passes"] = [names[s] for s in events.auto_passes]
    if events.trick_winner is not None:
        step["trick_winner"] = names[events.trick_winner]
    if events.round_end is not None:
        step["round_end"] = round_end_of(events.round_end, names)
    step["state"] = observe(after, names)
    return step


def export_trace(
    initial: GameState, log: Sequence[tuple[int, Move]], *, name: str
) -> dict[str, Any]:
    """The trace of the game that starts at `initial` and is played by `log` (see the
    module docstring). NotExportable for a target other than 110; ValueError if `log` does
    not end the game."""
    if initial.target != DEFAULT_TARGET:
        raise NotExportable(
            f"A game to {initial.target} points cannot be written as a Hundred and Ten trace: "
            f"the trace format only knows games to {DEFAULT_TARGET}."
        )
    state = initial
    names = [f"p{seat + 1}" for seat in range(state.players)]
    rounds = [_round(state, names)]
    first = observe(state, names)
    steps = []
    for seat, move in log:
        before = state
        state = RULES.apply(before, seat, move)
        steps.append(_step(before, state, move, names))
        if state.round_index != before.round_index:
            rounds.append(_round(state, names))
    if state.winner is None:
        raise ValueError("The game is not over: only a finished game makes a trace.")
    return {
        "format": TRACE_FORMAT,
        "format_version": 1,
        "game_id": name,
        "players": names,
        "automated_from_start": [],
        "rounds": rounds,
        "initial_state": first,
        "steps": steps,
        "final": {
            "winner": names[state.winner],
            "scores": {names[s]: score for s, score in enumerate(state.scores)},
            "rounds": state.round_index + 1,
        },
    }
