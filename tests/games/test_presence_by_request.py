"""A player acting over HTTP is present: a move, or any page of the game, keeps them present
for the away threshold (COVER_GRACE_SECONDS, 2 min) after it, with no socket open at all;
their absence begins then, and cover and abandon count from it (games/middleware.py,
games/live/presence.py `seen`)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import signals
from games.kinds.hundred_and_ten import engine
from games.live import presence
from games.services import absence
from games.services.errors import RefusedMove
from tests.conftest import logged_in_client
from tests.games.conftest import T0, form_of, member, post_move

pytestmark = pytest.mark.django_db


def test_a_player_who_moved_over_http_is_neither_covered_nor_abandoned_at_once(
    three, alice, bob, carol, clock
):
    response = post_move(logged_in_client(bob), three, **form_of(engine.Bid(1, 15), 0))
    assert response.status_code == 200  # bob bid, with no socket open: carol's turn
    clock.at = T0 + 1
    with pytest.raises(RefusedMove, match="Bob is at the table"):
        absence.abandon(game_id=three.pk, by=alice)
    with pytest.raises(RefusedMove, match="Bob is at the table"):
        absence.cover(game_id=three.pk, by=carol, seat=1)
    clock.at = T0 + 119
    assert presence.present_user_ids(three.pk, [bob.pk]) == {bob.pk}
    # Two minutes after his request his absence begins; a bot may cover two minutes later.
    clock.at = T0 + 120 + 60
    assert presence.present_user_ids(three.pk, [bob.pk]) == set()
    with pytest.raises(RefusedMove, match="Bob has been away only 1 min; a bot can cover"):
        absence.cover(game_id=three.pk, by=carol, seat=1)
    clock.at = T0 + 120 + 120
    absence.cover(game_id=three.pk, by=carol, seat=1)
    assert member(three, bob).automated


def test_any_page_of_the_game_counts_and_a_closed_tab_ends_it(three, alice, bob, clock):
    client = logged_in_client(bob)
    for name in ("table", "waiting-room", "replay"):
        presence.leave(three.pk, bob.pk)  # his last tab closed...
        assert presence.present_user_ids(three.pk, [bob.pk]) == set()
        clock.at += 1
        assert client.get(reverse(name, args=[three.pk])).status_code < 400
        assert presence.present_user_ids(three.pk, [bob.pk]) == {bob.pk}  # ...then a page


def test_a_page_the_user_may_not_see_counts_for_nothing(three, dave, clock):
    assert logged_in_client(dave).get(reverse("table", args=[three.pk])).status_code == 404
    assert presence.presence_of(three.pk, [dave.pk], fresh=True).recent == set()


@pytest.mark.django_db(transaction=True)  # the move's commit, and so its pushes, in the request
def test_the_mover_is_present_when_the_pages_their_move_changes_are_drawn(three, bob, clock):
    """The pushes of a move are drawn after its commit, inside the request: the mover must
    already count as present then, or the other players' tables list them as away."""
    at_push: list[set[int]] = []

    def drawn(sender, game, **kwargs) -> None:
        at_push.append(presence.present_user_ids(game.pk, [bob.pk]))

    signals.version_committed.connect(drawn)
    try:
        response = post_move(logged_in_client(bob), three, **form_of(engine.Bid(1, 15), 0))
    finally:
        signals.version_committed.disconnect(drawn)
    assert response.status_code == 200
    assert at_push and at_push[0] == {bob.pk}
