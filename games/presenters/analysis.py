"""The analysis part of a finished game's replay (docs/analysis.md): the button that asks
for it, its progress while it waits or runs, then its marks on the timeline, the graded
decision at the step shown and each seat's summary.

It shows nothing the replay of the finished game does not: the moves played (described as
the replay describes them) and, for a decision, an action of the deciding seat's own hand at
that moment, which the replay shows from that seat (every hand is open once a game is over).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import registry
from games.models import Game, GameAnalysis
from games.services import analysis


def _amount(unit: str, value: float, *, difference: bool = False) -> str:
    """A value (or, with `difference`, a loss) in the game's unit (its `Grading.unit`)."""
    number = number_format(round(value, 1), decimal_pos=1)
    if unit == "% chance to win":
        if difference:
            # Translators: a loss of chance to win the game, e.g. "8.0 percentage points".
            return _("%(number)s percentage points") % {"number": number}
        # Translators: the chance to win the game after a move, e.g. "47.6% chance to win".
        return _("%(number)s%% chance to win") % {"number": number}
    if unit == "tables":
        # Translators: Fifty-Six's tables (the game's score), e.g. "0.5 tables".
        return _("%(number)s tables") % {"number": number}
    # Translators: points over the rest of a hand (Hearts, One Hundred and Four): "1.5 points".
    return _("%(number)s points") % {"number": number}


def _shown(value: float) -> float:
    """A value as `_amount` shows it (to one decimal)."""
    return round(float(value), 1)


def _mark_label(mark: str | None) -> str:
    labels = {
        # Translators: a move of a finished game graded by the search, slightly worse than its best.
        "inaccuracy": pgettext("analysis mark", "Inaccuracy"),
        # Translators: a move of a finished game graded by the search, clearly worse than its best.
        "mistake": pgettext("analysis mark", "Mistake"),
        # Translators: a move of a finished game graded by the search, far worse than its best.
        "blunder": pgettext("analysis mark", "Blunder"),
    }
    return labels.get(mark or "", "")


def analysis_context(
    game: Game,
    step: int,
    names: Sequence[str],
    link: Callable[[int, int | None], str],
) -> dict[str, Any]:
    """The replay's analysis part at `step`; `link(step, seat)` is the replay's address of a
    step seen from a seat. Empty for a game not finished or a game with no grading."""
    kind = registry.kind(game.kind)
    if game.status != Game.Status.FINISHED or kind.grading is None:
        return {"analysis": None}
    row = analysis.current(game)
    state = "none" if row is None else row.status
    if (
        row is not None
        and row.status == GameAnalysis.Status.DONE
        and row.version != analysis.version()
    ):
        state = "outdated"  # computed by an older grading: asked again, it is computed anew
    part: dict[str, Any] = {
        "state": state,
        "request_url": reverse("analysis-request", args=[game.pk]),
        "progress_url": reverse("analysis-progress", args=[game.pk]),
        "done": row.done if row else 0,
        "total": row.total if row else 0,
    }
    if state != GameAnalysis.Status.DONE or row is None or not row.result:
        return {"analysis": part}
    result = row.result
    unit = str(result["unit"])
    rules = kind.rules

    def described(action: Any) -> str:
        return kind.table.describe(rules.action_from_json(action))

    marks = []
    note = None
    for d in result["decisions"]:
        if d["step"] == step:
            # The two values as shown (to one decimal), and the loss as their difference,
            # so the three figures add up ("-9.8 against -5.2: 4.6 lost", not 4.5).
            played, best = _shown(d["value_played"]), _shown(d["value_best"])
            note = {
                "name": names[d["seat"]],
                "mark": d["mark"] or "",
                "mark_label": _mark_label(d["mark"]),
                "played": described(d["played"]),
                "best": described(d["best"]),
                "same": d["played"] == d["best"],
                "value_played": _amount(unit, played),
                "value_best": _amount(unit, best),
                "loss": _amount(unit, max(best - played, 0.0), difference=True),
            }
        if d["mark"]:
            marks.append(
                {
                    "step": d["step"],
                    "name": names[d["seat"]],
                    "mark": d["mark"],
                    "mark_label": _mark_label(d["mark"]),
                    "url": link(d["step"], d["seat"]),
                    "current": d["step"] == step,
                }
            )
    seats = [
        {
            "name": names[s["seat"]],
            # Nothing graded (a seat a bot covered throughout): no figure rather than 100%.
            "accuracy": f"{number_format(s['accuracy'], decimal_pos=1)}%"
            if s["decisions"]
            else "–",
            "decisions": s["decisions"],
            "inaccuracies": s["inaccuracies"],
            "mistakes": s["mistakes"],
            "blunders": s["blunders"],
            # As the accuracy: no figure for a seat with nothing graded (not "0.00").
            "mistakes_per_hand": number_format(s["mistakes_per_hand"], decimal_pos=2)
            if s["decisions"]
            else "–",
        }
        for s in result["seats"]
        if s["seat"] < len(names)
    ]
    return {"analysis": {**part, "marks": marks, "note": note, "seats": seats}}
