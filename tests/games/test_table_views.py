"""The table views: page and partial, moves (good, malformed, illegal, stale), hint, automate,
rematch, who may see and do what, and a whole game played through HTTP."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games.kinds.hundred_and_ten import engine
from games.models import Game, GameAction, Membership, Snapshot
from games.services import table
from tests.conftest import logged_in_client
from tests.games.conftest import seat_game, start_table

HX = {"HX-Request": "true"}


def url(name, game):
    return reverse(name, kwargs={"game_id": game.pk})


def post_move(client, game, **data):
    return client.post(url("move", game), data, headers=HX)


def form_of(move, version):
    data = {"version": version}
    if isinstance(move, engine.Bid):
        data.update(kind="bid", amount=move.amount)
    elif isinstance(move, engine.Unpass):
        data.update(kind="unpass")
    elif isinstance(move, engine.SelectTrump):
        data.update(kind="trump", suit=move.suit)
    elif isinstance(move, engine.Discard):
        data.update(kind="discard", cards=[engine.format_card(c) for c in move.cards])
    else:
        data.update(kind="play", card=engine.format_card(move.card))
    return data


def unchanged(game, version, actions):
    game.refresh_from_db()
    return game.version == version and GameAction.objects.filter(game=game).count() == actions


@pytest.fixture
def two(alice, bob):
    """alice (seat 0, dealer) and bob (seat 1, first to bid)."""
    return start_table([alice, bob], seed="views")


def test_members_get_the_page_with_the_table_root_and_their_hand(two, alice):
    response = logged_in_client(alice).get(url("table", two))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="table-root"' in html and f'data-game-id="{two.pk}"' in html
    assert 'id="table"' in html
    hand = table.load_state(two).hands[0]
    for card in hand:
        assert f'data-card="{engine.format_card(card)}"' in html
        assert engine.card_name(card) in html
    assert "Waiting for Bob to bid." in html


def test_htmx_get_returns_only_the_table_partial(two, bob):
    response = logged_in_client(bob).get(url("table", two), headers=HX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="table"')
    assert "<html" not in html
    assert "Your turn: bid or pass." in html
    for label in ("Pass", "Bid 15", "Bid 20", "Bid 25", "Bid 30", "Shoot the moon (60)"):
        assert f">{label}</button>" in html


def test_a_waiting_game_redirects_to_the_waiting_room(alice, bob):
    game = seat_game([alice, bob])
    response = logged_in_client(alice).get(url("table", game))
    assert response.status_code == 302
    assert response["Location"] == reverse("waiting-room", kwargs={"game_id": game.pk})


def test_outsiders_get_404_for_a_private_table_and_its_actions(two, dave):
    client = logged_in_client(dave)
    assert client.get(url("table", two)).status_code == 404
    assert client.get(url("hint", two)).status_code == 404
    assert post_move(client, two, kind="bid", amount=15, version=0).status_code == 404
    assert client.post(url("automate", two), headers=HX).status_code == 404
    assert client.post(url("rematch", two), headers=HX).status_code == 404
    assert unchanged(two, 0, 0)


def test_a_move_gets_404_from_an_outsider_even_when_malformed_and_on_a_missing_game(two, dave):
    client = logged_in_client(dave)
    assert post_move(client, two, kind="nonsense", version=0).status_code == 404
    assert post_move(client, two, kind="bid", amount=15, version=7).status_code == 404
    missing = reverse("move", kwargs={"game_id": Game.objects.order_by("-pk")[0].pk + 1})
    response = client.post(missing, {"kind": "bid", "amount": 15, "version": 0}, headers=HX)
    assert response.status_code == 404
    assert unchanged(two, 0, 0)


def test_a_spectator_of_a_public_game_sees_no_hand_and_cannot_move(alice, bob, dave):
    game = start_table([alice, bob], public=True, seed="public")
    client = logged_in_client(dave)
    html = client.get(url("table", game)).content.decode()
    assert "You are watching" in html
    assert "data-card" not in html
    response = post_move(client, game, kind="bid", amount=15, version=game.version)
    assert response.status_code == 403
    assert "Only the players at this table can make moves." in response.content.decode()
    assert client.post(url("automate", game), headers=HX).status_code == 403
    assert client.get(url("hint", game)).status_code == 403
    assert unchanged(game, 0, 0)


def test_signed_out_visitors_are_sent_to_sign_in(two, client):
    response = client.get(url("table", two))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(url("move", two), {"kind": "bid"}).status_code == 302
    assert unchanged(two, 0, 0)


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

    real_record = table.record

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
    assert "Cancel my pass" in html and "Passing" in html
    # Nobody else learns about a pending pre-pass.
    assert (
        "Passing" not in logged_in_client(bob).get(url("table", game), headers=HX).content.decode()
    )
    html = post_move(client, game, kind="unpass", version=1).content.decode()
    assert "Pass in advance" in html


def test_the_hint_is_the_bot_suggestion_for_your_own_turn(two, alice, bob):
    response = logged_in_client(bob).get(url("hint", two), headers=HX)
    state = table.load_state(two)
    suggestion = engine.suggestion(state)
    assert isinstance(suggestion, engine.Bid)
    text = response.content.decode()
    assert response.status_code == 200 and 'id="hint"' in text
    expected = "Pass." if suggestion.amount == 0 else f"Bid {suggestion.amount}"
    assert expected in text
    waiting = logged_in_client(alice).get(url("hint", two), headers=HX).content.decode()
    assert "Hints are shown on your turn." in waiting


def test_hand_my_seat_to_a_bot(two, bob):
    client = logged_in_client(bob)
    html = client.get(url("table", two), headers=HX).content.decode()
    assert 'hx-confirm="Hand your seat to a bot' in html
    response = client.post(url("automate", two), headers=HX)
    assert response.status_code == 200
    assert Membership.objects.get(game=two, user=bob).automated
    assert GameAction.objects.filter(game=two, seat=1, auto=True).exists()
    assert "A bot plays your seat." in response.content.decode()
    again = client.post(url("automate", two), headers=HX)
    assert again.status_code == 422


def test_discard_offers_toggle_cards_with_non_trumps_preselected(alice):
    game = start_table([alice], bots=1, seed="discard-view")
    client = logged_in_client(alice)
    rng = random.Random(2)
    for _ in range(200):
        game.refresh_from_db()
        state = table.load_state(game)
        if state.status == engine.Status.DISCARD and state.active_seat == 0:
            break
        bids = engine.legal_bids(state, 0)
        # alice bids whenever she can, so the round is not passed out
        move = engine.Bid(0, bids[1]) if len(bids) > 1 else rng.choice(engine.legal_moves(state, 0))
        post_move(client, game, **form_of(move, game.version))
    else:
        pytest.fail("never reached alice's discard")
    html = client.get(url("table", game), headers=HX).content.decode()
    trump = state.trump
    assert trump is not None
    hand = state.hands[0]
    for card in hand:
        code = engine.format_card(card)
        box = re.search(rf'<input type="checkbox"[^>]*name="cards" value="{code}"[^>]*>', html)
        assert box, code
        assert ("checked" in box.group(0)) == (not engine.is_trump(card, trump))
    assert "Keep my hand" in html or "Discard " in html
    keep = post_move(client, game, kind="discard", version=game.version)
    assert keep.status_code == 200
    mine = GameAction.objects.filter(game=game, seat=0, move__type="discard").get()
    assert mine.move["cards"] == []


def test_rematch_button_after_the_end_opens_the_new_table(alice, bob):
    game = start_table([alice, bob], seed="rematch-view", target=30)
    rng = random.Random(4)
    clients = {0: logged_in_client(alice), 1: logged_in_client(bob)}
    while game.status != Game.Status.FINISHED:
        state = table.load_state(game)
        seat = state.active_seat
        assert seat is not None
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        assert post_move(clients[seat], game, **form_of(move, game.version)).status_code == 200
        game.refresh_from_db()
    html = clients[0].get(url("table", game), headers=HX).content.decode()
    assert "Game over:" in html and ">Rematch</button>" in html
    assert "the others are invited" in html
    response = clients[1].post(url("rematch", game), headers=HX)
    new = Game.objects.get(rematch_of=game)
    assert response.status_code == 204
    assert response["HX-Redirect"] == url("waiting-room", new)  # alice is invited
    assert "Go to the rematch" in clients[0].get(url("table", game), headers=HX).content.decode()
    room = clients[0].get(url("waiting-room", new)).content.decode()
    assert "invited you to a rematch" in room and ">Accept</button>" in room
    assert "starts when everyone has answered" in room
    mine = clients[1].get(url("waiting-room", new)).content.decode()
    assert "Kept for Alice (invited)" in mine
    assert "The rematch starts by itself when everyone has answered" in mine
    accepted = clients[0].post(reverse("accept", args=[new.pk]), headers=HX)
    assert accepted["HX-Redirect"] == url("table", new)  # the last answer started it


def test_rematch_refused_while_the_game_is_on(two, alice):
    response = logged_in_client(alice).post(url("rematch", two), headers=HX)
    assert response.status_code == 422
    assert Game.objects.count() == 1


def test_a_whole_game_through_the_views_with_humans_and_bots(alice, bob):
    """alice and bob play random legal moves over HTTP against two bots, to the end."""
    game = start_table([alice, bob], bots=2, seed="whole-game")
    clients = {0: logged_in_client(alice), 1: logged_in_client(bob)}
    rng = random.Random(7)
    posts = 0
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = table.load_state(game)
        seat = state.active_seat
        assert seat in clients  # bots never leave a bot's turn hanging
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        response = post_move(clients[seat], game, **form_of(move, game.version))
        assert response.status_code == 200, response.content.decode()[:500]
        posts += 1
    initial = engine.state_from_json(Snapshot.objects.get(game=game, seq=0).state)
    log = [engine.move_from_json(a.move) for a in GameAction.objects.filter(game=game)]
    final = engine.replay(initial, log)
    assert final.status == engine.Status.WON
    assert game.winners[0] == final.winner
    assert posts == GameAction.objects.filter(game=game, auto=False).count()
    assert GameAction.objects.filter(game=game, auto=True).exists()
    winner = Membership.objects.get(game=game, seat=final.winner).name
    html = clients[0].get(url("table", game)).content.decode()
    assert f"{winner} wins." in html or "you win!" in html
