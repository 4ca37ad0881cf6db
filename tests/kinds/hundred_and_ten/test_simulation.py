"""Bot-only simulations and `manage.py simulate`: deterministic for a seed."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.kinds.hundred_and_ten.engine.simulation import simulate


def test_the_same_seed_gives_the_same_wins_and_actions():
    first = simulate(6, 3, "same", ["naive", "random", "naive"])
    second = simulate(6, 3, "same", ["naive", "random", "naive"])
    assert (first.wins, first.actions, first.rounds) == (second.wins, second.actions, second.rounds)
    assert sum(first.wins) == 6
    other = simulate(6, 3, "other", ["naive", "random", "naive"])
    assert (other.actions, other.rounds) != (first.actions, first.rounds)


def test_bots_must_match_the_seats_and_exist():
    with pytest.raises(ValueError, match="one bot per seat"):
        simulate(1, 4, "x", ["naive"])
    with pytest.raises(ValueError, match="Unknown bot"):
        simulate(1, 2, "x", ["naive", "genius"])


def run_command(*args):
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_rates_and_wins_per_seat():
    text = run_command(
        "--games", "5", "--players", "4", "--seed", "S", "--bots", "naive,naive,naive,naive"
    )
    assert re.search(r"^\d+(\.\d+)? games/s$", text, re.M)
    assert re.search(r"^\d+ actions/s$", text, re.M)
    wins = [int(w) for w in re.findall(r"^seat \d \(naive\): (\d+) wins$", text, re.M)]
    assert len(wins) == 4 and sum(wins) == 5
    again = run_command("--games", "5", "--players", "4", "--seed", "S")
    assert re.findall(r"wins$", again, re.M) and again.splitlines()[-4:] == text.splitlines()[-4:]


def test_the_command_reports_bad_bots():
    with pytest.raises(CommandError, match="Unknown bot"):
        run_command("--games", "1", "--players", "2", "--bots", "naive,genius")
