"""Replay conformance traces (shared/conformance/hundred-and-ten/FORMAT.md) and compare.

A trace is driven through `Game`, like a library user would: seats automated from the start,
every submitted action, `automate` steps. Our automation must make exactly the trace's `auto`
steps. After every step the full observable state is compared with the recorded one, key by
key, together with `trick_winner`, `auto_passes`, `round_end`, each round's dealer and deal,
refused probes (state unchanged) and `final`. The first difference stops the trace.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.kinds.conformance import Mismatch, TraceChecker

from .engine.bots import suggestion
from .engine.cards import Card, format_card, parse_card
from .engine.game import Game, StepEvents, Transition, events_of
from .engine.moves import Bid, Discard, IllegalMove, Move, Play, SelectTrump, Unpass
from .engine.rules import legal_bids, legal_plays
from .engine.state import FixedDecks, GameState, RoundRecord, Status, check_deck

TRACE_FORMAT = "hundred-and-ten-trace"


# --- Translating between the trace and the engine ---------------------------------------------


def _cards(values: Iterable[Card]) -> list[str]:
    return [format_card(c) for c in values]


def move_to_trace(move: Move, names: Sequence[str], with_player: bool = True) -> dict[str, Any]:
    """`move` as a trace action dict."""
    out: dict[str, Any]
    if isinstance(move, Bid):
        out = {"type": "bid", "amount": move.amount}
    elif isinstance(move, Unpass):
        out = {"type": "unpass"}
    elif isinstance(move, SelectTrump):
        out = {"type": "select_trump", "suit": move.suit}
    elif isinstance(move, Discard):
        out = {"type": "discard", "cards": _cards(move.cards)}
    else:
        out = {"type": "play", "card": format_card(move.card)}
    if with_player:
        out = {"type": out["type"], "player": names[move.seat], **out}
    return out


def move_from_trace(action: Mapping[str, Any], names: Sequence[str]) -> Move:
    """The engine move for a trace action; an unknown player gets a seat that is in no game."""
    player = action["player"]
    seat = names.index(player) if player in names else len(names)
    kind = action["type"]
    if kind == "bid":
        return Bid(seat, int(action["amount"]))
    if kind == "unpass":
        return Unpass(seat)
    if kind == "select_trump":
        return SelectTrump(seat, str(action["suit"]))
    if kind == "discard":
        return Discard(seat, tuple(parse_card(c) for c in action["cards"]))
    if kind == "play":
        return Play(seat, parse_card(action["card"]))
    raise ValueError(f"unknown action type {kind!r}")


def observe(state: GameState, names: Sequence[str]) -> dict[str, Any]:
    """The state as a trace records it (keys per status as in FORMAT.md)."""

    def name(seat: int | None) -> str | None:
        return None if seat is None else names[seat]

    status = state.status
    active = state.active_seat
    out: dict[str, Any] = {
        "status": status.value,
        "round": state.round_index,
        "active": name(active),
        "hands": {names[s]: _cards(hand) for s, hand in enumerate(state.hands)},
        "bid": state.bid,
        "bidder": name(state.bidder),
        "trump": state.trump,
    }
    if status is Status.BIDDING:
        out["passed"] = [names[s] for s in state.passed]
        out["pre_passed"] = [names[s] for s in state.pre_passed]
        out["legal_bids"] = list(legal_bids(state, active))  # type: ignore[arg-type]
    if status is Status.TRICKS:
        out["trick"] = [[names[s], format_card(c)] for s, c in state.current_trick]
        out["legal_plays"] = _cards(legal_plays(state, active))  # type: ignore[arg-type]
    out["scores"] = {names[s]: score for s, score in enumerate(state.scores)}
    out["winner"] = name(state.winner)
    out["suggestion"] = (
        None if active is None else move_to_trace(suggestion(state), names, with_player=False)
    )
    return out


def note_of(transition: Transition) -> str | None:
    """The trace's `note` for an accepted move: "prepass" or "unpass", else None."""
    move, before = transition.move, transition.before
    if isinstance(move, Unpass):
        return "unpass"
    if isinstance(move, Bid) and move.amount == 0 and move.seat != before.active_seat:
        return "prepass"
    return None


def round_end_of(record: RoundRecord, names: Sequence[str]) -> dict[str, Any]:
    """A round record as a trace's `round_end`."""
    out: dict[str, Any] = {"round": record.index, "outcome": record.outcome}
    if record.outcome == "no_bidders":
        return out
    out.update(
        bidder=names[record.bidder],  # type: ignore[index]
        bid=record.bid,
        trump=record.trump,
        trick_winners=[names[t.winner] for t in record.tricks],
        bonus_trick=record.bonus_trick,
        score_events=[[names[s], delta] for s, delta in record.score_events],
        round_scores={names[s]: delta for s, delta in enumerate(record.round_scores)},
    )
    return out


def _compare(step: int | str, prefix: str, expected: Any, got: Any) -> None:
    """Raise Mismatch at the first differing key (dicts compared key by key, both ways)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in expected:
            if key not in got:
                raise Mismatch(step, f"{prefix}{key}", expected[key], "<missing>")
            _compare(step, f"{prefix}{key}.", expected[key], got[key])
        for key in got:
            if key not in expected:
                raise Mismatch(step, f"{prefix}{key}", "<absent>", got[key])
        return
    if expected != got or type(expected) is not type(got):
        raise Mismatch(step, prefix.rstrip("."), expected, got)


# --- Replaying ---------------------------------------------------------------------------------


def trace_decks(trace: Mapping[str, Any]) -> FixedDecks:
    """The deck of every round: the hands in seat order, then the draw pile (FORMAT.md)."""
    names = trace["players"]
    decks = []
    for index, entry in enumerate(trace["rounds"]):
        if entry["index"] != index:
            raise Mismatch("rounds", f"rounds[{index}].index", index, entry["index"])
        cards = [c for name in names for c in entry["hands"][name]] + list(entry["draw_pile"])
        decks.append(check_deck([parse_card(c) for c in cards], index))
    return FixedDecks(tuple(decks))


class _Replay:
    def __init__(self, trace: Mapping[str, Any]) -> None:
        self.trace = trace
        self.names: list[str] = list(trace["players"])
        self.rounds = trace["rounds"]
        self.seen_round = -1

    def check_state(self, step: int | str, state: GameState, expected: Mapping[str, Any]) -> None:
        self.check_deal(step, state)
        _compare(step, "", dict(expected), observe(state, self.names))

    def check_deal(self, step: int | str, state: GameState) -> None:
        """Each round's dealer and dealt hands, when the round first appears."""
        if state.round_index == self.seen_round:
            return
        self.seen_round = state.round_index
        if state.round_index >= len(self.rounds):
            raise Mismatch(step, "round", f"< {len(self.rounds)}", state.round_index)
        entry = self.rounds[state.round_index]
        _compare(step, "dealer", entry["dealer"], self.names[state.dealer])
        dealt = {self.names[s]: _cards(h) for s, h in enumerate(state.dealt)}
        _compare(step, "dealt.", entry["hands"], dealt)

    def check_events(self, step: int, recorded: Mapping[str, Any], events: StepEvents) -> None:
        names = self.names
        got_winner = None if events.trick_winner is None else names[events.trick_winner]
        _compare(step, "trick_winner", recorded.get("trick_winner"), got_winner)
        got_passes = [names[s] for s in events.auto_passes] or None
        _compare(step, "auto_passes", recorded.get("auto_passes"), got_passes)
        got_end = None if events.round_end is None else round_end_of(events.round_end, names)
        _compare(step, "round_end.", recorded.get("round_end"), got_end)

    def check_transition(self, step: int, recorded: Mapping[str, Any], t: Transition) -> None:
        _compare(step, "auto", bool(recorded.get("auto", False)), t.auto)
        _compare(step, "action.", recorded["action"], move_to_trace(t.move, self.names))
        _compare(step, "note", recorded.get("note"), note_of(t))
        self.check_events(step, recorded, events_of(t.before, t.after, t.move))
        self.check_state(step, t.after, recorded["state"])

    def run(self) -> int:
        trace = self.trace
        names = self.names
        game = Game(names[0], public=True, decks=trace_decks(trace))
        for name in names[1:]:
            game.join(name)
        for name in trace.get("automated_from_start", ()):
            game.automate(name)
        pending: deque[Transition] = deque(game.start(names[0]))
        now = pending[0].before if pending else game.state
        assert now is not None
        self.check_state("initial_state", now, trace["initial_state"])
        steps = trace["steps"]
        for index, step in enumerate(steps):
            action = step["action"]
            if step.get("auto"):
                if not pending:
                    raise Mismatch(index, "auto", "an automated move", "no automated move")
                self.check_transition(index, step, pending.popleft())
                continue
            if pending:
                got = move_to_trace(pending[0].move, names)
                raise Mismatch(index, "auto", action, f"automated move {got}")
            if action["type"] == "automate":
                pending.extend(game.automate(action["player"]))
                state = pending[0].before if pending else game.state
                assert state is not None
                self.check_state(index, state, step["state"])
                continue
            move = move_from_trace(action, names)
            expect = step.get("expect")
            if expect is not None:
                self.check_probe(index, game, move, expect)
                continue
            try:
                done = game.act(move)
            except IllegalMove as error:
                raise Mismatch(index, "action", "accepted", f"refused: {error}") from None
            self.check_transition(index, step, done[0])
            pending.extend(done[1:])
        if pending:
            got = move_to_trace(pending[0].move, names)
            raise Mismatch("end", "auto", "no more moves", f"automated move {got}")
        state = game.state
        assert state is not None
        final = {
            "winner": game.winner,
            "scores": {names[s]: v for s, v in enumerate(state.scores)},
            "rounds": state.round_index + 1,
        }
        _compare("final", "final.", trace["final"], final)
        return len(steps)

    def check_probe(self, index: int, game: Game, move: Move, expect: str) -> None:
        before = game.state
        assert before is not None
        try:
            done = game.act(move)
        except IllegalMove:
            return
        if expect == "rejected":
            game.state = before
            raise Mismatch(index, "expect", "rejected", "accepted")
        # An "ignored" probe may be accepted, as long as nothing observable changes.
        if done[1:] or observe(done[0].after, self.names) != observe(before, self.names):
            raise Mismatch(index, "expect", "ignored (no change)", "state changed")


def check_trace(trace: Mapping[str, Any]) -> int:
    """Replay one trace; returns its step count or raises Mismatch at the first difference."""
    if trace.get("format") != TRACE_FORMAT or trace.get("format_version") != 1:
        raise Mismatch("header", "format", f"{TRACE_FORMAT} v1", trace.get("format"))
    return _Replay(trace).run()


def is_trace(document: Mapping[str, Any]) -> bool:
    """A Hundred and Ten trace (not the folder's informational index)."""
    return "steps" in document and "rounds" in document


CHECKER = TraceChecker(is_trace=is_trace, check=check_trace)
