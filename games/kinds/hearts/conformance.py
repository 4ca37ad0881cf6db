"""Replay Hearts conformance traces (shared/conformance/hearts/FORMAT.md) and compare.

A trace is driven through the rules protocol only (`RULES`), like the platform drives the
engine: every hand's deal injected with `initial_state_from_deals`, every step submitted
with `apply`. What the trace records is compared with what the engine shows through its
views, `to_act` and `outcome`: per hand the pass direction, the deal, the seats waiting and
the hands after the pass; per play the legal cards before it, then the trick, its winner,
points and hearts broken; per hand end `taken`, `moon_shooter`, `points`, `totals`; at the
end the outcome and that the game is over. A probe must be refused with its reason as the
error code, leaving the state as it was. The first difference raises `Mismatch`.

The engine has no state "between hands": the play of the 52nd card scores the hand and
deals the next one. So the step that ends a hand is recognised by the hand history growing;
its `to_act` is then `[]` by definition, and its trick is the hand's last trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kinds.conformance import HandReplay, Mismatch, TraceChecker, check_refused
from games.kinds.conformance import compare as _compare
from games.kinds.protocol import IllegalAction, Outcome

from .engine.actions import Pass, Play
from .engine.cards import CODES, HEARTS_MASK, Card, parse_card
from .engine.seam import RULES
from .engine.state import HeartsState, Trick
from .engine.view import HeartsView

TRACE_FORMAT = 1


def _codes(cards: Sequence[Card]) -> list[str]:
    return [CODES[c] for c in cards]


def _sorted_codes(codes: Sequence[str]) -> list[str]:
    return [CODES[c] for c in sorted(parse_card(code) for code in codes)]


def _hearts_broken(tricks: Sequence[Trick]) -> bool:
    return any(HEARTS_MASK >> c & 1 for trick in tricks for c in trick.cards)


class _Replay(HandReplay):
    def __init__(self, trace: Mapping[str, Any]) -> None:
        super().__init__(trace, RULES)

    def start(self) -> HeartsState:
        trace = self.trace
        options = trace.get("options") or {}
        target = options.get("target", 100)
        hands = trace["hands"]
        deals = [entry["deal"] for entry in hands]
        return RULES.initial_state_from_deals(deals, int(trace.get("seats", 4)), {"target": target})

    def check_outcome(
        self, expected: Mapping[str, Any], outcome: Outcome, state: HeartsState
    ) -> None:
        _compare("end", "outcome.totals", expected["totals"], list(outcome.scores))
        _compare("end", "outcome.winners", expected["winners"], list(outcome.winners))

    def hand(self, index: int, entry: Mapping[str, Any], state: HeartsState) -> HeartsState:
        label = self.open_hand(index, entry, state, over="game over", number="hand_number")
        public = RULES.view(state, None)
        _compare(label, "pass_direction", entry["pass_direction"], public.pass_direction)
        dealt = [_codes(RULES.view(state, s).hand) for s in range(4)]
        _compare(label, "deal", [_sorted_codes(hand) for hand in entry["deal"]], dealt)
        _compare(label, "to_act", entry["to_act"], sorted(RULES.to_act(state)))
        if public.phase == "play":
            self.check_hands(label, entry, state)
        finished = len(public.history)
        for number, step in enumerate(entry["steps"]):
            label = f"hand {index} step {number}"
            if finished < len(public.history):
                raise Mismatch(label, "hand", "still being played", "over")
            self.steps += 1
            if step.get("illegal"):
                self.probe(label, state, step)
                continue
            state, public = self.accepted(label, entry, state, public, step)
        after = public
        if len(after.history) != finished + 1:
            raise Mismatch(f"hand {index} end", "hand", "over", "still being played")
        record = after.history[-1]
        label = f"hand {index} end"
        _compare(label, "taken", entry["taken"], list(record.taken))
        _compare(label, "moon_shooter", entry["moon_shooter"], record.moon_shooter)
        _compare(label, "points", entry["points"], list(record.points))
        _compare(label, "totals", entry["totals"], list(record.totals))
        _compare(label, "running totals", entry["totals"], list(after.totals))
        return state

    def check_hands(self, label: str, entry: Mapping[str, Any], state: HeartsState) -> None:
        hands = [_codes(RULES.view(state, s).hand) for s in range(4)]
        _compare(label, "hands_after_pass", entry["hands_after_pass"], hands)

    def accepted(
        self,
        label: str,
        entry: Mapping[str, Any],
        state: HeartsState,
        before: HeartsView,
        step: Mapping[str, Any],
    ) -> tuple[HeartsState, HeartsView]:
        """Apply an accepted step and compare; `before` is the spectator's view before it.
        Returns the new state and its spectator's view."""
        seat = step["seat"]
        action = RULES.action_from_json(step["action"])
        if isinstance(action, Play):
            legal = [CODES[a.card] for a in RULES.legal_actions(state, seat) if isinstance(a, Play)]
            _compare(label, "legal", step["legal"], legal)
        try:
            state = RULES.apply(state, seat, action)
        except IllegalAction as error:
            refused = f"refused ({error.code}): {error}"
            raise Mismatch(label, "action", "accepted", refused) from None
        except ValueError as error:  # e.g. the game goes on past the trace's last deal
            raise Mismatch(label, "action", "accepted", f"error: {error}") from None
        after = RULES.view(state, None)
        hand_over = len(after.history) > len(before.history)
        _compare(label, "to_act", step["to_act"], [] if hand_over else sorted(RULES.to_act(state)))
        if isinstance(action, Pass):
            if after.phase == "play" and not hand_over:
                self.check_hands(label, entry, state)
            return state, after
        done: Trick | None = None
        if hand_over:
            tricks = after.history[-1].tricks
            done, broken = tricks[-1], _hearts_broken(tricks)
        elif len(after.tricks) > len(before.tricks):
            done, broken = after.tricks[-1], after.hearts_broken
        if done is None:
            _compare(label, "trick", step["trick"], [CODES[c] for _, c in after.trick])
            for key in ("trick_winner", "trick_points", "hearts_broken"):
                _compare(label, key, step.get(key), None)
            return state, after
        _compare(label, "trick", step["trick"], _codes(done.cards))
        _compare(label, "trick_winner", step.get("trick_winner"), done.winner)
        _compare(label, "trick_points", step.get("trick_points"), done.points)
        _compare(label, "hearts_broken", step.get("hearts_broken"), broken)
        return state, after

    def probe(self, label: str, state: HeartsState, step: Mapping[str, Any]) -> None:
        reason = step.get("reason")
        try:
            action = RULES.action_from_json(step["action"])
        except ValueError as error:
            raise Mismatch(label, "action", step["action"], f"unreadable: {error}") from None
        check_refused(RULES, label, state, step["seat"], action, reason)


def check_trace(trace: Mapping[str, Any]) -> int:
    """Replay one trace; returns its step count or raises Mismatch at the first difference."""
    if trace.get("format") != TRACE_FORMAT or trace.get("game") != "hearts":
        raise Mismatch("header", "format", f"hearts format {TRACE_FORMAT}", trace.get("format"))
    return _Replay(trace).run()


def is_trace(document: Mapping[str, Any]) -> bool:
    """A Hearts trace (not the folder's informational index)."""
    return document.get("game") == "hearts" and "hands" in document


CHECKER = TraceChecker(is_trace=is_trace, check=check_trace)
