"""Undo by consent (games/services/undo.py and its views): asked, accepted by every other
person at the table (bots are not asked), declined, lapsed; the clocks and bots wait; the log
keeps both rows, a load replays them, the replay shows them and the export leaves them out;
off for rated games; every malformed or refused request a 4xx that changes nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import registry
from games.kinds.hundred_and_ten import engine
from games.models import Game, GameAction, Membership
from games.presenters.replay import replay_context
from games.services import seats, states, table, undo
from games.services.errors import NotAPlayer, RefusedMove, StaleTable
from games.services.history import export
from tests.bots import play_bots
from tests.conftest import HX, logged_in_client
from tests.games.conftest import bid_choice, clocked_table, start_table


def bid(game, user, amount):
    game.refresh_from_db()
    return table.submit_move(
        game_id=game.pk, user=user, choice=bid_choice(amount), seen_version=game.version
    )


def ask(game, user):
    game.refresh_from_db()
    return undo.ask(game_id=game.pk, user=user, seen_version=game.version)


def told(game) -> undo.Undo:
    """The game's undo as it stands (there must be one)."""
    game.refresh_from_db()
    found = undo.Undo.of(game)
    assert found is not None
    return found


def always(action):
    """A table service choice that is `action` whatever the kind and seat."""

    def choice(kind, seat):
        return action

    return choice


def state_of(game):
    game.refresh_from_db()
    return states.load_state(game)


def undoable_move(game, user, seat):
    """`user` (at `seat`) makes a legal move that the game's rules let be taken back."""
    game.refresh_from_db()
    rules = registry.kind(game.kind).rules
    state = states.load_state(game)
    action = next(
        a
        for a in rules.legal_actions(state, seat)
        if rules.undoable(state, seat, a, rules.apply(state, seat, a))
    )
    table.submit_move(game_id=game.pk, user=user, choice=always(action), seen_version=game.version)


def deadline(game, seat):
    return Membership.objects.get(game=game, seat=seat).deadline


@pytest.fixture
def friends(alice, bob, carol):
    """An unrated Hundred and Ten game of three people: bob (seat 1) bids first, then carol."""
    return start_table([alice, bob, carol], seed="undo", rated="no")


def test_a_bid_taken_back_by_consent_leaves_the_game_as_before_it(friends, alice, bob, carol):
    before = state_of(friends)
    bid(friends, bob, 15)
    friends.refresh_from_db()
    assert friends.undo == {"seq": 1, "seat": 1}
    ask(friends, bob)
    friends.refresh_from_db()
    assert undo.Undo.of(friends) == undo.Undo(seq=1, seat=1, asked=(0, 2))
    assert friends.undo_until is not None
    # While the table answers, nobody moves.
    with pytest.raises(RefusedMove, match="Bob asked to take back their last move"):
        bid(friends, carol, 20)
    undo.answer(game_id=friends.pk, user=alice, accept=True)
    friends.refresh_from_db()
    assert told(friends).waiting_for() == (2,)
    undo.answer(game_id=friends.pk, user=carol, accept=True)
    friends.refresh_from_db()
    # The undo row is the last action: the table says whose move it took back, and that
    # move cannot be asked about again.
    assert friends.undo == {"seq": 2, "seat": 1, "taken": True} and friends.undo_until is None
    with pytest.raises(RefusedMove, match="taken back already"):
        ask(friends, bob)
    log = list(GameAction.objects.filter(game=friends).values_list("seq", "undone", "undoes"))
    assert log == [(1, True, None), (2, False, 1)]
    assert friends.action_count == 2
    assert state_of(friends) == before
    # Bob is to act again, and his new bid goes on from there.
    assert Membership.objects.get(game=friends, seat=1).must_act
    assert not Membership.objects.get(game=friends, seat=2).must_act
    bid(friends, bob, 20)
    assert state_of(friends) == engine.apply(before, engine.Bid(1, 20))


def test_a_load_after_a_restart_replays_the_undo_row(friends, alice, bob, carol):
    before = state_of(friends)
    bid(friends, bob, 15)
    ask(friends, bob)
    undo.answer(game_id=friends.pk, user=alice, accept=True)
    undo.answer(game_id=friends.pk, user=carol, accept=True)
    bid(friends, bob, 25)
    states.clear_state_cache()
    assert state_of(friends) == engine.apply(before, engine.Bid(1, 25))


def test_one_no_ends_the_question_and_the_move_stands(friends, alice, bob, carol):
    bid(friends, bob, 15)
    after_bid = state_of(friends)
    ask(friends, bob)
    undo.answer(game_id=friends.pk, user=alice, accept=True)
    undo.answer(game_id=friends.pk, user=carol, accept=False)
    friends.refresh_from_db()
    told_now = told(friends)
    assert told_now.refused == "declined" and told_now.by == 2
    assert friends.undo_until is None
    assert state_of(friends) == after_bid
    assert not GameAction.objects.filter(game=friends, undone=True).exists()
    with pytest.raises(RefusedMove, match="did not take that move back"):
        ask(friends, bob)
    bid(friends, carol, 20)  # play goes on
    assert state_of(friends).active_seat == 0


def test_unanswered_in_time_it_lapses_and_the_clocks_get_back_what_was_left(alice, bob, carol):
    game = clocked_table([alice, bob, carol], seconds=60, seed="undo", rated="no")
    bid(game, bob, 15)
    due = deadline(game, 2)
    ask(game, bob)
    # Carol's clock waits as long as the question can.
    assert deadline(game, 2) == due + timedelta(seconds=undo.question_seconds())
    game.refresh_from_db()
    assert undo.lapse_due(game.undo_until - timedelta(seconds=1)) == 0
    assert undo.lapse_due(game.undo_until) == 1
    game.refresh_from_db()
    assert told(game).refused == "lapsed"
    # Lapsed at its end: nothing was left, so the clock keeps the whole wait.
    assert deadline(game, 2) == due + timedelta(seconds=undo.question_seconds())
    assert undo.lapse_due(timezone.now() + timedelta(days=1)) == 0


def test_an_answer_before_time_gives_the_clocks_back_what_was_left(alice, bob, carol):
    game = clocked_table([alice, bob, carol], seconds=60, seed="undo", rated="no")
    bid(game, bob, 15)
    due = deadline(game, 2)
    ask(game, bob)
    undo.answer(game_id=game.pk, user=carol, accept=False)
    waited = deadline(game, 2) - due
    assert timedelta(0) <= waited < timedelta(seconds=5)


def test_bots_are_not_asked(alice, bob):
    game = start_table([alice, bob], bots=1, seed="undo", rated="no")
    # Seats: alice 0 (dealer), bob 1 (bids first), the bot 2, which bids at once.
    bid(game, bob, 15)
    assert state_of(game).active_seat == 0
    undoable_move(game, alice, 0)  # bob is next
    ask(game, alice)
    game.refresh_from_db()
    assert told(game).asked == (1,)
    undo.answer(game_id=game.pk, user=bob, accept=True)
    assert state_of(game).active_seat == 0
    assert GameAction.objects.filter(game=game, undoes__isnull=False).count() == 1


def test_with_nobody_to_ask_it_is_taken_back_at_once(settings, alice):
    settings.BOT_DELAY_SECONDS = 600  # the bot after alice has not moved yet
    game = start_table([alice], bots=3, kind="hearts", seed="undo-alone", rated="no")
    rules = registry.kind("hearts").rules
    while True:  # on to a move of hers that may be taken back, the bots made to move
        state = state_of(game)
        if 0 not in rules.to_act(state):
            Membership.objects.filter(game=game, must_act=True).update(deadline=timezone.now())
            play_bots()
            continue
        legal = rules.legal_actions(state, 0)
        if any(rules.undoable(state, 0, a, rules.apply(state, 0, a)) for a in legal):
            break
        table.submit_move(
            game_id=game.pk,
            user=alice,
            choice=always(legal[0]),
            seen_version=game.version,
        )
    before = state_of(game)
    undoable_move(game, alice, 0)
    ask(game, alice)
    assert state_of(game) == before
    assert GameAction.objects.filter(game=game, undoes__isnull=False).count() == 1


def test_the_asker_and_the_rules_decide_what_may_be_asked(friends, alice, bob, carol):
    with pytest.raises(RefusedMove):
        ask(friends, bob)  # nothing played yet
    bid(friends, bob, 15)
    with pytest.raises(RefusedMove, match="Only your own last move"):
        ask(friends, carol)  # not hers
    with pytest.raises(StaleTable):
        undo.ask(game_id=friends.pk, user=bob, seen_version=0)
    ask(friends, bob)
    with pytest.raises(RefusedMove, match="asked already"):
        ask(friends, bob)
    with pytest.raises(RefusedMove, match="Only the other players answer"):
        undo.answer(game_id=friends.pk, user=bob, accept=True)


def test_a_spectator_neither_asks_nor_answers(friends, bob, dave):
    bid(friends, bob, 15)
    with pytest.raises(NotAPlayer):
        ask(friends, dave)
    ask(friends, bob)
    with pytest.raises(NotAPlayer):
        undo.answer(game_id=friends.pk, user=dave, accept=True)


def test_off_for_rated_games(alice, bob, carol):
    game = start_table([alice, bob, carol], seed="undo", rated="people")
    bid(game, bob, 15)
    with pytest.raises(RefusedMove, match="rated game"):
        ask(game, bob)
    client = logged_in_client(bob)
    page = client.get(reverse("table", kwargs={"game_id": game.pk}), headers=HX).content.decode()
    assert 'id="undo-button"' not in page


def test_a_seat_changing_hands_ends_the_question(friends, alice, bob, carol):
    bid(friends, bob, 15)
    ask(friends, bob)
    seats.automate(game_id=friends.pk, user=carol)  # her turn: the bot plays it at once
    friends.refresh_from_db()
    assert friends.undo_until is None
    assert list(GameAction.objects.filter(game=friends).values_list("seat", "undoes")) == [
        (1, None),
        (2, None),
    ]


def test_the_replay_shows_the_move_and_its_taking_back(friends, alice, bob, carol):
    bid(friends, bob, 15)
    ask(friends, bob)
    undo.answer(game_id=friends.pk, user=alice, accept=True)
    undo.answer(game_id=friends.pk, user=carol, accept=True)
    friends.refresh_from_db()
    shown = replay_context(friends, alice, at="1")
    assert shown["said"] == "Bob moved. (taken back)"
    assert replay_context(friends, bob, at="1")["said"].endswith("(taken back)")
    assert replay_context(friends, alice, at="2")["said"] == "Bob took back their move."
    assert replay_context(friends, bob, at="2")["said"] == "You took back your move."
    # The step after the undo shows the table as before the bid.
    assert (
        replay_context(friends, alice, at="2")["g"] == replay_context(friends, alice, at="0")["g"]
    )


def play_on(game, people, rng, *, until=None):
    """Random legal moves by the people to act, until the game ends or `until(state, seat,
    action, after)` says stop (True) after a move; returns that move's seat, else None."""
    rules = registry.kind(game.kind).rules
    while True:
        state = state_of(game)
        if game.status != Game.Status.ACTIVE:
            return None
        seat = min(rules.to_act(state))
        action = rng.choice(list(rules.legal_actions(state, seat)))
        table.submit_move(
            game_id=game.pk,
            user=people[seat],
            choice=always(action),
            seen_version=game.version,
        )
        if until is not None and until(state, seat, action, state_of(game)):
            return seat


def test_the_export_is_the_game_played_without_the_move_taken_back(alice, bob, carol, dave):
    people = [alice, bob, carol, dave]
    game = start_table(people, kind="hearts", seed="undo", rated="no", options={"target": 50})
    rules = registry.kind("hearts").rules
    rng = random.Random(7)
    seat = play_on(game, people, rng, until=rules.undoable)
    assert seat is not None
    ask(game, people[seat])
    for other in people:
        if other != people[seat]:
            undo.answer(game_id=game.pk, user=other, accept=True)
    play_on(game, people, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    kept = GameAction.objects.filter(game=game, undone=False, undoes__isnull=True)
    assert kept.count() == game.action_count - 2
    twin = start_table(people, kind="hearts", seed="undo", rated="no", options={"target": 50})
    for mover, move in kept.values_list("seat", "move"):
        twin.refresh_from_db()
        table.submit_move(
            game_id=twin.pk,
            user=people[mover],
            choice=always(rules.action_from_json(move)),
            seen_version=twin.version,
        )
    twin.refresh_from_db()
    assert twin.status == Game.Status.FINISHED
    mine, theirs = export(game), export(twin)
    assert {**mine, "id": ""} == {**theirs, "id": ""}


# --- the views ---------------------------------------------------------------------------------


def post_undo(client, game, data):
    return client.post(reverse("undo", kwargs={"game_id": game.pk}), data, headers=HX)


def test_the_table_offers_it_asks_it_and_answers_it(friends, alice, bob, carol):
    bid(friends, bob, 15)
    bobs, carols = logged_in_client(bob), logged_in_client(carol)
    page = bobs.get(reverse("table", kwargs={"game_id": friends.pk}), headers=HX).content.decode()
    assert 'id="undo-button"' in page
    theirs = carols.get(reverse("table", kwargs={"game_id": friends.pk}), headers=HX)
    assert 'id="undo-button"' not in theirs.content.decode()
    friends.refresh_from_db()
    answer = post_undo(bobs, friends, {"version": friends.version})
    assert answer.status_code == 200
    assert "Waiting for Alice and Carol to answer." in answer.content.decode()
    # The asker sees the time left too, with nothing to answer.
    assert 'id="undo-asked"' in answer.content.decode()
    assert 'class="clock" data-deadline=' in answer.content.decode()
    assert 'id="undo-yes"' not in answer.content.decode()
    page = carols.get(reverse("table", kwargs={"game_id": friends.pk}), headers=HX).content.decode()
    assert "Bob asks to take back their last move. Do you agree?" in page
    assert 'id="undo-yes"' in page and 'id="undo-no"' in page
    # While the question is open, carol has no card or bid to play.
    assert "is-my-turn" not in page
    assert 'class="bid-form"' not in page and 'id="prepass-button"' not in page
    declined = post_undo(carols, friends, {"answer": "no"})
    assert declined.status_code == 200
    assert "You declined: the move stands." in declined.content.decode()  # not her own name
    page = bobs.get(reverse("table", kwargs={"game_id": friends.pk}), headers=HX).content.decode()
    assert "Carol declined: the move stands." in page
    assert 'id="undo-button"' not in page and 'id="undo-asked"' not in page


def test_everybody_reads_whose_move_was_taken_back_until_the_next_move(friends, alice, bob, carol):
    bid(friends, bob, 15)
    bobs, carols = logged_in_client(bob), logged_in_client(carol)
    friends.refresh_from_db()
    post_undo(bobs, friends, {"version": friends.version})
    alices = logged_in_client(alice)
    post_undo(alices, friends, {"answer": "yes"})
    accepted = post_undo(carols, friends, {"answer": "yes"})
    assert accepted.status_code == 200
    assert "Bob took back their move." in accepted.content.decode()
    table = reverse("table", kwargs={"game_id": friends.pk})
    page = bobs.get(table, headers=HX).content.decode()
    assert "You took back your move." in page
    assert 'id="undo-button"' not in page  # an undo is not taken back
    assert "Bob took back their move." in alices.get(table, headers=HX).content.decode()
    bid(friends, bob, 20)
    assert "took back" not in carols.get(table, headers=HX).content.decode()


@pytest.mark.parametrize(
    ("who", "data", "status"),
    [
        ("bob", {}, 400),  # no version
        ("bob", {"version": "１"}, 400),
        ("bob", {"version": "0"}, 409),
        ("carol", {"answer": "maybe"}, 400),
        ("carol", {"answer": "yes"}, 422),  # nothing asked
        ("dave", {"answer": "yes"}, 404),  # a private game he is not in
    ],
)
def test_bad_requests_are_answered_with_4xx_and_change_nothing(
    friends, bob, carol, dave, who, data, status
):
    bid(friends, bob, 15)
    friends.refresh_from_db()
    version, count = friends.version, friends.action_count
    user = {"bob": bob, "carol": carol, "dave": dave}[who]
    assert post_undo(logged_in_client(user), friends, data).status_code == status
    friends.refresh_from_db()
    assert (friends.version, friends.action_count) == (version, count)


def test_get_is_not_allowed(friends, bob):
    response = logged_in_client(bob).get(reverse("undo", kwargs={"game_id": friends.pk}))
    assert response.status_code == 405
