"""Replay One Hundred and Four conformance traces (shared/conformance/one-hundred-and-four/
FORMAT.md) and compare.

A trace is driven through the rules protocol only (`RULES`), like the platform drives the
engine: every deal injected with `initial_state_from_deals`, every step submitted with
`apply`. Compared with what the engine shows through its views, `to_act`, `legal_actions`
and `outcome`:

* at each deal: the deal number, the rows and every hand as dealt, every seat to act;
* before each accepted `choose`: the seat's legal cards are its dealt hand minus the cards
  it chose so far; after it: the seats still to act;
* at a too-low pause (after the last `choose`): the pause itself, the seat asked (the only
  one with legal actions), its legal rows, its card, the revealed choices, the rows still as
  before the turn, and the bot policy's row (`bots.policy_row`) against `policy_row`;
* after the turn's last accepted step: the turn's choices, every placement (seat, card, row,
  took, too_low_choice) in order, `rows_after`, `penalties_after`, the hands and the seats
  to act (from the view's `last_turn` and, once a match has dealt again, its `history`);
* at a deal's end: a match's `penalties` and `totals_after`, and whether the game goes on;
* every refused step (also `after_end`): refused with its reason as the error code, and
  the state unchanged; at the end the outcome and that nobody is to act.

The first difference raises `Mismatch`; `check_trace` returns the number of steps checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kinds.conformance import Mismatch, TraceChecker, check_refused
from games.kinds.conformance import compare as _compare
from games.kinds.protocol import IllegalAction

from .bots import policy_row
from .engine.actions import Choose, TakeRow
from .engine.cards import HAND_SIZE
from .engine.seam import RULES, SLUG
from .engine.state import HundredAndFourState, Placement

TRACE_FORMAT = 1


def _rows(rows: Sequence[Sequence[int]]) -> list[list[int]]:
    return [list(row) for row in rows]


def placement_to_trace(p: Placement) -> dict[str, Any]:
    """A placement as the trace's `resolution` writes it (without a pause's extra keys)."""
    out: dict[str, Any] = {
        "seat": p.seat,
        "card": p.card,
        "row": p.row,
        "took": None if p.took is None else list(p.took),
    }
    if p.too_low:
        out["too_low_choice"] = p.row
    return out


_PLACEMENT_KEYS = ("seat", "card", "row", "took", "too_low_choice")


def deals_of(trace: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The deals of a match, or the one deal of a one-deal game, in one shape."""
    if "deals" in trace:
        return list(trace["deals"])
    return [{"deal": trace["deal"], "turns": trace["turns"]}]


class _Replay:
    def __init__(self, trace: Mapping[str, Any]) -> None:
        self.trace = trace
        self.seats: int = trace["seats"]
        self.everyone = list(range(self.seats))
        self.steps = 0

    def run(self) -> int:
        trace = self.trace
        entries = deals_of(trace)
        options = trace.get("options") or {}
        try:
            state = RULES.initial_state_from_deals(
                [entry["deal"] for entry in entries],
                self.seats,
                {"match_to": options.get("match_to")},
            )
        except ValueError as error:
            raise Mismatch("header", "deals", "valid deals", str(error)) from None
        for index, entry in enumerate(entries):
            state = self.deal(index, entry, state, index == len(entries) - 1)
        for number, step in enumerate(trace.get("after_end") or ()):
            self.steps += 1
            self.probe(f"after_end step {number}", state, step)
        outcome = RULES.outcome(state)
        expected = trace["outcome"]
        if outcome is None:
            raise Mismatch("end", "outcome", expected, None)
        _compare("end", "outcome.penalties", expected["penalties"], list(outcome.scores))
        _compare("end", "outcome.winners", expected["winners"], list(outcome.winners))
        _compare("end", "to_act", [], sorted(RULES.to_act(state)))
        return self.steps

    def deal(
        self, index: int, entry: Mapping[str, Any], state: HundredAndFourState, final: bool
    ) -> HundredAndFourState:
        label = f"deal {index}"
        if RULES.outcome(state) is not None:
            raise Mismatch(label, "game over", False, True)
        _compare(label, "hand_number", index, RULES.hand_number(state))
        dealt = entry["deal"]
        _compare(label, "rows", [[c] for c in dealt["rows"]], _rows(RULES.view(state, None).rows))
        hands = [sorted(hand) for hand in dealt["hands"]]
        for seat in self.everyone:
            _compare(label, f"hand of seat {seat}", hands[seat], list(RULES.view(state, seat).hand))
        _compare(label, "to_act", self.everyone, sorted(RULES.to_act(state)))
        turns = entry["turns"]
        _compare(label, "turns", HAND_SIZE, len(turns))
        for number, turn in enumerate(turns):
            last = number == len(turns) - 1
            state = self.turn(index, number, turn, state, hands, ends=last and final)
        label = f"deal {index} end"
        history = RULES.view(state, None).history
        if len(history) != index + 1:
            raise Mismatch(label, "deal", "over", "still being played")
        record = history[index]
        if "penalties" in entry:
            _compare(label, "penalties", entry["penalties"], list(record.penalties))
        if "totals_after" in entry:
            _compare(label, "totals_after", entry["totals_after"], list(record.totals))
        _compare(label, "game over", final, RULES.outcome(state) is not None)
        return state

    def turn(
        self,
        deal: int,
        number: int,
        turn: Mapping[str, Any],
        state: HundredAndFourState,
        hands: list[list[int]],
        ends: bool,
    ) -> HundredAndFourState:
        label = f"deal {deal} turn {number}"
        public = RULES.view(state, None)
        _compare(label, "deal and turn", [deal, number], [public.deal, public.turn])
        _compare(label, "phase", "choose", public.phase)
        rows_before = _rows(public.rows)
        resolution = turn["resolution"]
        low = resolution[0] if resolution and "asked" in resolution[0] else None
        steps = turn["steps"]
        accepted = [i for i, step in enumerate(steps) if not step.get("illegal")]
        final = accepted[-1] if accepted else -1
        committed: set[int] = set()
        for i, step in enumerate(steps):
            label = f"deal {deal} turn {number} step {i}"
            self.steps += 1
            if step.get("illegal"):
                self.probe(label, state, step)
                continue
            seat = step["seat"]
            action = RULES.action_from_json(step)
            if isinstance(action, Choose) and 0 <= seat < self.seats:
                legal = [a.card for a in RULES.legal_actions(state, seat) if isinstance(a, Choose)]
                _compare(label, "legal cards", sorted(hands[seat]), legal)
            try:
                state = RULES.apply(state, seat, action)
            except IllegalAction as error:
                raise Mismatch(label, "action", "accepted", f"refused ({error.code})") from None
            except ValueError as error:  # e.g. a match goes on past the trace's last deal
                raise Mismatch(label, "action", "accepted", f"error: {error}") from None
            if isinstance(action, Choose):
                committed.add(seat)
                if action.card in hands[seat]:
                    hands[seat].remove(action.card)
            everyone_chose = len(committed) == self.seats
            if isinstance(action, Choose) and everyone_chose and low is not None:
                self.paused(label, state, low, rows_before, turn["choices"])
            if i == final:
                self.resolved(label, state, deal, number, turn, hands, ends)
            elif isinstance(action, TakeRow) or not everyone_chose:
                waiting = [s for s in self.everyone if s not in committed]
                _compare(label, "to_act", waiting, sorted(RULES.to_act(state)))
        if final < 0:
            raise Mismatch(label, "steps", "an accepted step", "none")
        return state

    def paused(
        self,
        label: str,
        state: HundredAndFourState,
        low: Mapping[str, Any],
        rows_before: list[list[int]],
        choices: list[int],
    ) -> None:
        view = RULES.view(state, None)
        _compare(label, "phase", "pause", view.phase)
        asked = low["asked"]
        _compare(label, "asked", asked, view.asked)
        _compare(label, "to_act", [asked], sorted(RULES.to_act(state)))
        rows = [a.row for a in RULES.legal_actions(state, asked) if isinstance(a, TakeRow)]
        _compare(label, "legal_rows", low["legal_rows"], rows)
        others = [s for s in self.everyone if s != asked and RULES.legal_actions(state, s)]
        _compare(label, "seats with legal actions", [], others)
        _compare(label, "too-low card", low["card"], view.too_low)
        _compare(label, "rows during the pause", rows_before, _rows(view.rows))
        revealed = [card for _, card in sorted(view.revealed)]
        _compare(label, "revealed choices", choices, revealed)
        if "policy_row" in low:
            _compare(label, "policy_row", low["policy_row"], policy_row(view.rows))

    def resolved(
        self,
        label: str,
        state: HundredAndFourState,
        deal: int,
        number: int,
        turn: Mapping[str, Any],
        hands: list[list[int]],
        ends: bool,
    ) -> None:
        view = RULES.view(state, None)
        last = view.last_turn
        if last is None or (last.deal, last.turn) != (deal, number):
            got = None if last is None else f"deal {last.deal} turn {last.turn}"
            raise Mismatch(label, "resolution", f"deal {deal} turn {number} resolved", got)
        choices = [card for _, card in sorted(last.choices)]
        _compare(label, "choices", turn["choices"], choices)
        expected = turn["resolution"]
        _compare(label, "placements", len(expected), len(last.placements))
        for k, (want, placement) in enumerate(zip(expected, last.placements, strict=True)):
            wanted = {key: want[key] for key in _PLACEMENT_KEYS if key in want}
            _compare(label, f"resolution[{k}]", wanted, placement_to_trace(placement))
        _compare(label, "rows_after", turn["rows_after"], _rows(last.rows_after))
        same_deal = view.deal == deal
        if same_deal:
            _compare(label, "rows", turn["rows_after"], _rows(view.rows))
            penalties = list(view.penalties)
            for seat in self.everyone:
                hand = list(RULES.view(state, seat).hand)
                _compare(label, f"hand of seat {seat}", sorted(hands[seat]), hand)
        else:
            penalties = list(view.history[deal].penalties)
        _compare(label, "penalties_after", turn["penalties_after"], penalties)
        _compare(label, "to_act", [] if ends else self.everyone, sorted(RULES.to_act(state)))

    def probe(self, label: str, state: HundredAndFourState, step: Mapping[str, Any]) -> None:
        reason = step.get("reason")
        try:
            action = RULES.action_from_json(step)
        except ValueError as error:
            raise Mismatch(label, "action", dict(step), f"unreadable: {error}") from None
        check_refused(RULES, label, state, step["seat"], action, reason)


def check_trace(trace: Mapping[str, Any]) -> int:
    """Replay one trace; returns its step count or raises Mismatch at the first difference."""
    if trace.get("format") != TRACE_FORMAT or trace.get("game") != SLUG:
        raise Mismatch("header", "format", f"{SLUG} format {TRACE_FORMAT}", trace.get("format"))
    return _Replay(trace).run()


def is_trace(document: Mapping[str, Any]) -> bool:
    """A One Hundred and Four trace (not the folder's informational index)."""
    return document.get("game") == SLUG and ("deal" in document or "deals" in document)


CHECKER = TraceChecker(is_trace=is_trace, check=check_trace)
