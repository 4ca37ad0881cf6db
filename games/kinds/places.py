"""Places from a finished game's outcome, for the ratings (pure: no Django).

A place is 0 for first; seats that tie share a place (the next place after a tie of two is
2, as the rating library reads ranks). Each game kind names the function that fits its
scoring (`GameKind.places`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .protocol import Outcome

Places = Callable[[Outcome], tuple[int, ...]]


def _ranked(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranks of `keys` (smaller is better): equal keys share a place."""
    return tuple(sum(1 for other in keys if other < key) for key in keys)


def lowest_first(outcome: Outcome) -> tuple[int, ...]:
    """The lowest score first (Hearts' points, One Hundred and Four's penalties)."""
    return _ranked([(score,) for score in outcome.scores])


def winners_first(outcome: Outcome) -> tuple[int, ...]:
    """The winners first, then the others by score, the highest first (Hundred and Ten,
    whose winner need not hold the highest score; Fifty-Six, whose seats carry their team's
    tables)."""
    return _ranked(
        [(0 if seat in outcome.winners else 1, -score) for seat, score in enumerate(outcome.scores)]
    )
