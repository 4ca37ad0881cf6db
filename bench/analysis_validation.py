"""The issue's validation of the analysis (docs/analysis.md): resumable, accumulating over runs.

Over at least 20,000 graded decisions per level and game (the issue's short games: Hundred and
Ten to 60, Hearts to 50, One Hundred and Four one deal, Fifty-Six one table a team), the
analysis at its default budget must rank medium above easy with non-overlapping intervals in
every game, hard at least level with medium, and a seat's accuracy in a game must go with its
result (a rank correlation whose 95% interval excludes zero). That is hours of CPU, so:

* `run --game <slug|all> --minutes M [--jobs J]` plays and analyses games by index i, seeded
  `valid-<slug>-<i>`, skipping the indices already recorded (for the present ANALYSIS_VERSION,
  budget, seats and options), and appends one JSON line per game to
  `bench/results/analysis-validation/<slug>.jsonl`, flushed and synced as each game ends (a game
  finished is never lost). It starts no new game once M minutes are used up and waits for those
  running. With `all` the next game goes to the game furthest from the goal, so all advance
  together; a game whose every level has `--until` decisions (20,000) gets no more.
  Line-up of game i: seat s plays `LEVELS[(s + i) % 3]` (hard, medium, easy), so every level
  sits at every seat in turn and gets about the same number of decisions; with alternating
  teams of 6 seats each team holds one bot of each level.
* `report` reads the files and writes `bench/results/analysis-validation.md` (statistics with
  scipy: the `bench` dependency group).

Run: `.tools/bin/uv run --group bench python bench/analysis_validation.py run --game all
--minutes 60 --jobs 2`, then `... report`. One run at a time per game (a lock on its file).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import multiprocessing
import os
import queue
import signal
import statistics
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The registry imports Django's translation helpers only: no settings, no database.
from games import registry  # noqa: E402
from games.kinds.analysis import ANALYSIS_VERSION, analyse_game  # noqa: E402
from games.kinds.simulation import percentiles, play  # noqa: E402

OUT = ROOT / "bench" / "results" / "analysis-validation"
REPORT = ROOT / "bench" / "results" / "analysis-validation.md"
LEVELS = ("hard", "medium", "easy")
GOAL = 20_000  # graded decisions per level and game
SEED = 20261129  # the bootstrap's random generator, so a report is reproducible

# The short games: (name, options given, how the report says them). Seats: the game's
# usual table (GameKind.table_size).
GAMES: dict[str, tuple[str, dict[str, Any], str]] = {
    "hundred-and-ten": ("Hundred and Ten", {"target": 60}, "to 60 (`--target 60`)"),
    "hearts": ("Hearts", {"target": 50}, "to 50 (`--target 50`)"),
    "one-hundred-and-four": ("One Hundred and Four", {"match_to": None}, "one deal"),
    "fifty-six": (
        "Fifty-Six",
        {"tables_per_team": 1},
        "one table a team (`--option tables_per_team=1`)",
    ),
}


def lineup(index: int, seats: int) -> list[str]:
    """The level of each seat in game `index`: rotated one seat a game over hard, medium, easy."""
    return [LEVELS[(seat + index) % len(LEVELS)] for seat in range(seats)]


@dataclass(frozen=True)
class Setup:
    """What a game's lines must share to be counted together: the analysis' version, its
    budget, the seats and the resolved rule options."""

    slug: str
    seats: int
    options: dict[str, Any]
    budget: int

    @classmethod
    def of(cls, slug: str) -> Setup:
        kind = registry.kind(slug)
        assert kind.grading is not None, f"{slug} has no analysis"
        return cls(slug, kind.table_size, kind.resolve_options(GAMES[slug][1]), kind.grading.budget)

    def matches(self, line: dict[str, Any]) -> bool:
        return (
            line.get("analysis_version") == ANALYSIS_VERSION
            and line.get("budget") == self.budget
            and line.get("seats") == self.seats
            and line.get("options") == self.options
        )


def read_lines(slug: str) -> tuple[list[dict[str, Any]], int, int]:
    """The current lines of a game's file (one per index: the first), and how many lines were
    left out as of another setup, and as unreadable (a line cut short by a kill)."""
    setup = Setup.of(slug)
    path = OUT / f"{slug}.jsonl"
    current: dict[int, dict[str, Any]] = {}
    other = bad = 0
    if path.exists():
        for text in path.read_text().splitlines():
            if not text.strip():
                continue
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                bad += 1
                continue
            if setup.matches(line):
                current.setdefault(line["index"], line)
            else:
                other += 1
    return [current[i] for i in sorted(current)], other, bad


def level_decisions(lines: list[dict[str, Any]]) -> dict[str, int]:
    totals = dict.fromkeys(LEVELS, 0)
    for line in lines:
        for seat in line["per_seat"]:
            totals[seat["level"]] += seat["decisions"]
    return totals


# --- run ---------------------------------------------------------------------------------------


def play_one(slug: str, index: int, seats: int, options: dict[str, Any], budget: int) -> dict:
    """Game `index` of `slug`, played by the rotated line-up and analysed at `budget`: its line.
    Runs in a worker process."""
    kind = registry.kind(slug)
    grading = kind.grading
    assert grading is not None
    seed = f"valid-{slug}-{index}"
    levels = lineup(index, seats)
    started, cpu = time.perf_counter(), time.process_time()
    played = play(kind.rules, seats, options, seed, [kind.bots[lv] for lv in levels], keep_log=True)
    play_cpu = time.process_time() - cpu
    initial = kind.rules.initial_state(seed, seats, options)
    analysis = analyse_game(
        kind.rules, grading, initial, played.log, seed=f"{seed}:analysis", budget=budget
    )
    analysis_cpu = time.process_time() - cpu - play_cpu
    places = kind.places(played.outcome)
    p50, p95 = percentiles(analysis.seconds, (50, 95))
    return {
        "index": index,
        "seed": seed,
        "lineup": levels,
        "seats": seats,
        "options": options,
        "short": GAMES[slug][2],
        "analysis_version": ANALYSIS_VERSION,
        "budget": budget,
        "unit": grading.unit,
        "hands": analysis.hands,
        "actions": played.actions,
        "decisions": len(analysis.decisions),
        # Result of a seat: its place (0 first, ties share), as the ratings read the outcome
        # (GameKind.places); also its final score and whether it won.
        "per_seat": [
            {
                "seat": s.seat,
                "level": levels[s.seat],
                "decisions": s.decisions,
                "accuracy": round(s.accuracy, 6),
                "mistakes": s.mistakes + s.blunders,
                "inaccuracies": s.inaccuracies,
                "hands": s.hands,
                "place": places[s.seat],
                "score": played.outcome.scores[s.seat],
                "won": s.seat in played.outcome.winners,
                # Each graded decision's loss (the game's unit), in order: another summary
                # than `accuracy` can be computed from the lines already run.
                "losses": [round(d.loss, 2) for d in analysis.decisions if d.seat == s.seat],
                # ...and its best action's value: what was at stake (Grading.floor).
                "best": [round(d.value_best, 2) for d in analysis.decisions if d.seat == s.seat],
            }
            for s in analysis.seats
        ],
        # Wall time of each graded decision (runs may share the CPU); CPU time of the whole.
        "decision_ms": {
            "p50": round(p50 * 1000, 2),
            "p95": round(p95 * 1000, 2),
            "mean": round(statistics.fmean(analysis.seconds) * 1000, 2) if analysis.seconds else 0,
        },
        "cpu_s": {"play": round(play_cpu, 3), "analysis": round(analysis_cpu, 3)},
        "wall_s": round(time.perf_counter() - started, 3),
    }


@dataclass
class Progress:
    """A game's state in a run: its file (locked), the indices done and running, and the
    decisions per level recorded."""

    setup: Setup
    file: Any
    done: set[int]
    per_level: dict[str, int]
    games: int
    running: set[int] = field(default_factory=set)

    def estimate(self) -> float:
        """Decisions per level a game adds (1 before any is recorded)."""
        if not self.games:
            return 1.0
        return sum(self.per_level.values()) / len(LEVELS) / self.games

    def least(self) -> float:
        """The least-advanced level's decisions, counting the running games' estimate."""
        return min(self.per_level.values()) + len(self.running) * self.estimate()

    def next_index(self) -> int:
        index = 0
        while index in self.done or index in self.running:
            index += 1
        return index


def open_progress(slug: str) -> Progress:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{slug}.jsonl"
    file = path.open("a+b")
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(f"{path} is in use by another run.")
    file.seek(0, os.SEEK_END)
    if file.tell():  # a line cut short by a kill: end it, so the next one starts clean
        file.seek(-1, os.SEEK_END)
        if file.read(1) != b"\n":
            file.write(b"\n")
            file.flush()
    lines, _, _ = read_lines(slug)
    return Progress(
        Setup.of(slug), file, {line["index"] for line in lines}, level_decisions(lines), len(lines)
    )


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace) -> None:
    slugs = list(GAMES) if args.game == "all" else [args.game]
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    progress = {slug: open_progress(slug) for slug in slugs}
    deadline = time.monotonic() + args.minutes * 60
    results: queue.Queue[tuple[str, Any]] = queue.Queue()
    signal.signal(signal.SIGTERM, _stop)  # leaving the `with` below terminates the workers
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:

        def start() -> bool:
            wanting = [p for p in progress.values() if p.least() < args.until]
            if not wanting or time.monotonic() >= deadline:
                return False
            chosen = min(wanting, key=lambda p: (p.least(), len(p.running)))
            index = chosen.next_index()
            chosen.running.add(index)
            setup = chosen.setup
            pool.apply_async(
                play_one,
                (setup.slug, index, setup.seats, setup.options, setup.budget),
                callback=lambda line, slug=setup.slug: results.put((slug, line)),
                error_callback=lambda error: results.put(("", error)),
            )
            return True

        running = 0
        while running < args.jobs and start():
            running += 1
        while running:
            slug, line = results.get()
            running -= 1
            if isinstance(line, BaseException):
                raise line
            line["commit"] = commit
            line["recorded"] = datetime.now(UTC).isoformat(timespec="seconds")
            p = progress[slug]
            p.file.write(json.dumps(line, separators=(",", ":")).encode() + b"\n")
            p.file.flush()
            os.fsync(p.file.fileno())
            p.running.discard(line["index"])
            p.done.add(line["index"])
            p.games += 1
            for seat in line["per_seat"]:
                p.per_level[seat["level"]] += seat["decisions"]
            print(
                f"{slug} #{line['index']}: {line['decisions']} decisions, "
                f"{line['wall_s']:.0f} s; per level {p.per_level}",
                flush=True,
            )
            if start():
                running += 1
    for slug, p in progress.items():
        print(f"{slug}: {p.games} games, decisions per level {p.per_level}")


# --- report ------------------------------------------------------------------------------------


def _interval(data: Any, statistic: Any, vectorized: bool) -> tuple[float, float]:
    """The 95% BCa bootstrap interval of `statistic` over the games (`data`: their indices)."""
    import numpy as np
    from scipy.stats import bootstrap

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # too few games: a degenerate interval, shown as nan
        result = bootstrap(
            (data,),
            statistic,
            vectorized=vectorized,
            n_resamples=9999,
            confidence_level=0.95,
            method="BCa",
            rng=np.random.default_rng(SEED),
        )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


@dataclass
class Level:
    games: int
    seat_games: int
    decisions: int
    accuracy: float
    low: float
    high: float
    mistakes_per_hand: float


def counted(slug: str, seat: dict[str, Any]) -> int:
    """How many of a seat's graded decisions its accuracy is the mean of: those that could
    still cost a mistake (Grading.counts, by each decision's best value), or all of them when
    none could (games.kinds.analysis.summarise)."""
    grading = registry.kind(slug).grading
    assert grading is not None
    return sum(1 for best in seat["best"] if grading.counts(best)) or seat["decisions"]


def levels_of(slug: str, lines: list[dict[str, Any]]) -> dict[str, Level]:
    """Per level: the accuracy over all its decisions that count (each counts once: the seats'
    accuracies weighted by their decisions counted), with its 95% interval over the games."""
    import numpy as np

    out = {}
    games = np.arange(len(lines))
    for level in LEVELS:
        sums = np.zeros(len(lines))
        counts = np.zeros(len(lines))
        seat_games = mistakes = hands = graded = 0
        for g, line in enumerate(lines):
            for seat in line["per_seat"]:
                if seat["level"] == level:
                    graded += seat["decisions"]
                    weight = counted(slug, seat)
                    sums[g] += seat["accuracy"] * weight
                    counts[g] += weight
                    seat_games += 1
                    mistakes += seat["mistakes"]
                    hands += seat["hands"]
        total = counts.sum()
        accuracy = sums.sum() / total if total else float("nan")

        def weighted(idx: Any, axis: int = -1, sums: Any = sums, counts: Any = counts) -> Any:
            with np.errstate(invalid="ignore", divide="ignore"):
                return sums[idx].sum(axis=axis) / counts[idx].sum(axis=axis)

        low, high = _interval(games, weighted, True) if len(lines) >= 2 else (np.nan, np.nan)
        used = sum(1 for line in lines if level in line["lineup"])
        per_hand = mistakes / hands if hands else float("nan")
        out[level] = Level(used, seat_games, graded, accuracy, low, high, per_hand)
    return out


def correlation(lines: list[dict[str, Any]]) -> tuple[float, float, float, int]:
    """Spearman's rank correlation of a seat's accuracy in a game with its result (minus its
    place, so higher is better) over every seat with a graded decision, and its 95% interval
    resampling whole games; and the number of seats."""
    import numpy as np
    from scipy.stats import spearmanr

    seats = lines[0]["seats"]
    accuracy = np.full((len(lines), seats), np.nan)
    result = np.zeros((len(lines), seats))
    for g, line in enumerate(lines):
        for seat in line["per_seat"]:
            if seat["decisions"]:
                accuracy[g, seat["seat"]] = seat["accuracy"]
            result[g, seat["seat"]] = -seat["place"]

    def rho(idx: Any) -> float:
        a, r = accuracy[idx].ravel(), result[idx].ravel()
        keep = ~np.isnan(a)
        return float(spearmanr(a[keep], r[keep]).statistic)

    everything = np.arange(len(lines))
    low, high = _interval(everything, rho, False) if len(lines) >= 2 else (np.nan, np.nan)
    return rho(everything), low, high, int((~np.isnan(accuracy)).sum())


def _pct(value: float) -> str:
    return "n/a" if value != value else f"{value:.2f}"


def verdict(passed: bool, enough: bool) -> str:
    if not enough:
        return f"not yet enough decisions (so far: {'passing' if passed else 'failing'})"
    return "**passed**" if passed else "**FAILED**"


def game_section(slug: str, until: int) -> tuple[list[str], list[str]]:
    """The report's section of one game, and its row of the summary."""
    import numpy as np

    name, _, short = GAMES[slug]
    setup = Setup.of(slug)
    lines, other, bad = read_lines(slug)
    head = [f"## {name}, {short}", ""]
    if not lines:
        head += ["No game recorded yet.", ""]
        return head, [name, "0", "0", "0%", "-", "-", "-", "-"]
    levels = levels_of(slug, lines)
    least = min(level.decisions for level in levels.values())
    enough = least >= until
    unit = lines[0]["unit"]
    out = head + [
        f"{len(lines)} games ({setup.seats} seats, options {setup.options}, analysis version "
        f"{ANALYSIS_VERSION}, budget {setup.budget}; values in {unit}).",
    ]
    if other or bad:
        out.append(
            f"Left out: {other} lines of another version, budget or setup, {bad} unreadable."
        )
    out += [
        "",
        "| level | games | seat-games | decisions graded | progress to "
        f"{until:,} | accuracy | 95% interval | mistakes per hand |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for level, lv in levels.items():
        out.append(
            f"| {level} | {lv.games} | {lv.seat_games} | {lv.decisions:,} | "
            f"{min(100.0, 100 * lv.decisions / until):.0f}% | {_pct(lv.accuracy)}% | "
            f"{_pct(lv.low)} to {_pct(lv.high)} | {_pct(lv.mistakes_per_hand)} |"
        )
    hard, medium, easy = levels["hard"], levels["medium"], levels["easy"]
    first = medium.low > easy.high
    second = hard.high >= medium.low
    rho, low, high, seats = correlation(lines)
    third = low > 0
    out += [
        "",
        f"1. Medium above easy, intervals apart (medium's low {_pct(medium.low)} > easy's high "
        f"{_pct(easy.high)}): {verdict(first, enough)}",
        f"2. Hard at least level with medium (hard's high {_pct(hard.high)} ≥ medium's low "
        f"{_pct(medium.low)}; hard − medium = {hard.accuracy - medium.accuracy:+.2f}): "
        f"{verdict(second, enough)}",
        f"3. Accuracy goes with the result: Spearman ρ = {rho:.3f}, 95% interval "
        f"{low:.3f} to {high:.3f} over {seats} seat-games (the interval above zero): "
        f"{verdict(third, enough)}",
        "",
    ]
    p50 = statistics.median(line["decision_ms"]["p50"] for line in lines)
    p95 = statistics.median(line["decision_ms"]["p95"] for line in lines)
    cpu = [line["cpu_s"]["play"] + line["cpu_s"]["analysis"] for line in lines]
    decisions = sum(line["decisions"] for line in lines)
    per_minute = decisions / sum(cpu) * 60 if sum(cpu) else float("nan")
    per_game_least = least / len(lines)
    remaining = max(0, until - least)
    hours = remaining / per_game_least * statistics.fmean(cpu) / 3600 if per_game_least else np.nan
    out += [
        f"Time per graded decision (wall, the median over games of each game's p50 and p95): "
        f"p50 {p50:.0f} ms, p95 {p95:.0f} ms. A game costs {statistics.fmean(cpu):.1f} s of CPU "
        f"on average (playing and analysing), {per_minute:.0f} graded decisions per CPU-minute; "
        f"the least-advanced level needs about {hours:.1f} more CPU-hours to reach {until:,}.",
        "",
    ]
    checks = ["passed" if c else "failed" for c in (first, second, third)]
    if not enough:
        checks = [f"not yet ({c} so far)" for c in checks]
    row = [name, str(len(lines)), f"{least:,}", f"{min(100.0, 100 * least / until):.0f}%"]
    return out, row + checks + [f"{hours:.1f}"]


def _hours(row: list[str]) -> float:
    try:
        return float(row[-1])
    except ValueError:  # no game yet, or no estimate
        return 0.0


def report(args: argparse.Namespace) -> None:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    sections: list[str] = []
    rows: list[list[str]] = []
    for slug in GAMES:
        section, row = game_section(slug, args.until)
        sections += section
        rows.append(row)
    text = [
        f"# Validation of the analysis (written {now})",
        "",
        "Accumulating: `bench/analysis_validation.py run` adds games to "
        "`bench/results/analysis-validation/<game>.jsonl` (one JSON line a game) and `report` "
        "rewrites this page from all of them. Commands:",
        "",
        "```",
        ".tools/bin/uv run --group bench python bench/analysis_validation.py run --game all "
        "--minutes 60 --jobs 2",
        ".tools/bin/uv run --group bench python bench/analysis_validation.py report",
        "```",
        "",
        "**What is run.** Game i of a game is dealt from the seed `valid-<game>-<i>` and played "
        "by bots of the three levels, seat s playing `(hard, medium, easy)[(s + i) % 3]`, so "
        "every level sits at every seat in turn (easy is the medium bot with about one move in "
        "three random: games/kinds/levels.py). Then every decision is graded by the analysis "
        "(`games.kinds.analysis.analyse_game`, seeded `valid-<game>-<i>:analysis`) at its "
        f"default budget, analysis version {ANALYSIS_VERSION}. Seats: each game's usual table "
        "(`GameKind.table_size`: 4 in every game; Fifty-Six's 6-seat table is not run, though "
        "the rotation would give each of its teams one bot of each level). Only lines of the "
        "present version, budget, seats and options are counted.",
        "",
        "**What is computed** (scipy, over the games recorded):",
        "",
        "* A level's **accuracy** is the mean over all its decisions that count (each seat's "
        "accuracy in a game weighted by its decisions counted: in Hundred and Ten a decision "
        "whose best action is worth under a mistake is left out, `Grading.floor`, "
        "docs/analysis.md), with a 95% interval by "
        "`scipy.stats.bootstrap` (BCa, 9,999 resamples) resampling **whole games**, since a "
        "game's seats and decisions are not independent.",
        "* Check 1, medium above easy: medium's interval lies wholly above easy's.",
        "* Check 2, hard at least level with medium: hard's interval does not lie wholly below "
        "medium's (its upper end at least medium's lower end).",
        "* Check 3, accuracy goes with the result: `scipy.stats.spearmanr` of a seat's accuracy "
        "in a game against its result, over every seat of every game with at least one graded "
        "decision; the result is minus the seat's **place** in the game (0 first, ties share a "
        "place), as the ratings read an outcome (`GameKind.places`: Hundred and Ten and "
        "Fifty-Six the winners first, then by score, a team's seats together; Hearts and One "
        "Hundred and Four the lowest score first). Its 95% interval: bootstrap (BCa, 9,999 "
        "resamples) resampling whole games. Passed when the interval lies above zero.",
        f"* A check reads **not yet enough decisions** until every level of the game has "
        f"{args.until:,} graded decisions; the figures so far are shown all the same.",
        "* Times: each graded decision's wall time (runs may share the CPU, so they vary with "
        "the load), and each game's CPU time (playing, including the hard bot's searches, and "
        "analysing), which gives the CPU-hours left to the goal.",
        "",
        "| game | games | decisions of the least-advanced level | progress | medium > easy | "
        "hard ≥ medium | accuracy ~ result | CPU-hours left |",
        "|---|---|---|---|---|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
        f"In all, about {sum(_hours(row) for row in rows):.1f} CPU-hours left (from each "
        "game's mean CPU time a game so far).",
        "",
        *sections,
    ]
    REPORT.write_text("\n".join(text).rstrip() + "\n")
    print(f"wrote {REPORT.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    runner = commands.add_parser("run", help="play and analyse more games, appending them")
    runner.add_argument("--game", required=True, choices=[*GAMES, "all"])
    runner.add_argument("--minutes", type=float, required=True, help="start no game after these")
    runner.add_argument("--jobs", type=int, default=1, help="worker processes")
    reporter = commands.add_parser("report", help=f"write {REPORT.relative_to(ROOT)}")
    for sub in (runner, reporter):
        sub.add_argument(
            "--until",
            type=int,
            default=GOAL,
            help="graded decisions per level a game needs (default: the issue's 20,000)",
        )
    args = parser.parse_args()
    if args.command == "run":
        if args.jobs < 1:
            parser.error("--jobs is at least 1")
        run(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
