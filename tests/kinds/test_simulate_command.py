"""`manage.py simulate` for every game kind: script-readable lines, deterministic for a seed."""

from __future__ import annotations

import contextlib
import io
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import registry
from tests.conftest import ROOT
from tests.servers import server_env

WINS = re.compile(r"^seat (\d) (\w+): wins (\d+\.\d)% ± (\d+\.\d)%$", re.M)
TEAM_WINS = re.compile(r"^team (\d) ([\w+]+): wins (\d+\.\d)% ± (\d+\.\d)%$", re.M)


def run_command(*args):
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("kind", sorted(registry.REGISTRY))
def test_every_game_prints_wins_per_seat_and_decision_times(kind):
    game = registry.kind(kind)
    seats = game.table_size
    target = ("--target", "50") if "target" in game.resolve_options({}) else ()
    text = run_command("--game", kind, "--games", "4", "--seed", "S", *target)
    assert text.startswith(f"{kind}: 4 games, {seats} seats")
    assert re.search(r"^\d+ actions/s$", text, re.M)
    # One line per team (one team wins each game), or per seat (a shared win is split).
    lines = TEAM_WINS if game.teams is not None else WINS
    wins = lines.findall(text)
    assert [int(n) for n, *_ in wins] == list(range(2 if game.teams is not None else seats))
    assert abs(sum(float(share) for _, _, share, _ in wins) - 100) < seats
    assert re.search(
        rf"^decisions: {game.seat_bot} p50 \d+\.\d+ ms, p95 \d+\.\d+ ms, p99 \d+\.\d+ ms$",
        text,
        re.M,
    )
    again = run_command("--game", kind, "--games", "4", "--seed", "S", *target)
    assert lines.findall(again) == wins  # the same seed plays the same games


def test_hearts_reports_points_per_hand():
    text = run_command("--game", "hearts", "--games", "3", "--seed", "P", "--target", "50")
    per_hand = re.findall(r"^seat \d medium: points per hand (\d+\.\d\d) ± \d+\.\d\d$", text, re.M)
    assert len(per_hand) == 4
    hands = re.search(r"^(\d+) hands$", text, re.M)
    # A game to 50 lasts two hands at least (26 points go out a hand).
    assert hands is not None and int(hands.group(1)) >= 3 * 2
    # 26 points go out per hand (0 + 3 × 26 when the moon is shot): the mean is 6.5 to 19.5.
    assert 6.5 <= sum(float(p) for p in per_hand) / 4 <= 19.5


def test_one_hundred_and_four_reports_penalty_per_game_and_takes_options():
    text = run_command(
        "--game", "one-hundred-and-four", "--games", "4", "--players", "10",
        "--bots", ",".join(["heuristic", "naive"] * 5), "--option", "match_to=66",
    )  # fmt: skip
    per_game = re.findall(r"^seat \d (\w+): penalty per game (\d+\.\d) ± \d+\.\d$", text, re.M)
    assert len(per_game) == 10
    # A match to 66 ends with someone at 66 or more: the totals are far above one deal's.
    assert max(float(p) for _, p in per_game) >= 30
    with pytest.raises(CommandError, match="has no option 'target'"):
        run_command("--game", "one-hundred-and-four", "--option", "target=5")
    with pytest.raises(CommandError, match="NAME=NUMBER"):
        run_command("--game", "one-hundred-and-four", "--option", "match_to=６６")


def test_seats_rotate_between_games():
    text = run_command("--games", "6", "--players", "3", "--bots", "naive,random,naive")
    shares = {label: float(share) for _, label, share, _ in WINS.findall(text) if label == "random"}
    assert shares == {"random": 0.0}  # a random bidder never beats two naive ones here


def test_bad_requests_are_command_errors():
    with pytest.raises(CommandError, match="Unknown bot"):
        run_command("--games", "1", "--players", "2", "--bots", "naive,genius")
    with pytest.raises(CommandError, match="Unknown game"):
        run_command("--game", "chess")
    with pytest.raises(CommandError, match="Hearts is played by 4 players"):
        run_command("--game", "hearts", "--players", "3")


def test_a_team_game_reports_each_team_under_its_bots_and_jobs_change_nothing():
    args = ("--game", "fifty-six", "--games", "6", "--seed", "T", "--option", "tables_per_team=1")
    lineup = ("--bots", "medium,easy,medium,easy")
    text = run_command(*args, *lineup)
    wins = TEAM_WINS.findall(text)
    assert [(team, label) for team, label, *_ in wins] == [("0", "medium"), ("1", "easy")]
    assert not WINS.findall(text)
    assert TEAM_WINS.findall(run_command(*args, *lineup, "--jobs", "2")) == wins


def _children(pid: int) -> set[int]:
    """The live child processes of `pid` (Linux /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found.update(int(n) for n in (task / "children").read_text().split())
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited


def test_killing_the_command_stops_its_worker_processes(tmp_path):
    command = subprocess.Popen(
        [sys.executable, "manage.py", "simulate", "--game", "hundred-and-ten", "--games",
         "400", "--jobs", "2", "--seed", "kill", "--bots", "hard,medium,medium,medium"],
        cwd=ROOT, env=server_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        workers: set[int] = set()
        for _ in range(600):  # the workers start (spawned: a fresh interpreter each)
            workers = {pid for pid in _children(command.pid) if _alive(pid)}
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the worker processes never started"
        time.sleep(1.0)  # they are playing
        command.send_signal(signal.SIGTERM)  # the command only, as `kill PID` does
        assert command.wait(timeout=30) != 0
        for _ in range(200):
            if not any(_alive(pid) for pid in workers):
                break
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers), "workers outlived the command"
    finally:
        command.kill()
        command.wait()
