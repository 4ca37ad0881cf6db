"""The hard bot of every game kind (games/kinds/search.py and each game's search.py).

It must decide from the seat's view alone: a state sampled from that view (the same cards
the seat can see, everything else dealt anew) gives exactly the same view, and the bot's
decision does not change when the hidden cards do (same seed). It must also play only legal
actions, the same ones again for the same seed, and its samples must really redeal what the
seat cannot see (a sampler that copied the true state would pass the first test by cheating).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import registry
from games.gamekind import GameKind
from games.kinds.search import SearchBot

KINDS = sorted(registry.REGISTRY)


def hard(kind: GameKind) -> SearchBot[Any, Any]:
    bot = kind.bots["hard"]
    assert isinstance(bot, SearchBot), f"{kind.slug}'s hard bot is not the search"
    return bot


def positions(kind: GameKind, seats: int, seed: str, every: int) -> list[tuple[Any, int]]:
    """(state, seat to act) at every `every`-th decision of a game played by random legal
    actions (several games' worth: a new game starts when one ends)."""
    rules, rng = kind.rules, random.Random(seed)
    state = rules.initial_state(seed, seats, kind.resolve_options({}))
    found: list[tuple[Any, int]] = []
    game = 0
    for step in range(3000):
        waiting = sorted(rules.to_act(state))
        if not waiting:
            game += 1
            state = rules.initial_state(f"{seed}:{game}", seats, kind.resolve_options({}))
            continue
        seat = rng.choice(waiting)
        if step % every == 0:
            found.append((state, seat))
        state = rules.apply(state, seat, rng.choice(list(rules.legal_actions(state, seat))))
    return found


@pytest.mark.parametrize("slug", KINDS)
def test_a_sample_shows_the_seat_exactly_what_it_saw(slug):
    kind = registry.kind(slug)
    game = hard(kind).game
    rules = kind.rules
    for seats in kind.seat_counts:
        for state, seat in positions(kind, seats, f"views:{seats}", every=7):
            view = rules.view(state, seat)
            for n in range(3):
                world = game.sample(view, random.Random(n))
                assert rules.view(world, seat) == view, (seats, seat, n)


@pytest.mark.parametrize("slug", KINDS)
def test_samples_redeal_what_the_seat_cannot_see(slug):
    kind = registry.kind(slug)
    game, rules = hard(kind).game, kind.rules
    seats = kind.table_size
    differs = 0
    checked = positions(kind, seats, "redeal", every=11)
    for state, seat in checked:
        view = rules.view(state, seat)
        worlds = [game.sample(view, random.Random(n)) for n in range(4)]
        # What another seat sees of a sampled world is (at some point) not what it saw of
        # the real one: its hidden cards were dealt anew.
        other = (seat + 1) % seats
        if any(rules.view(w, other) != rules.view(state, other) for w in worlds):
            differs += 1
    assert differs >= len(checked) // 2


@pytest.mark.parametrize("slug", KINDS)
def test_the_decision_depends_on_the_view_only_and_the_seed(slug):
    kind = registry.kind(slug)
    bot, rules = hard(kind), kind.rules
    for seats in kind.seat_counts:
        for state, seat in positions(kind, seats, f"decide:{seats}", every=97)[:6]:
            view = rules.view(state, seat)
            other = bot.game.sample(view, random.Random(99))  # other hidden cards, same view
            chosen = bot.choose(state, seat, random.Random("decide"))
            assert bot.choose(other, seat, random.Random("decide")) == chosen
            assert bot.choose(state, seat, random.Random("decide")) == chosen
            rules.apply(state, seat, chosen)  # legal (IllegalAction otherwise)
