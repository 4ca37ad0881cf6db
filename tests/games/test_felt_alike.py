"""What every viewer of a table sees alike is drawn alike (issue 37, docs/render-once.md step 1).

The felt (the bar's facts, each seat's facts, the middle: trick, rows, auction, every step of
a resolution) will be drawn once per version for all viewers, from the spectator's view. So
it may carry nothing a seat alone sees, and no "you": a player's own pass, pre-pass, trump
card and "your lead" belong to their hand and controls (each game's play.html) and banner.

For every game of the registry, at its fewest and most seats, a seeded random game is drawn
at every version (and every step of a resolution) from each seat and from a spectator's
chair, and what the felt shows must be the same for all: the middle byte for byte (where a
card flies in from is CSS's, static/css/seats.css).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.template.loader import render_to_string

from games.gamekind import GameKind
from games.kinds.protocol import resolve_options
from games.live.presence import Presence
from games.presenters.felt import draw
from games.registry import REGISTRY
from games.steps import Steps

# Moves drawn per game: enough to pass through every phase of each game's first round or two.
MOVES = 120


def drawn(
    kind: GameKind, state: Any, players: int, seat: int | None, version: int, step: int | None
) -> dict[str, Any]:
    """The table from `seat` (None: a spectator), at `step` of a resolution (None: the
    current state), as the live table draws it (games/presenters/felt.py), seats apart."""
    names = tuple(f"Player {s + 1}" for s in range(players))
    key, count = kind.table.steps(kind.rules.view(state, seat))
    steps = Steps(seen=key, key=key, step=step, count=count) if step is not None else None
    return draw(
        kind,
        names,
        {},
        state,
        seat,
        to_act=kind.rules.to_act(state),
        automated=False,
        version=version,
        here=Presence(),
        steps=steps,
        me=seat,
        with_seats=False,
    )


def felt(kind: GameKind, context: dict[str, Any]) -> dict[str, Any]:
    """What of `context` the felt shows: the facts, each seat's facts, the middle's bytes."""
    return {
        "facts": context["g"]["facts"],
        "seats": context["g"]["seats"],
        "middle": render_to_string(kind.table.center_template, {**context, "kind": kind}),
    }


def steps_of(kind: GameKind, state: Any) -> list[int | None]:
    _, count = kind.table.steps(kind.rules.view(state, None))
    return [*range(count), None]


@pytest.mark.parametrize("kind", REGISTRY.values(), ids=lambda k: k.slug)
def test_the_felt_is_the_same_for_every_seat_and_a_spectator(kind: GameKind):
    rules = kind.rules
    compared = 0
    for seats in sorted({min(kind.seat_counts), max(kind.seat_counts)}):
        rng = random.Random(f"{kind.slug}:{seats}")
        state = rules.initial_state(f"alike:{seats}", seats, resolve_options(kind.options, {}))
        for version in range(MOVES):
            if not rules.to_act(state):
                break
            # A resolution played out step by step is public: every chair has the same steps
            # (the felt and its middle are drawn once, from a spectator's).
            public = kind.table.steps(rules.view(state, None))
            assert all(kind.table.steps(rules.view(state, s)) == public for s in range(seats))
            for step in steps_of(kind, state):
                spectator = felt(kind, drawn(kind, state, seats, None, version, step))
                for seat in range(seats):
                    seen = felt(kind, drawn(kind, state, seats, seat, version, step))
                    assert seen == spectator, (kind.slug, seats, version, step, seat)
                    compared += 1
            seat = rng.choice(sorted(rules.to_act(state)))
            state = rules.apply(state, seat, rng.choice(list(rules.legal_actions(state, seat))))
    assert compared > MOVES  # the games went on long enough to compare many versions
