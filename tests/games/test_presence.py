"""games.presence: who has a game open, and since when the others have been away."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games import presence

T0 = 1_700_000_000.0


@pytest.fixture
def clock(monkeypatch):
    """presence's clock, set by the test: clock.at = seconds since the epoch."""

    class Clock:
        at = T0

    monkeypatch.setattr(presence, "now", lambda: Clock.at)
    return Clock


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "away <1 min"),
        (59, "away <1 min"),
        (60, "away 1 min"),
        (3 * 60 + 5, "away 3 min"),
        (59 * 60 + 59, "away 59 min"),
        (60 * 60, "away 1 h"),
        (47 * 3600, "away 47 h"),
        (3 * 86400, "away 3 days"),
    ],
)
def test_away_text_says_how_long_in_a_few_characters(seconds, text):
    assert presence.away_text(seconds) == text


def test_the_last_socket_closing_notes_when_the_user_left(clock):
    presence.join(7, 1)
    presence.join(7, 1)  # two tabs
    clock.at = T0 + 10
    assert not presence.leave(7, 1)  # one tab still open: not away
    assert presence.presence_of(7, [1]) == presence.Presence({1}, {})
    clock.at = T0 + 20
    assert presence.leave(7, 1)
    clock.at = T0 + 20 + 3 * 60 + 30
    seen = presence.presence_of(7, [1, 2])
    assert seen.connected == set()
    away = seen.away[1]
    assert away.since == datetime.fromtimestamp(T0 + 20, UTC)
    assert away.text == "away 3 min" and away.seconds == 210
    assert 2 not in seen.away  # never had the game open: just not connected
    presence.join(7, 1)  # back: connected, not away
    assert presence.presence_of(7, [1]) == presence.Presence({1}, {})
    assert presence.connected_user_ids(7, [1, 2]) == {1}
