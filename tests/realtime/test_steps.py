"""A resolution played out step by step on one socket (games/steps.py): which step a render
draws, how ticks and skips move it, and that a socket's first render never replays."""

from __future__ import annotations

from games.steps import NO_STEPS, Steps


def test_the_first_render_shows_the_current_state_not_a_replay():
    steps = Steps()
    assert steps.step_for("0.3", 4) is None
    assert not steps.active


def test_a_new_resolution_is_played_from_step_0_to_the_current_state():
    steps = Steps()
    steps.step_for("0.0", 3)
    drawn = [steps.step_for("0.1", 3)]
    while steps.active:
        steps.advance()
        drawn.append(steps.step_for("0.1", 3))
    assert drawn == [0, 1, 2, None]
    assert steps.step_for("0.1", 3) is None  # once played out, it stays the current state


def test_renders_between_ticks_draw_the_same_step():
    steps = Steps()
    steps.step_for("a", 2)
    assert steps.step_for("b", 5) == 0
    assert steps.step_for("b", 5) == 0  # another player's commitment redraws: same step
    steps.advance()
    assert steps.step_for("b", 5) == 1


def test_skip_ends_the_replay_only_for_its_own_key():
    steps = Steps()
    steps.step_for("a", 2)
    steps.step_for("b", 4)
    assert not steps.skip("a")
    assert steps.active
    assert steps.skip("b")
    assert steps.step_for("b", 4) is None


def test_a_newer_resolution_replaces_the_one_being_played():
    steps = Steps()
    steps.step_for("a", 2)
    steps.step_for("b", 4)
    steps.advance()
    assert steps.step_for("c", 3) == 0


def test_nothing_to_play_out():
    steps = Steps()
    steps.step_for("a", 2)
    assert steps.step_for(*NO_STEPS) is None
    assert not steps.active
