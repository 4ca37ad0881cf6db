"""Benchmark of the Hundred and Ten engine; writes bench/results/engine.md.

Run: .venv/bin/python bench/engine.py [--quick] [--reference /tmp/refvenv/bin/python]

Measures
* actions/s of whole bot-only games, four seats automated through the `Game` facade (what the
  reference does when all seats are automated) and through a bare suggestion+apply loop;
* the cost of one action (suggestion + apply), of the action that closes a round, and of the
  views a page needs (perspective_of + round_history + scores), at round 1 and at round 40 of
  a game whose target score is raised so that it does not end;
* round playouts/s through determinize + playout (search bots' inner loop);
* every game kind through the rules protocol (bench/kinds.py): actions/s of whole games of naive
  bots (`games.kinds.simulation.simulate`), actions/s with random bots (the engine with an
  almost free bot), and the cost of `RULES.view(state, seat)` (one per socket on a web move);
  measured in the same rounds as Hundred and Ten's facade and bare loop, kinds alternating;
* with --reference PYTHON: the reference package `hundredandten==1.10.4`, installed in a
  throwaway venv outside the repo, playing the same kind of games. A small script is written
  to a temporary file at run time and run with that interpreter, alternately with ours.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.kinds import load_kinds, measure_kinds  # noqa: E402
from bench.kinds import report as report_kinds  # noqa: E402
from games.kinds.hundred_and_ten.engine import (  # noqa: E402
    Game,
    GameState,
    Status,
    apply,
    determinize,
    new_game,
    perspective_of,
    playout,
    round_history,
    suggestion,
)

RESULTS = ROOT / "bench" / "results" / "engine.md"
PLAYERS = ("p1", "p2", "p3", "p4")

REFERENCE_SCRIPT = """
import json, sys, time
from hundredandten import HundredAndTen
games, seed = int(sys.argv[1]), sys.argv[2]
played, seconds = [], 0.0
for index in range(games):
    started = time.perf_counter()
    game = HundredAndTen(seed=f"{seed}:{index}")
    for name in ("p1", "p2", "p3", "p4"):
        game.join(name)
    for name in ("p1", "p2", "p3", "p4"):
        game.automate(name)
    game.start_game()  # automated seats play the whole game inside this call
    seconds += time.perf_counter() - started
    assert game.winner is not None
    played.append(sum(
        len(r.bids) + (1 if r.selection else 0) + len(r.discards)
        + sum(len(t.plays) for t in r.tricks)
        for r in game.rounds))
print(json.dumps({"games": games, "actions": sum(played), "seconds": seconds}))
"""


# --- Whole games -------------------------------------------------------------------------------


def facade_games(games: int, seed: str) -> tuple[int, float]:
    """(actions, seconds) of `games` four-bot games run by the Game facade's automation."""
    actions, seconds = 0, 0.0
    for index in range(games):
        started = time.perf_counter()
        game = Game("p1", seed=f"{seed}:{index}", public=True)
        for name in PLAYERS[1:]:
            game.join(name)
        for name in PLAYERS:
            game.automate(name)
        steps = game.start("p1")
        seconds += time.perf_counter() - started
        assert game.status is Status.WON
        actions += len(steps)
    return actions, seconds


def loop_games(games: int, seed: str) -> tuple[int, float]:
    """(actions, seconds) of `games` four-bot games as a bare suggestion+apply loop."""
    actions = 0
    started = time.perf_counter()
    for index in range(games):
        state = new_game(f"{seed}:{index}", 4)
        while state.status is not Status.WON:
            state = apply(state, suggestion(state))
            actions += 1
    return actions, time.perf_counter() - started


def reference_games(python: str, games: int, seed: str) -> tuple[int, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(REFERENCE_SCRIPT)
    try:
        done = subprocess.run(
            [python, script.name, str(games), seed],
            capture_output=True,
            text=True,
            check=True,
            cwd=tempfile.gettempdir(),  # never import anything from the repo
        )
    finally:
        os.unlink(script.name)
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return int(data["actions"]), float(data["seconds"])


# --- Round 1 against round 40 ------------------------------------------------------------------


def long_game_states(seed: str, starts: tuple[int, ...]) -> dict[int, list[GameState]]:
    """For each of `starts`, every state of the first round from that index on that was
    played out (not passed out), in a naive-bot game that cannot end (huge target)."""
    state = new_game(seed, 4, target=10**9)
    by_round: dict[int, list[GameState]] = {}
    while state.round_index <= max(starts) + 20:
        by_round.setdefault(state.round_index, []).append(state)
        state = apply(state, suggestion(state))
    played = [r.index for r in state.history if r.outcome != "no_bidders"]
    return {start: by_round[next(i for i in played if i >= start)] for start in starts}


def per_call_pair(
    first: list[GameState],
    second: list[GameState],
    function: Callable[[GameState], object],
    repeat: int,
) -> tuple[float, float]:
    """Microseconds per call of `function` over each list of states.

    The two are timed alternately, 9 times each, and the best time of each is kept, so a
    burst of load on the machine cannot favour one side.
    """

    def once(states: list[GameState]) -> float:
        started = time.perf_counter()
        for _ in range(repeat):
            for state in states:
                function(state)
        return (time.perf_counter() - started) / (repeat * len(states)) * 1e6

    a, b = [], []
    for _ in range(9):
        a.append(once(first))
        b.append(once(second))
    return min(a), min(b)


def act(state: GameState) -> GameState:
    return apply(state, suggestion(state))


_NEXT_MOVE: dict[int, object] = {}


def apply_only(state: GameState) -> GameState:
    move = _NEXT_MOVE.get(id(state))
    if move is None:
        move = _NEXT_MOVE[id(state)] = suggestion(state)
    return apply(state, move)  # type: ignore[arg-type]


def views(state: GameState) -> object:
    seat = state.active_seat if state.active_seat is not None else 0
    return perspective_of(state, seat), round_history(state), state.scores


def closing_states(states: list[GameState]) -> list[GameState]:
    """States whose next (bot) action finishes the round."""
    return [s for s in states if len(act(s).history) > len(s.history)]


# --- Playouts ----------------------------------------------------------------------------------


def playouts_per_second(seconds: float, phase: Status) -> float:
    """Round playouts/s from states in `phase`: determinize for the active seat, play out."""
    starts = []
    for index in range(40):
        state = new_game(f"playout:{index}", 4, target=10**9)
        while state.status is not phase:
            state = act(state)
        starts.append(state)
    rng = random.Random(7)
    best = 0.0
    finish = time.perf_counter() + seconds
    while time.perf_counter() < finish:  # best of several short runs, as for the other figures
        started = time.perf_counter()
        for _ in range(5):
            for state in starts:
                playout(determinize(state, state.active_seat, rng), rng)  # type: ignore[arg-type]
        best = max(best, 5 * len(starts) / (time.perf_counter() - started))
    return best


# --- Report ------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", help="python of a venv with hundredandten==1.10.4")
    parser.add_argument("--games", type=int, default=200, help="games per measurement of ours")
    parser.add_argument("--reference-games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5, help="alternations with the reference")
    parser.add_argument("--quick", action="store_true", help="fewer games (smoke run)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    options = parser.parse_args()
    if options.quick:
        options.games, options.reference_games, options.rounds = 20, 3, 1

    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    say("# Engine benchmark")
    say()
    say(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs, `{' '.join(sys.argv[1:]) or 'defaults'}`, "
        f"load average at start {os.getloadavg()[0]:.2f} (other work shares the machine)."
    )
    say("Produced by `.venv/bin/python bench/engine.py`; figures are wall-clock, best of runs.")
    say()

    say("## Whole games, four naive bots")
    say()
    ours_facade: list[float] = []
    ours_loop: list[float] = []
    loop_actions: list[int] = []
    reference: list[float] = []
    kinds = load_kinds()
    view_seconds = 0.1 if options.quick else 0.3
    for attempt in range(options.rounds):
        seed = f"bench-{attempt}"
        if options.reference:
            ref_actions, ref_seconds = reference_games(
                options.reference, options.reference_games, seed
            )
            reference.append(ref_actions / ref_seconds)
        actions, seconds = facade_games(options.games, seed)
        ours_facade.append(actions / seconds)
        actions, seconds = loop_games(options.games, seed)
        ours_loop.append(actions / seconds)
        loop_actions.append(actions)
        # The same seeds: Hundred and Ten's naive games here are the games above. Every other
        # round the kinds go in the other order, so none always runs first.
        order = kinds if attempt % 2 == 0 else kinds[::-1]
        measure_kinds(order, options.games, seed, view_seconds)
    say("| engine | how | actions/s, best run | median run | runs |")
    say("| --- | --- | ---: | ---: | ---: |")
    say(
        f"| ours | `Game` facade, 4 automated seats, {options.games} games/run "
        f"| {max(ours_facade):,.0f} | {statistics.median(ours_facade):,.0f} | {len(ours_facade)} |"
    )
    say(
        f"| ours | bare `apply(state, suggestion(state))` loop, same games "
        f"| {max(ours_loop):,.0f} | {statistics.median(ours_loop):,.0f} | {len(ours_loop)} |"
    )
    if reference:
        say(
            f"| hundredandten 1.10.4 | 4 automated seats, `start_game()`, "
            f"{options.reference_games} games/run | {max(reference):,.0f} "
            f"| {statistics.median(reference):,.0f} | {len(reference)} |"
        )
        paired = [ours / ref for ours, ref in zip(ours_facade, reference, strict=True)]
        say()
        say(
            f"Ratio ours (facade) / reference: **{max(ours_facade) / max(reference):.1f}x** "
            f"best against best; {statistics.median(paired):.1f}x median of the paired runs "
            "(runs alternate: reference, ours, reference, ours ...)."
        )
    else:
        say()
        say("Reference not measured (pass `--reference /tmp/refvenv/bin/python`).")
    say()

    report_kinds(kinds, options.games, options.rounds, say)

    ours = next((kind for kind in kinds if kind.slug == "hundred-and-ten"), None)
    if ours is not None:
        same = ours.naive_actions == loop_actions
        say(
            f"Hundred and Ten through the protocol against the bare engine loop above "
            f"({'the same' if same else 'NOT the same'} {sum(loop_actions):,} actions), "
            "median against median (best against best; median of the ratios of each round):"
        )
        say()
        for label, figures in (
            ("protocol loop", ours.naive_loop),
            ("`simulate`", ours.naive),
        ):
            paired = [f / b for f, b in zip(figures, ours_loop, strict=True)]
            median = statistics.median(figures)
            say(
                f"- {label} / bare loop: **{median / statistics.median(ours_loop):.2f}x** "
                f"({max(figures) / max(ours_loop):.2f}x; {statistics.median(paired):.2f}x); "
                f"/ `Game` facade: {median / statistics.median(ours_facade):.2f}x"
            )
        say()

    say("## Round 1 against round 40 (target score raised so the game goes on)")
    say()
    states = long_game_states("bench-long", (1, 40))
    early, late = states[1], states[40]
    rows = [
        ("one action (suggestion + apply)", act, early, late, 100),
        ("apply alone", apply_only, early, late, 100),
        ("the action closing a round", act, closing_states(early), closing_states(late), 1000),
        ("views: perspective_of + round_history + scores", views, early, late, 100),
    ]
    say(
        f"States: every state ({len(early)} and {len(late)}) of round {early[0].round_index} "
        f"and round {late[0].round_index} of a four-bot game, the first played-out rounds from "
        "indexes 1 and 40."
    )
    say()
    r1, r40 = early[0].round_index, late[0].round_index
    say(f"| cost per call | round {r1} (µs) | round {r40} (µs) | round {r40} / round {r1} |")
    say("| --- | ---: | ---: | ---: |")
    for label, function, first, fortieth, repeat in rows:
        a, b = per_call_pair(first, fortieth, function, repeat)
        say(f"| {label} | {a:.2f} | {b:.2f} | {b / a:.2f} |")
    say()

    say("## Round playouts (determinize for the active seat, then naive bots to the round end)")
    say()
    say(
        "Positions: 40 four-player games stopped at that phase. Like a search, every run plays "
        "the same positions out again, so after the first run the next round's seeded deck "
        "comes from the engine's deck cache."
    )
    say()
    say("| from | playouts/s |")
    say("| --- | ---: |")
    seconds = 1.0 if options.quick else 3.0
    for phase, label in ((Status.BIDDING, "start of the bidding"), (Status.TRICKS, "first trick")):
        say(f"| {label} | {playouts_per_second(seconds, phase):,.0f} |")
    say()

    say(
        f"Load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)."
    )
    options.output.parent.mkdir(parents=True, exist_ok=True)
    options.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"written to {options.output}")


if __name__ == "__main__":
    main()
