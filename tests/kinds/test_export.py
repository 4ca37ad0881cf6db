"""Each game's `export.py` writes its conformance format exactly (no database).

The strongest check there is: every shared trace's own game, dealt from its deals and played
by its accepted actions, exports as that very trace, less what the formats leave optional or
informational (refused probes, the reference's seed and generator notes, Hundred and Ten's
automation marks, which name the reference's bot). So the exports hold every key the
formats record, computed as the references computed them, not merely what our replayer
happens to compare.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.kinds.conformance import NotExportable
from games.kinds.fifty_six.engine.seam import RULES as FIFTY_SIX
from games.kinds.fifty_six.export import export_trace as export_fifty_six
from games.kinds.hearts.engine.seam import RULES as HEARTS
from games.kinds.hearts.export import export_trace as export_hearts
from games.kinds.hundred_and_ten.conformance import move_from_trace
from games.kinds.hundred_and_ten.engine.bots import suggestion
from games.kinds.hundred_and_ten.engine.seam import RULES as HUNDRED_AND_TEN
from games.kinds.hundred_and_ten.export import export_trace as export_hundred_and_ten
from games.kinds.one_hundred_and_four.conformance import deals_of
from games.kinds.one_hundred_and_four.engine.seam import RULES as ONE_HUNDRED_AND_FOUR
from games.kinds.one_hundred_and_four.export import export_trace as export_one_hundred_and_four

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"


def traces(game: str) -> list[Path]:
    return sorted((SHARED / game).glob("game-*.json"))


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# --- Hundred and Ten ---------------------------------------------------------------------


def hundred_and_ten(trace: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(what our export must write, what it wrote) for one shared trace."""
    names = trace["players"]
    decks = [
        [c for name in names for c in entry["hands"][name]] + entry["draw_pile"]
        for entry in trace["rounds"]
    ]
    initial = HUNDRED_AND_TEN.initial_state_from_deals(decks, len(names), {})
    played = [s for s in trace["steps"] if "expect" not in s and s["action"]["type"] != "automate"]
    log = []
    for step in played:
        move = move_from_trace(step["action"], names)
        log.append((move.seat, move))
        step.pop("auto", None)
    for key in ("reference", "seed", "generator"):
        del trace[key]
    trace.update(automated_from_start=[], steps=played)
    return trace, export_hundred_and_ten(initial, log, name=trace["game_id"])


# --- Hearts ------------------------------------------------------------------------------


def replayed_hands(rules: Any, trace: dict[str, Any]) -> tuple[Any, list[tuple[int, Any]]]:
    """A trace of hands (Hearts, Fifty-Six): the state its deals start from, and its accepted
    actions (its probes dropped from the trace too, as the export has none)."""
    initial = rules.initial_state_from_deals(
        [hand["deal"] for hand in trace["hands"]], trace["seats"], trace["options"]
    )
    log = []
    for hand in trace["hands"]:
        hand["steps"] = [s for s in hand["steps"] if not s.get("illegal")]
        log += [(s["seat"], rules.action_from_json(s["action"])) for s in hand["steps"]]
    return initial, log


def hearts(trace: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    initial, log = replayed_hands(HEARTS, trace)
    del trace["seed"]
    return trace, export_hearts(initial, log, name=trace["id"])


# --- One Hundred and Four ----------------------------------------------------------------


def one_hundred_and_four(trace: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    rules = ONE_HUNDRED_AND_FOUR
    entries = deals_of(trace)
    initial = rules.initial_state_from_deals(
        [entry["deal"] for entry in entries], trace["seats"], trace["options"]
    )
    log = []
    for entry in entries:
        for turn in entry["turns"]:
            turn["steps"] = [s for s in turn["steps"] if not s.get("illegal")]
            log += [(s["seat"], rules.action_from_json(s)) for s in turn["steps"]]
    for key in ("seed", "after_end"):
        trace.pop(key, None)
    return trace, export_one_hundred_and_four(initial, log, name=trace["id"])


# --- Fifty-Six ---------------------------------------------------------------------------


def fifty_six(trace: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    initial, log = replayed_hands(FIFTY_SIX, trace)
    return trace, export_fifty_six(initial, log, name=trace["id"])


ROUND_TRIPS: dict[str, Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]] = {
    "hundred-and-ten": hundred_and_ten,
    "hearts": hearts,
    "one-hundred-and-four": one_hundred_and_four,
    "fifty-six": fifty_six,
}


@pytest.mark.parametrize("game", sorted(ROUND_TRIPS))
def test_every_shared_game_exports_as_its_own_trace(game):
    paths = traces(game)
    assert len(paths) >= 100
    for path in paths:
        expected, exported = ROUND_TRIPS[game](load(path))
        # Through JSON: tuples become lists, as in a downloaded file.
        assert json.loads(json.dumps(exported)) == expected, path.name


def test_a_hundred_and_ten_game_to_sixty_is_not_exportable():
    state = HUNDRED_AND_TEN.initial_state("seed", 2, {"target": 60})
    with pytest.raises(NotExportable, match="60 points"):
        export_hundred_and_ten(state, [], name="short")


def test_a_game_that_is_not_over_is_not_exported():
    state = HUNDRED_AND_TEN.initial_state("seed", 3, {"target": 110})
    move = suggestion(state)
    with pytest.raises(ValueError, match="not over"):
        export_hundred_and_ten(state, [(move.seat, move)], name="unfinished")
    with pytest.raises(ValueError, match="not over"):
        export_hearts(HEARTS.initial_state("seed", 4, {}), [], name="unfinished")
    with pytest.raises(ValueError, match="not over"):
        export_one_hundred_and_four(
            ONE_HUNDRED_AND_FOUR.initial_state("seed", 4, {}), [], name="unfinished"
        )
    with pytest.raises(ValueError, match="not over"):
        export_fifty_six(FIFTY_SIX.initial_state("seed", 4, {}), [], name="unfinished")
