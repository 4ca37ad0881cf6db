"""Damage to a Hearts conformance trace, each with the key the replayer must name, and
what else the shared tests of the games of hands need (tests/kinds/test_conformance.py)."""

from __future__ import annotations

from tests.kinds.conformance import HandsDamages, hand_steps


def change_a_legal_list(trace):
    step = next(s for s in hand_steps(trace) if len(s.get("legal", ())) > 1)
    step["legal"] = step["legal"][1:]


def change_a_to_act(trace):
    step = [s for s in hand_steps(trace) if "play" in s["action"]][7]
    step["to_act"] = [(step["to_act"][0] + 1) % 4]


def change_a_pass_to_act(trace):
    trace["hands"][0]["steps"][1]["to_act"] = [0, 1, 2, 3]


def change_a_total(trace):
    trace["hands"][1]["totals"][2] += 1


def change_the_final_winners(trace):
    trace["outcome"]["winners"] = [0, 1, 2, 3]


def change_a_trick_winner(trace):
    step = next(s for s in hand_steps(trace) if "trick_winner" in s)
    step["trick_winner"] = (step["trick_winner"] + 1) % 4


def change_the_exchange(trace):
    hands = trace["hands"][0]["hands_after_pass"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def change_a_moon(trace):
    trace["hands"][0]["moon_shooter"] = 0


def change_the_pass_direction(trace):
    trace["hands"][1]["pass_direction"] = "left"


def a_legal_step(trace):
    return [s for s in hand_steps(trace) if "play" in s["action"]][3]


DAMAGES = HandsDamages(
    damages=[
        (change_a_legal_list, "legal"),
        (change_a_to_act, "to_act"),
        (change_a_pass_to_act, "to_act"),
        (change_a_total, "totals"),
        (change_the_final_winners, "outcome.winners"),
        (change_a_trick_winner, "trick_winner"),
        (change_the_exchange, "hands_after_pass"),
        (change_a_moon, "moon_shooter"),
        (change_the_pass_direction, "pass_direction"),
    ],
    reason="pass_wrong_count",
    legal_step=a_legal_step,
    legal_step_reason="play_must_follow_suit",
    reported=(change_a_total, ("hand 1 end", "totals")),
)
