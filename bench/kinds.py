"""Every game kind of the registry through the rules protocol, for bench/engine.py: whole
games of naive bots (through `games.kinds.simulation.simulate` and through a bare protocol
loop), games of random bots, and the cost of `RULES.view(state, seat)`; and the section of
bench/results/engine.md that reports them."""

from __future__ import annotations

import ast
import importlib
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.kinds.protocol import Bot, Rules, resolve_options
from games.kinds.simulation import simulate

ROOT = Path(__file__).resolve().parents[1]


def _kinds() -> tuple[tuple[str, str], ...]:
    """Every game kind of the registry (`games/registry.py` KIND_MODULES, read without
    loading Django), as (its seam, its bots): the seam gives RULES, NAME, SEAT_COUNTS and
    OPTIONS; the bots module BOTS, with a "naive" and a "random" bot."""
    tree = ast.parse((ROOT / "games" / "registry.py").read_text())
    modules = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "KIND_MODULES" for t in node.targets)
    )
    folders = [module.rsplit(".", 1)[0] for module in modules]
    return tuple((f"{folder}.engine.seam", f"{folder}.bots") for folder in folders)


# Every game kind measured through the rules protocol.
KINDS = _kinds()
# Random bots' games stop after this many actions if not over: Hundred and Ten's practically
# never end (random bids fail, and the scores run away from the target below zero).
RANDOM_CAP = 1000


@dataclass
class KindBench:
    """One game kind's rules and bots, and its figures over the rounds."""

    slug: str
    name: str
    rules: Rules[Any, Any, Any]
    bots: dict[str, Bot[Any, Any]]
    seats: int
    options: dict[str, Any]
    view_states: list[Any] = field(default_factory=list)
    naive: list[float] = field(default_factory=list)  # actions/s, one per round
    naive_actions: list[int] = field(default_factory=list)
    naive_loop: list[float] = field(default_factory=list)  # the same games, no timing
    random: list[float] = field(default_factory=list)
    random_over: list[int] = field(default_factory=list)  # random games that ended
    views: list[float] = field(default_factory=list)  # µs per view call


def load_kinds() -> list[KindBench]:
    kinds = []
    for seam_module, bots_module in KINDS:
        seam = importlib.import_module(seam_module)
        bots = importlib.import_module(bots_module).BOTS
        seats = max(seam.SEAT_COUNTS)
        options = resolve_options(seam.OPTIONS, {})
        kind = KindBench(seam.SLUG, seam.NAME, seam.RULES, bots, seats, options)
        # Positions for the view timing: every state of a few naive-bot games.
        for index in range(3):
            state = kind.rules.initial_state(f"views:{index}", seats, kind.options)
            rng = random.Random(index)
            while waiting := kind.rules.to_act(state):
                kind.view_states.append(state)
                seat = min(waiting)
                state = kind.rules.apply(state, seat, bots["naive"].choose(state, seat, rng))
        kinds.append(kind)
    return kinds


def protocol_games(
    kind: KindBench, bot_name: str, games: int, seed: str, cap: int | None = None
) -> tuple[int, int, float]:
    """(actions, games that ended, seconds) of `games` games of one bot in every seat: the
    loop of `simulation.play` (same seeds, same bot generators) without its per-decision
    timing, each game stopped after `cap` actions if given."""
    rules, bot = kind.rules, kind.bots[bot_name]
    actions = over = 0
    started = time.perf_counter()
    for index in range(games):
        game_seed = f"{seed}:{index}"
        state = rules.initial_state(game_seed, kind.seats, kind.options)
        rngs = [random.Random(f"{game_seed}:bot:{seat}") for seat in range(kind.seats)]
        budget = cap
        while waiting := rules.to_act(state):
            if budget is not None:
                if budget == 0:
                    break
                budget -= 1
            seat = min(waiting)
            state = rules.apply(state, seat, bot.choose(state, seat, rngs[seat]))
            actions += 1
        else:
            over += 1
    return actions, over, time.perf_counter() - started


def view_cost(kind: KindBench, seconds: float) -> float:
    """µs per `rules.view(state, seat)`, every seat of every state, repeated for `seconds`."""
    view, states, seats = kind.rules.view, kind.view_states, range(kind.seats)
    calls = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        for state in states:
            for seat in seats:
                view(state, seat)
        calls += len(states) * len(seats)
    return elapsed / calls * 1e6


def measure_kinds(kinds: list[KindBench], games: int, seed: str, view_seconds: float) -> None:
    """One round: every kind in turn (naive games, random games, views)."""
    for kind in kinds:
        lineup = ["naive"] * kind.seats
        result = simulate(kind.rules, kind.seats, kind.options, games, seed, lineup, kind.bots)
        kind.naive.append(result.actions_per_second)
        kind.naive_actions.append(result.actions)
        actions, _, seconds = protocol_games(kind, "naive", games, seed)
        kind.naive_loop.append(actions / seconds)
        actions, over, seconds = protocol_games(kind, "random", games, seed, RANDOM_CAP)
        kind.random.append(actions / seconds)
        kind.random_over.append(over)
        kind.views.append(view_cost(kind, view_seconds))


def report(kinds: list[KindBench], games: int, rounds: int, say: Callable[..., None]) -> None:
    """The section of the results file on every kind (figures of `measure_kinds`' rounds)."""
    say("## Every game kind through the rules protocol")
    say()
    say(
        f"Measured in the same rounds as the table above: each round plays the facade's and the "
        f"bare loop's games, then every kind in turn (the order reversed every other round), "
        f"{games} games each of naive bots at the game's largest table "
        f"(One Hundred and Four: 10 seats, Fifty-Six: 6) through `games.kinds.simulation."
        f"simulate` (`BOTS['naive'].choose` + `RULES.apply`, timing every decision as it "
        f"does), the same games through a bare protocol loop (`to_act`, `choose`, `apply`; "
        f"no timing), as many games of random bots (that loop; each game stopped after "
        f"{RANDOM_CAP:,} actions if not over), and `RULES.view(state, seat)` for every seat of "
        f"every state of three naive games (a web move costs one such call per table socket). "
        f"Default options; actions/s best and median of {rounds} round(s)."
    )
    say()
    say(
        "| game | naive, `simulate` | naive, protocol loop | random, protocol loop "
        "| random games over | `view` µs per call | states × seats |"
    )
    say("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")

    def best_median(
        values: list[float], spec: str = ",.0f", best: Callable[..., float] = max
    ) -> str:
        return f"{best(values):{spec}} / {statistics.median(values):{spec}}"

    for kind in kinds:
        say(
            f"| {kind.name} | {best_median(kind.naive)} | {best_median(kind.naive_loop)} "
            f"| {best_median(kind.random)} "
            f"| {sum(kind.random_over)} of {games * len(kind.random_over)} "
            f"| {best_median(kind.views, '.2f', min)} "
            f"| {len(kind.view_states):,} × {kind.seats} |"
        )
    say()
    say("Each figure: best / median run (for `view`, the lowest cost is the best).")
    say()
