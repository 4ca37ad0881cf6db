"""A process that did not make a move follows it (games.presenters.basis.adopt): the push
carries the moves, the game row's changed fields and the members', and a process holding the
table of the version before builds the new one in memory, with no query, exactly as a read of
the database would; without that earlier table, or after anything but moves, it reads."""

from __future__ import annotations

import copy

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext

from games.kinds.hundred_and_ten import engine
from games.live import realtime, sockets
from games.live.committed import game_identity
from games.models import Game
from games.presenters import basis, context
from games.services import states, table
from tests.games.conftest import bid_choice, start_table


@pytest.fixture
def changes(monkeypatch):
    """Every game.changed a service sends: (game id, version, change)."""
    sent = []

    def record(game_id, version, change=None):
        sent.append((game_id, version, change))

    monkeypatch.setattr(realtime, "game_changed", record)
    return sent


def another_process():
    """What a process that made no move keeps: nothing (its tables are built below)."""
    basis.clear_table_cache()
    states.clear_state_cache()


def rendered(game, user):
    page = {**context.table_context(game, user), "csrf_token": "token", "now_ms": 0}
    return render_to_string("games/table.html#table", page)


def test_a_move_is_followed_in_memory_to_the_table_a_database_read_gives(
    alice, bob, carol, changes, django_capture_on_commit_callbacks
):
    game = start_table([alice, bob, carol], target=60)
    another_process()
    before = Game.objects.get(pk=game.pk)

    seat = engine.perspective_of(states.load_state(before), None).active_seat
    assert seat is not None
    mover = [alice, bob, carol][seat]
    with django_capture_on_commit_callbacks(execute=True):
        table.submit_move(
            game_id=game.pk, user=mover, choice=bid_choice(15), seen_version=before.version
        )
    game_id, version, change = changes[-1]
    assert change is not None and change["from"] == before.version
    assert [seat for seat, _ in change["actions"]] == [seat]

    # Forget what the move's own process kept: only the table before the move remains.
    another_process()
    with django_capture_on_commit_callbacks(execute=True):  # kept once committed
        basis.table_basis(before)  # this process showed the table before the move

    with CaptureQueriesContext(connection) as queries:
        followed = basis.adopt(game_id, version, change)
    assert followed is not None and len(queries) == 0
    assert followed.version == version and followed.action_count == before.action_count + 1
    followed_pages = {u.username: rendered(followed, u) for u in (alice, bob, carol)}

    another_process()  # the same version read from the database
    read = Game.objects.get(pk=game.pk)
    assert (read.version, read.action_count, read.status) == (
        followed.version,
        followed.action_count,
        followed.status,
    )
    for user in (alice, bob, carol):
        assert rendered(read, user) == followed_pages[user.username]


def bid_at(before, players, capture_on_commit) -> list[str]:
    """The seat to act at `before` bids 15, its commit's work run: the SQL of both."""
    seat = engine.perspective_of(states.load_state(before), None).active_seat
    assert seat is not None
    with CaptureQueriesContext(connection) as queries, capture_on_commit(execute=True):
        table.submit_move(
            game_id=before.pk,
            user=players[seat],
            choice=bid_choice(15),
            seen_version=before.version,
        )
    return [q["sql"] for q in queries]


def first_bid(players, changes, capture):
    """A game of `players` just dealt, its row then, and the change its first bid sent."""
    game = start_table(players, target=60)
    before = Game.objects.get(pk=game.pk)
    bid_at(before, players, capture)
    return before, changes[-1]


def test_without_the_table_before_or_with_other_members_the_change_is_not_followed(
    alice, bob, changes, django_capture_on_commit_callbacks
):
    before, (game_id, version, change) = first_bid(
        [alice, bob], changes, django_capture_on_commit_callbacks
    )

    another_process()  # no table of any version: the caller reads the database
    assert basis.adopt(game_id, version, change) is None

    with django_capture_on_commit_callbacks(execute=True):
        basis.table_basis(before)
    strangers = copy.deepcopy(change)
    strangers["members"] = strangers["members"][:1]  # somebody left meanwhile
    assert basis.adopt(game_id, version, strangers) is None
    wrong_game = {**change, "identity": [game_id + 1, *change["identity"][1:]]}
    assert basis.adopt(game_id, version, wrong_game) is None
    assert basis.adopt(game_id, version, change) is not None


def test_only_moves_carry_a_change(alice, bob, changes, django_capture_on_commit_callbacks):
    from games.services import seats

    game = start_table([alice, bob], target=60)
    with django_capture_on_commit_callbacks(execute=True):
        seats.automate(game_id=game.pk, user=alice)  # a seat changed hands: read it
    assert changes and all(change is None for _, _, change in changes)


def test_a_change_is_adoptable_on_the_event_loop_only_from_a_table_kept_before_it(
    alice, bob, changes, django_capture_on_commit_callbacks
):
    """`adoptable`: whether `adopt` needs nothing but memory (a redraw may then run on the
    event loop): the version before is kept here, and the game does not end (a finished
    table looks up its rematch in the database)."""
    before, (game_id, version, change) = first_bid(
        [alice, bob], changes, django_capture_on_commit_callbacks
    )

    another_process()
    assert not basis.adoptable(game_id, version, change)
    with django_capture_on_commit_callbacks(execute=True):
        basis.table_basis(before)
    assert basis.adoptable(game_id, version, change)
    ending = copy.deepcopy(change)
    ending["row"]["status"] = Game.Status.FINISHED.value
    assert not basis.adoptable(game_id, version, ending)
    assert not basis.adoptable(game_id + 1, version, change)
    assert not basis.adoptable(game_id, version, {"identity": "garbled"})
    assert basis.adopt(game_id, version, change) is not None
    assert basis.adoptable(game_id, version, ending)  # this version is kept now


def test_the_process_that_made_a_move_follows_it_the_same_way(
    alice, bob, django_capture_on_commit_callbacks
):
    """After its own commit the mover's process builds the new version's table from the one
    before as another process does: the ratings come along, not read again at every move."""
    game = start_table([alice, bob], target=60)
    before = Game.objects.get(pk=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        basis.table_basis(before)  # the table before the move, kept
    queries = bid_at(before, [alice, bob], django_capture_on_commit_callbacks)
    assert not [q for q in queries if "rating" in q]
    after = Game.objects.get(pk=game.pk)
    kept = basis.known_game(game_identity(after), after.version)
    assert kept is not None and kept.action_count == after.action_count


@pytest.mark.parametrize("watched", [False, True])
def test_a_commit_builds_the_table_only_where_a_socket_of_the_game_is_open(
    alice, bob, watched, django_capture_on_commit_callbacks
):
    """Without the table before (nothing to follow in memory), a move's commit reads and
    builds the new version's table only in a process holding a socket of the game; any other
    keeps the members it read, for whoever draws that version first (a move's answer)."""
    game = start_table([alice, bob], target=60)
    another_process()
    before = Game.objects.get(pk=game.pk)
    if watched:
        sockets.opened(game.pk)
    try:
        queries = bid_at(before, [alice, bob], django_capture_on_commit_callbacks)
    finally:
        if watched:
            sockets.closed(game.pk)
    after = Game.objects.get(pk=game.pk)
    built = basis.known_game(game_identity(after), after.version) is not None
    assert built == watched
    assert bool([q for q in queries if "rating" in q]) == watched
    with CaptureQueriesContext(connection) as later:
        basis.table_basis(after)  # the first to draw it: the members are kept
    assert not [q for q in later if '"games_membership"' in q["sql"]]
