"""A refused action, for every game's rules tests: `refused_by(RULES, IllegalMove, ...)`
asserts the game's own refusal, with its code and a sentence for the player, and that the
state is as it was."""

from __future__ import annotations

from typing import Any

import pytest

from games.kinds.protocol import IllegalAction


def refused_by(
    rules: Any, illegal: type[IllegalAction], state: Any, seat: int, action: Any, code: str
) -> IllegalAction:
    """Assert `action` is refused with `illegal` and `code` and leaves `state` as it was."""
    before = rules.state_to_json(state)
    with pytest.raises(illegal) as caught:
        rules.apply(state, seat, action)
    assert caught.value.code == code
    assert str(caught.value)  # a sentence for the player
    assert rules.state_to_json(state) == before
    return caught.value
