"""games.live.presence: who has a game open, and since when the others have been away."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from games.live import presence
from tests.games.conftest import T0


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


def test_a_heartbeat_keeps_a_games_users_counted_and_on_its_roster_in_few_commands(
    shared_counts,
):
    from django.core.cache import cache

    for user_id in (1, 2, 3):
        presence.join(7, user_id)
    cache.delete(presence._key(7, 2))  # lost (say Redis restarted): the heartbeat restores it
    cache.set(presence._roster_key(7), [1])  # 2 and 3 lost to concurrent writes
    shared_counts.clear()
    presence.touch(7, [1, 2, 3])
    assert presence.connected_user_ids(7, [1, 2, 3]) == {1, 2, 3}
    presence.forget(7)
    assert presence.watchers(7, []) == 3
    assert sorted(cache.get(presence._roster_key(7))) == [1, 2, 3]
    # All on the roster already: one read of it (and a refresh), whatever the users.
    shared_counts.clear()
    presence.touch(7, [1, 2, 3])
    assert shared_counts == [presence._roster_key(7)]


@pytest.fixture
def shared_counts(monkeypatch):
    """The counts as if they lived in a cache shared by several processes (Redis): reads
    of them are counted, and this process keeps its recent ones (presence._recent)."""
    from django.core.cache import cache

    monkeypatch.setattr(presence, "in_process", lambda: False)
    reads = []
    real_get_many, real_get = cache.get_many, cache.get

    def get_many(keys, **kwargs):
        reads.append(keys)
        return real_get_many(keys, **kwargs)

    def get(key, *args, **kwargs):
        reads.append(key)
        return real_get(key, *args, **kwargs)

    monkeypatch.setattr(cache, "get_many", get_many)
    monkeypatch.setattr(cache, "get", get)
    presence.forget_all()
    yield reads
    presence.forget_all()


def test_one_read_serves_every_table_a_move_redraws_until_something_changes(shared_counts):
    presence.join(7, 1)
    shared_counts.clear()
    assert presence.presence_of(7, [1, 2]).connected == {1}
    assert presence.watchers(7, [1, 2]) == 0
    reads = len(shared_counts)
    for _ in range(5):  # the other tables of the same move
        assert presence.presence_of(7, [1, 2]).connected == {1}
        assert presence.watchers(7, [1, 2]) == 0
    assert len(shared_counts) == reads

    presence.join(7, 2)  # a socket of this process joined: read again
    assert presence.presence_of(7, [1, 2]).connected == {1, 2}
    presence.join(7, 9)  # a spectator
    assert presence.watchers(7, [1, 2]) == 1


def test_news_from_another_process_or_time_makes_the_next_read_fresh(shared_counts, monkeypatch):
    from django.core.cache import cache

    presence.join(8, 1)
    assert presence.presence_of(8, [1, 2]).connected == {1}
    cache.set(presence._key(8, 2), 1)  # bob opened the game on another process
    assert presence.presence_of(8, [1, 2]).connected == {1}  # not known here yet
    presence.forget(8)  # its presence.changed arrived
    assert presence.presence_of(8, [1, 2]).connected == {1, 2}

    cache.set(presence._key(8, 2), 0)  # and left; no news reached this process
    later = time.monotonic() + presence.READ_SECONDS + 1
    monkeypatch.setattr(time, "monotonic", lambda: later)
    assert presence.presence_of(8, [1, 2]).connected == {1}


def test_a_read_overtaken_by_news_is_not_kept(shared_counts, monkeypatch):
    """A table drawn in one thread reads the counts while another socket leaves: the read
    may miss the departure's time, and news of the departure (forget) may come before the
    read is kept. Such a read serves its own drawing only, never the next one."""
    from django.core.cache import cache

    presence.join(10, 1)
    presence.join(10, 2)

    class BobLeavesDuringTheRead:
        def __getattr__(self, name):
            return getattr(cache, name)

        def get_many(self, keys, **kwargs):
            found = cache.get_many(keys, **kwargs)
            monkeypatch.setattr(presence, "cache", cache)
            presence.leave(10, 2)  # done between the read and its keeping, with its news
            return found

    monkeypatch.setattr(presence, "cache", BobLeavesDuringTheRead())
    assert presence.presence_of(10, [1, 2]).connected == {1, 2}  # what was read
    after = presence.presence_of(10, [1, 2])
    assert after.connected == {1}
    assert after.away[2].text == "away <1 min"


def test_mail_decides_on_a_fresh_read(shared_counts):
    from django.core.cache import cache

    presence.join(9, 1)
    assert presence.presence_of(9, [1, 2]).connected == {1}
    cache.set(presence._key(9, 2), 1)
    assert presence.connected_user_ids(9, [1, 2]) == {1, 2}


def test_a_table_is_drawn_without_io_only_while_both_reads_are_held(shared_counts, monkeypatch):
    """`held`: what a redraw on the event loop may rely on (games/consumers/tables.py)."""
    presence.join(12, 1)
    assert not presence.held(12)
    presence.presence_of(12, [1, 2])
    assert not presence.held(12)  # the watchers are not read yet
    presence.watchers(12, [1, 2])
    assert presence.held(12) and not presence.held(13)
    presence.forget(13)  # news of another game
    assert presence.held(12)
    later = time.monotonic() + presence.READ_SECONDS + 1
    monkeypatch.setattr(time, "monotonic", lambda: later)
    assert not presence.held(12)


def test_on_an_event_loop_a_read_not_held_is_refused_and_a_held_one_served(shared_counts):
    import asyncio

    presence.join(14, 1)
    shared_counts.clear()

    async def draw() -> set[int]:  # as a redraw on the event loop does
        return presence.presence_of(14, [1, 2]).connected

    with pytest.raises(presence.NotHeld):
        asyncio.run(draw())
    assert shared_counts == []  # refused before any I/O
    assert presence.presence_of(14, [1, 2]).connected == {1}  # a render thread reads it
    reads = len(shared_counts)
    assert asyncio.run(draw()) == {1}
    assert len(shared_counts) == reads


def test_with_the_counts_in_this_process_every_table_is_held(monkeypatch):
    monkeypatch.setattr(presence, "in_process", lambda: True)  # the embedded default
    presence.forget(15)
    assert presence.held(15)
