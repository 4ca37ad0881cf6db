"""Damage to a Fifty-Six conformance trace, each with the key the replayer must name, and
what else the shared tests of the games of hands need (tests/kinds/test_conformance.py)."""

from __future__ import annotations

from tests.kinds.conformance import HandsDamages, hand_steps


def accepted(trace):
    return [s for s in hand_steps(trace) if not s.get("illegal")]


def change_a_legal_list(trace):
    step = next(s for s in accepted(trace) if len(s["legal"]) > 1)
    step["legal"] = step["legal"][1:]


def change_a_to_act(trace):
    step = accepted(trace)[9]
    step["after"]["to_act"] = (step["after"]["to_act"] + 1) % trace["seats"]


def change_points(trace):
    step = next(s for s in accepted(trace) if s["after"]["points"] != [0, 0])
    step["after"]["points"][0] += 1


def change_a_trick_winner(trace):
    step = next(s for s in accepted(trace) if s["after"]["trick_winners"])
    step["after"]["trick_winners"][0] = (step["after"]["trick_winners"][0] + 1) % 4


def change_the_revealed_trump(trace):
    step = next(s for s in accepted(trace) if s["after"]["trump"])
    step["after"]["trump"] = "JC0" if step["after"]["trump"] != "JC0" else "JD0"


def change_a_result(trace):
    trace["hands"][0]["result"]["game_points"] += 1


def change_the_winner(trace):
    trace["outcome"]["winner"] = 1 - trace["outcome"]["winner"]


def change_the_dealer(trace):
    trace["hands"][1]["dealer"] += 1


def a_legal_step(trace):
    return accepted(trace)[0]


DAMAGES = HandsDamages(
    damages=[
        (change_a_legal_list, "legal"),
        (change_a_to_act, "after.to_act"),
        (change_points, "after.points"),
        (change_a_trick_winner, "after.trick_winners"),
        (change_the_revealed_trump, "after.trump"),
        (change_a_result, "result.game_points"),
        (change_the_winner, "outcome.winner"),
        (change_the_dealer, "dealer"),
    ],
    reason="play_revoke",
    legal_step=a_legal_step,
    legal_step_reason="opener_must_bid",
    reported=(change_a_result, ("hand 0 end", "game_points")),
)
