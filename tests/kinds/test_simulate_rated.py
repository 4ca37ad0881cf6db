"""`manage.py simulate --rated`: each level's rating over the games, as the site rates them,
with the medium bot fixed at 1500, and no database (the test has none: any query fails)."""

from __future__ import annotations

import re

from openskill.models import PlackettLuce

from games import registry
from games.kinds.simulation import simulate
from tests.kinds.test_simulate_command import run_command

RATING = re.compile(r"^rating (\w+): (\d+) ± (\d+) \((\d+) games\)$", re.M)


def test_rated_prints_each_level_as_the_library_rates_the_games_in_order():
    lineup = ["easy", "medium", "random"]
    args = ["--game", "one-hundred-and-four", "--games", "5", "--players", "3", "--seed", "R"]
    text = run_command(*args, "--bots", ",".join(lineup), "--rated")

    kind = registry.kind("one-hundred-and-four")
    played = simulate(kind.rules, 3, kind.resolve_options({}), 5, "R", lineup, kind.bots).played
    model = PlackettLuce()
    ratings = {level: model.rating() for level in lineup}
    for at_seat, outcome in played:
        # Lowest penalty first; a tie shares the place.
        ranks: list[float] = [sorted(outcome.scores).index(score) for score in outcome.scores]
        new = model.rate([[ratings[level]] for level in at_seat], ranks=ranks)
        for level, (rating,) in zip(at_seat, new, strict=True):
            if level != "medium":  # the anchor keeps its rating
                ratings[level] = rating
    expected = [
        (level, str(round(1500 + 20 * (r.mu - 25))), str(round(40 * r.sigma)), "5")
        for level, r in ratings.items()
    ]
    expected[1] = ("medium", "1500", "0", "5")
    assert RATING.findall(text) == expected
    assert text.index("decisions:") < text.index("rating easy:")  # after the usual lines


def test_without_rated_no_rating_lines():
    text = run_command("--game", "one-hundred-and-four", "--games", "2", "--players", "2")
    assert not RATING.findall(text)
