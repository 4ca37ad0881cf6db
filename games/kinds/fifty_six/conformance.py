"""Replay Fifty-Six conformance traces (shared/conformance/fifty-six/FORMAT.md) and compare.

A trace is driven through the rules protocol only (`RULES`), like the platform drives the
engine: every hand's deal injected with `initial_state_from_deals`, every step submitted with
`apply`. Compared with what the engine shows through its views, `to_act`, `legal_actions`
and `outcome`:

* per hand: the hand number, the dealer, each seat's dealt cards;
* per accepted step: the acting seat is the seat to act, the complete legal list before it,
  and every key of the state after it (phase, dealer, to_act, high bid and bidder, bidder and
  contract, revealed, the revealed trump card, asked, the current trick, trick winners, card
  points, tables), read from a spectator's view (the trace's `after` is public too);
* per probe: the action is refused with the trace's reason as its code, and the state is
  unchanged (an action that is not even readable, a ValueError, counts as refused);
* per hand end: the hand's result (outcome, bidder, contract, the face-down card as its
  bidder's view shows it, revealed, trick winners, points, game points, tables);
* at the end: the outcome (tables, winning team, hands dealt, game-point totals), nobody to act.

The engine has no state "between hands": the step that ends a hand already shows the next
one, so the end of a hand is recognised by the history growing. The first difference raises
`Mismatch`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.kinds.conformance import HandReplay, Mismatch, TraceChecker, check_refused
from games.kinds.conformance import compare as _compare
from games.kinds.protocol import IllegalAction, Outcome

from .engine.cards import CODES, parse_card
from .engine.seam import RULES
from .engine.state import DEFAULT_TABLES, FiftySixState
from .engine.view import FiftySixView

TRACE_FORMAT = 1
GAME = "fifty-six"


def public_state(state: FiftySixState, view: FiftySixView) -> dict[str, Any]:
    """The trace's `after` fields as the engine shows them (a spectator's view)."""
    waiting = sorted(RULES.to_act(state))
    return {
        "hand": view.hand_index,
        "phase": view.phase,
        "dealer": view.dealer,
        "to_act": waiting[0] if len(waiting) == 1 else waiting or None,
        "high_bid": view.high_bid,
        "high_bidder": view.high_bidder,
        "bidder": view.bidder,
        "contract": view.contract,
        "revealed": view.trump_revealed,
        "trump": None if view.trump_card is None else CODES[view.trump_card],
        "asked": view.must_play_after_ask,
        "trick": [[seat, CODES[card]] for seat, card in view.trick],
        "trick_winners": [trick.winner for trick in view.tricks],
        "points": list(view.points),
        "tables": None if view.tables is None else list(view.tables),
    }


class _Replay(HandReplay):
    def __init__(self, trace: Mapping[str, Any]) -> None:
        super().__init__(trace, RULES)
        self.seats = trace["seats"]

    def start(self) -> FiftySixState:
        options = self.trace.get("options") or {}
        tables = options.get("tables_per_team", DEFAULT_TABLES)
        deals = [entry["deal"] for entry in self.trace["hands"]]
        try:
            return RULES.initial_state_from_deals(deals, self.seats, {"tables_per_team": tables})
        except ValueError as error:
            raise Mismatch("header", "deals", "valid deals", f"error: {error}") from None

    def check_outcome(
        self, expected: Mapping[str, Any], outcome: Outcome, state: FiftySixState
    ) -> None:
        public = RULES.view(state, None)
        _compare("end", "outcome.tables", expected["tables"], list(public.tables or ()))
        _compare("end", "outcome.winner", expected["winner"], outcome.winning_team)
        _compare("end", "outcome.hands", expected["hands"], RULES.hand_number(state) + 1)
        _compare("end", "outcome.game_points", expected["game_points"], list(public.game_points))

    def hand(self, index: int, entry: Mapping[str, Any], state: FiftySixState) -> FiftySixState:
        label = self.open_hand(index, entry, state, over="match over", number="hand")
        public = RULES.view(state, None)
        _compare(label, "dealer", entry["dealer"], public.dealer)
        dealt = [[CODES[c] for c in RULES.view(state, s).hand] for s in range(self.seats)]
        expected = [[CODES[c] for c in sorted(map(parse_card, hand))] for hand in entry["deal"]]
        _compare(label, "deal", expected, dealt)
        finished = len(public.history)
        for number, step in enumerate(entry["steps"]):
            label = f"hand {index} step {number}"
            self.steps += 1
            if step.get("illegal"):
                self.probe(label, state, step)
                continue
            if len(public.history) > finished:
                raise Mismatch(label, "hand", "still being played", "over")
            state, public = self.accepted(label, state, step)
        label = f"hand {index} end"
        if len(public.history) != finished + 1:
            raise Mismatch(label, "hand", "over", "still being played")
        self.result(label, state, entry["result"])
        return state

    def accepted(
        self, label: str, state: FiftySixState, step: Mapping[str, Any]
    ) -> tuple[FiftySixState, FiftySixView]:
        seat = step["seat"]
        _compare(label, "seat", sorted(RULES.to_act(state)), [seat])
        try:
            action = RULES.action_from_json(step["action"])
        except ValueError as error:
            raise Mismatch(label, "action", step["action"], f"unreadable: {error}") from None
        legal = [RULES.action_to_json(a) for a in RULES.legal_actions(state, seat)]
        _compare(label, "legal", step["legal"], legal)
        try:
            state = RULES.apply(state, seat, action)
        except IllegalAction as error:
            raise Mismatch(
                label, "action", "accepted", f"refused ({error.code}): {error}"
            ) from None
        except ValueError as error:  # e.g. the match goes on past the trace's last deal
            raise Mismatch(label, "action", "accepted", f"error: {error}") from None
        public = RULES.view(state, None)
        got = public_state(state, public)
        for key, expected in step["after"].items():
            _compare(label, f"after.{key}", expected, got.get(key, f"(no {key})"))
        return state, public

    def probe(self, label: str, state: FiftySixState, step: Mapping[str, Any]) -> None:
        reason = step.get("reason")
        try:
            action = RULES.action_from_json(step["action"])
        except ValueError:
            return  # an action the engine cannot even read is refused too, and changes nothing
        check_refused(RULES, label, state, step["seat"], action, reason)

    def result(self, label: str, state: FiftySixState, expected: Mapping[str, Any]) -> None:
        record = RULES.view(state, None).history[-1]
        # The face-down card as the hand's bidder sees it (others may not, C-56-23).
        own = RULES.view(state, record.bidder).history[-1]
        got = {
            "outcome": record.outcome,
            "bidder": record.bidder,
            "contract": record.contract,
            "trump": None if own.trump is None else CODES[own.trump],
            "trump_revealed": record.trump_revealed,
            "trick_winners": [trick.winner for trick in record.tricks],
            "points": list(record.points),
            "game_points": record.game_points,
            "tables": None if record.tables is None else list(record.tables),
        }
        for key, value in expected.items():
            _compare(label, f"result.{key}", value, got.get(key, f"(no {key})"))


def check_trace(trace: Mapping[str, Any]) -> int:
    """Replay one trace; returns its step count or raises Mismatch at the first difference."""
    if trace.get("format") != TRACE_FORMAT or trace.get("game") != GAME:
        raise Mismatch("header", "format", f"{GAME} format {TRACE_FORMAT}", trace.get("format"))
    return _Replay(trace).run()


def is_trace(document: Mapping[str, Any]) -> bool:
    """A Fifty-Six trace (not the folder's informational index)."""
    return document.get("game") == GAME and "hands" in document


CHECKER = TraceChecker(is_trace=is_trace, check=check_trace)
