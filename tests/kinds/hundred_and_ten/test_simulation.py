"""Bot-only simulations and `manage.py simulate`: deterministic for a seed."""

from __future__ import annotations

import pytest

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
