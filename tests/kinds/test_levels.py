"""Bot levels (games/kinds/levels.py): every game offers easy, medium and hard, medium seated
by default and playing handed-over seats, hard giving the hints; easy is the medium bot with
some random legal moves mixed in."""

from __future__ import annotations

import random

import pytest

from games import registry
from games.kinds.levels import LEVELS, EasyBot
from games.kinds.search import SearchBot

KINDS = sorted(registry.REGISTRY)


@pytest.mark.parametrize("slug", KINDS)
def test_every_game_offers_the_three_levels(slug):
    kind = registry.kind(slug)
    assert kind.bot_levels == LEVELS
    assert [level for level, _ in kind.bot_levels] == ["medium", "easy", "hard"]
    assert {"easy", "medium", "hard"} <= set(kind.bots)
    assert (kind.seat_bot, kind.hint_bot) == ("medium", "hard")
    assert isinstance(kind.bots["hard"], SearchBot)
    easy = kind.bots["easy"]
    assert isinstance(easy, EasyBot) and easy.medium is kind.bots["medium"]
    assert kind.level_label("hard") == "Hard bot" and kind.level_label("naive") == "Bot"


@pytest.mark.parametrize("slug", KINDS)
def test_easy_mostly_plays_as_medium_and_sometimes_at_random(slug):
    kind = registry.kind(slug)
    rules, easy, medium = kind.rules, kind.bots["easy"], kind.bots["medium"]
    state = rules.initial_state("levels", kind.table_size, kind.resolve_options({}))
    same = differ = 0
    for step in range(400):
        waiting = sorted(rules.to_act(state))
        if not waiting:
            break
        seat = waiting[0]
        choice = easy.choose(state, seat, random.Random(f"easy:{step}"))
        assert easy.choose(state, seat, random.Random(f"easy:{step}")) == choice
        rules.apply(state, seat, choice)  # legal
        if choice == medium.choose(state, seat, random.Random(f"easy:{step}")):
            same += 1
        else:
            differ += 1
        state = rules.apply(state, seat, medium.choose(state, seat, random.Random(step)))
    assert same > differ > 0
