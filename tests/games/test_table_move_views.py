"""The table views: moves (good, malformed, illegal, stale, on a database too busy, or broken),
what an accepted move reads, when the answer carries the side panel, plain form posts, and
passing in advance while it is not your turn."""

from __future__ import annotations

import re

import pytest

from games.models import GameAction
from games.services import recording, table
from tests.conftest import HX, logged_in_client
from tests.games.conftest import post_move, start_table, unchanged, url


def test_a_legal_bid_is_applied_and_returns_the_fresh_table(two, bob):
    response = post_move(logged_in_client(bob), two, kind="bid", amount=20, version=0)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="table"')
    assert "Waiting for Alice to bid." in html
    assert "Bid 20" in html
    assert GameAction.objects.get(game=two).move == {"type": "bid", "seat": 1, "amount": 20}


def queries_of_a_move(client, game) -> list[str]:
    """The SQL of bob's accepted bid of 20 at version 0, commits and after-commit work too."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = post_move(client, game, kind="bid", amount=20, version=0)
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries]


def reads_from(table: str, sqls: list[str]) -> list[str]:
    return [sql for sql in sqls if sql.startswith("SELECT") and f'FROM "{table}"' in sql]


def test_an_accepted_move_reads_the_game_row_once_under_its_lock(two, bob):
    """The player's seat proves they may see the game: no visibility queries on top."""
    sqls = queries_of_a_move(logged_in_client(bob), two)
    game_reads = reads_from("games_game", sqls)
    assert len(game_reads) == 1, game_reads
    assert not any('"games_membership"' in sql and "LIMIT 1" in sql for sql in sqls)


@pytest.mark.django_db(transaction=True)  # real commits: the move's after-commit work runs
def test_an_accepted_move_reads_the_memberships_once_for_itself_and_every_redraw(two, bob):
    """The memberships read under the lock also build the table's shared part, which the
    answer (and every socket's redraw in this process) then uses."""
    member_reads = reads_from("games_membership", queries_of_a_move(logged_in_client(bob), two))
    assert len(member_reads) == 1, member_reads


def test_an_answer_carries_the_side_panel_only_when_the_page_shows_an_older_one(two, alice, bob):
    first = post_move(logged_in_client(bob), two, kind="bid", amount=15, version=0).content
    side = re.search(r'<aside id="table-side"[^>]*data-side="([^"]+)"', first.decode())
    assert side, "a page that names no side panel gets one"
    shown = {**HX, "X-Table-Side": side.group(1)}
    # A bid ends no trick: the side panel alice's page shows is still the current one.
    answer = logged_in_client(alice).post(
        url("move", two), {"kind": "bid", "amount": 20, "version": 1}, headers=shown
    )
    assert answer.status_code == 200
    assert 'id="table"' in answer.content.decode()
    assert 'id="table-side"' not in answer.content.decode()
    stale = {**HX, "X-Table-Side": "0.0.1"}
    again = logged_in_client(bob).post(
        url("move", two), {"kind": "bid", "amount": 25, "version": 2}, headers=stale
    )
    assert 'id="table-side"' in again.content.decode()


def test_a_plain_form_post_redirects_back_to_the_table(two, bob):
    response = logged_in_client(bob).post(
        url("move", two), {"kind": "bid", "amount": 15, "version": 0}
    )
    assert response.status_code == 302
    assert response["Location"] == url("table", two)
    assert GameAction.objects.filter(game=two).count() == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"amount": 15, "version": 0}, "unknown kind of move"),
        ({"kind": "shuffle", "version": 0}, "unknown kind of move"),
        ({"kind": "bid", "amount": 15}, "the table version is missing"),
        ({"kind": "bid", "amount": 15, "version": "x"}, "the table version is missing"),
        ({"kind": "bid", "amount": "lots", "version": 0}, "Choose a bid amount or pass."),
        ({"kind": "bid", "version": 0}, "Choose a bid amount or pass."),
        ({"kind": "trump", "suit": "X", "version": 0}, "Choose one of the four suits"),
        ({"kind": "play", "card": "11H", "version": 0}, "is not a card"),
        ({"kind": "play", "version": 0}, "Choose one card to play."),
        ({"kind": "discard", "cards": ["ZZ"], "version": 0}, "is not a card"),
    ],
)
def test_malformed_moves_get_400_with_a_clear_message_and_change_nothing(two, bob, data, message):
    response = post_move(logged_in_client(bob), two, **data)
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    assert 'role="alert"' in html and 'id="table"' in html
    assert unchanged(two, 0, 0)


def test_an_illegal_move_gets_422_with_the_rules_message(two, alice, bob):
    response = post_move(logged_in_client(bob), two, kind="play", card="AH", version=0)
    assert response.status_code == 422
    assert 'role="alert"' in response.content.decode()
    response = post_move(logged_in_client(bob), two, kind="bid", amount=35, version=0)
    assert response.status_code == 422
    assert unchanged(two, 0, 0)


def test_a_stale_move_gets_409_and_the_current_table(two, alice, bob):
    post_move(logged_in_client(bob), two, kind="bid", amount=15, version=0)
    response = post_move(logged_in_client(bob), two, kind="bid", amount=20, version=0)
    html = response.content.decode()
    assert response.status_code == 409
    assert "The table changed; here is the current one." in html
    assert 'data-version="1"' in html
    assert unchanged(two, 1, 1)


def test_a_database_too_busy_for_the_move_gets_503_in_the_table_and_changes_nothing(
    two, bob, monkeypatch
):
    from django.db import OperationalError

    real_record = recording.record

    def record_then_time_out(*args, **kwargs):
        real_record(*args, **kwargs)  # the action row is written, then the lock wait runs out
        raise OperationalError("database is locked")

    monkeypatch.setattr(table, "record", record_then_time_out)
    response = post_move(logged_in_client(bob), two, kind="bid", amount=15, version=0)
    html = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert html.lstrip().startswith('<section id="table"')
    assert "The server is busy right now and nothing was changed." in html
    assert unchanged(two, 0, 0)


def test_other_database_errors_are_not_dressed_up_as_busy(two, bob, monkeypatch):
    from django.db import OperationalError

    def broken(*args, **kwargs):
        raise OperationalError("no such table: games_gameaction")

    monkeypatch.setattr(table, "record", broken)
    client = logged_in_client(bob)
    client.raise_request_exception = True
    with pytest.raises(OperationalError):
        post_move(client, two, kind="bid", amount=15, version=0)


def test_a_non_htmx_error_gets_the_full_page_with_the_message(two, bob):
    response = logged_in_client(bob).post(url("move", two), {"kind": "bid", "amount": 15})
    assert response.status_code == 400
    assert "<html" in response.content.decode()
    assert "the table version is missing" in response.content.decode()


def test_pre_pass_and_unpass_while_it_is_not_your_turn(alice, bob, carol):
    game = start_table([alice, bob, carol], seed="prepass")  # bob bids first; carol waits
    client = logged_in_client(carol)
    html = client.get(url("table", game), headers=HX).content.decode()
    assert "Pass in advance" in html
    html = post_move(client, game, kind="bid", amount=0, version=0).content.decode()
    pending = "You will pass when the bidding reaches you."
    assert "Cancel my pass" in html and pending in html
    # Nobody else learns about a pending pre-pass: no seat shows it, not even carol's own.
    assert "Passing" not in html
    seen = logged_in_client(bob).get(url("table", game), headers=HX).content.decode()
    assert "Passing" not in seen and pending not in seen and "Cancel my pass" not in seen
    html = post_move(client, game, kind="unpass", version=1).content.decode()
    assert "Pass in advance" in html
