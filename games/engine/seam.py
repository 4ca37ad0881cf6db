"""The seam a second card game would plug into: what the web layer needs from any engine.

The web app only needs these five things from a game engine, so it should depend on this
protocol rather than on Hundred and Ten's modules. `HUNDRED_AND_TEN` is our implementation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .bots import suggestion
from .moves import Move, move_from_json, move_to_json
from .perspective import SeatView, perspective_of
from .rules import apply, legal_moves
from .snapshot import state_from_json, state_to_json
from .state import GameState

S = TypeVar("S")
M = TypeVar("M")
V = TypeVar("V", covariant=True)


class TurnBasedEngine(Protocol[S, M, V]):
    """State in, state out: apply a move, list legal moves, show a seat's view, suggest."""

    def apply(self, state: S, move: M) -> S: ...
    def legal_moves(self, state: S, seat: int) -> tuple[M, ...]: ...
    def active_seat(self, state: S) -> int | None: ...
    def perspective_of(self, state: S, seat: int | None) -> V: ...
    def suggestion(self, state: S) -> M: ...
    def move_to_json(self, move: M) -> dict[str, Any]: ...
    def move_from_json(self, data: dict[str, Any]) -> M: ...
    def state_to_json(self, state: S) -> dict[str, Any]: ...
    def state_from_json(self, data: dict[str, Any]) -> S: ...


@dataclass(frozen=True)
class _HundredAndTen:
    """Hundred and Ten behind the `TurnBasedEngine` protocol (plain delegation)."""

    name: str = "Hundred and Ten"

    def apply(self, state: GameState, move: Move) -> GameState:
        return apply(state, move)

    def legal_moves(self, state: GameState, seat: int) -> tuple[Move, ...]:
        return legal_moves(state, seat)

    def active_seat(self, state: GameState) -> int | None:
        return state.active_seat

    def perspective_of(self, state: GameState, seat: int | None) -> SeatView:
        return perspective_of(state, seat)

    def suggestion(self, state: GameState) -> Move:
        return suggestion(state)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return move_to_json(move)

    def move_from_json(self, data: dict[str, Any]) -> Move:
        return move_from_json(data)

    def state_to_json(self, state: GameState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> GameState:
        return state_from_json(data)


HUNDRED_AND_TEN: TurnBasedEngine[GameState, Move, SeatView] = _HundredAndTen()
