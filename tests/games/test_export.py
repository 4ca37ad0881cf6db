"""Exporting a finished game as its game's conformance trace (games/views/history.py).

Whole games are played by bots at the service level (the human's seat handed to a bot with
`seats.automate`), downloaded through the view, and replayed by `manage.py conformance`,
which is strict: every step must match our engine. A tampered export fails that replay.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse

from games.models import Game, GameAction, Membership
from games.services import history, seats, table
from tests.conftest import logged_in_client
from tests.games.conftest import seat_game, start_table

# (kind, seats, options, bot levels by bot seat, cycled): several seat counts and every
# option of each game; random bots where a game has them, for odder play than the naive
# bot's (Hundred and Ten's random bot makes games of thousands of moves: naive only).
GAMES = [
    ("hundred-and-ten", 2, {}, ["naive"]),
    ("hundred-and-ten", 3, {}, ["naive"]),
    ("hundred-and-ten", 4, {}, ["naive"]),
    ("hearts", 4, {"target": 50}, ["naive", "random"]),
    ("hearts", 4, {}, ["naive"]),
    ("one-hundred-and-four", 2, {}, ["heuristic"]),
    ("one-hundred-and-four", 5, {}, ["naive", "random", "heuristic"]),
    ("one-hundred-and-four", 10, {}, ["random"]),
    ("one-hundred-and-four", 4, {"match_to": 66}, ["naive", "heuristic"]),
    ("fifty-six", 4, {"tables_per_team": 1}, ["naive", "random"]),
    ("fifty-six", 6, {"tables_per_team": 1}, ["naive"]),
    ("fifty-six", 4, {"tables_per_team": 3}, ["naive"]),
]


def url(game):
    return reverse("export", kwargs={"game_id": game.pk})


def finished_game(user, kind, count, options, levels, *, public=False):
    """A game of `count` seats played to its end by bots: `user` in seat 0, their seat
    handed to the bot once the game is running."""
    game = seat_game(
        [user], count - 1, kind=kind, options=options, public=public, seed=f"export-{kind}-{count}"
    )
    for i, member in enumerate(Membership.objects.filter(game=game, bot__gt="").order_by("seat")):
        member.bot = levels[i % len(levels)]
        member.save(update_fields=["bot"])
    with transaction.atomic():
        table.begin(game)
    game.refresh_from_db()
    if game.status == Game.Status.ACTIVE:  # the bots wait for the human
        seats.automate(game_id=game.pk, user=user)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def replay(path):
    """Run `manage.py conformance path`: (exit status, output lines)."""
    out = io.StringIO()
    try:
        call_command("conformance", str(path), stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue().splitlines()
    return 0, out.getvalue().splitlines()


@pytest.mark.parametrize(
    ("kind", "count", "options", "levels"),
    GAMES,
    ids=[
        f"{kind}-{count}-{'-'.join(map(str, options.values())) or 'default'}"
        for kind, count, options, _ in GAMES
    ],
)
def test_a_finished_game_exports_as_a_trace_that_replays(
    alice, tmp_path, kind, count, options, levels
):
    game = finished_game(alice, kind, count, options, levels)
    response = logged_in_client(alice).get(url(game))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="{kind}-{game.pk}.json"'
    trace = json.loads(response.content)
    assert trace.get("game", "hundred-and-ten") == kind
    path = tmp_path / f"{kind}-{game.pk}.json"
    path.write_bytes(response.content)
    assert replay(path) == (0, ["1 passed, 0 failed"])


def test_the_export_reads_the_log_in_one_query_and_matches_the_stored_moves(
    alice, django_assert_num_queries
):
    game = finished_game(alice, "one-hundred-and-four", 3, {}, ["naive"])
    with django_assert_num_queries(2):  # the seat count, the log
        trace = history.export(game)
    stored = list(GameAction.objects.filter(game=game).order_by("seq").values_list("seat", "move"))
    steps = [step for turn in trace["turns"] for step in turn["steps"]]
    assert [(step.pop("seat"), step) for step in steps] == stored


def test_a_tampered_export_fails_the_replay(alice, tmp_path):
    game = finished_game(alice, "hearts", 4, {"target": 50}, ["naive"])
    trace = json.loads(logged_in_client(alice).get(url(game)).content)
    # One card changes hands in the first deal: still a whole deck, but seat 0 no longer
    # holds a card the recorded game has it pass or play.
    deal = trace["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(trace))
    status, lines = replay(path)
    assert status == 1
    assert lines[-1] == "0 passed, 1 failed"
    assert lines[0].startswith(f"FAIL {path} step hand 0 ")


def test_a_changed_card_in_a_step_fails_the_replay(alice, tmp_path):
    game = finished_game(alice, "fifty-six", 4, {"tables_per_team": 1}, ["naive"])
    trace = json.loads(logged_in_client(alice).get(url(game)).content)
    step = next(s for s in trace["hands"][0]["steps"] if "play" in s["action"])
    step["legal"] = [a for a in step["legal"] if a != step["action"]] + [{"play": "QS1"}]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(trace))
    status, lines = replay(path)
    assert status == 1
    assert "key legal" in lines[0]


def test_a_running_game_is_not_exported_and_nothing_changes(alice, bob):
    game = start_table([alice, bob], kind="one-hundred-and-four")
    before = (game.version, game.action_count, game.status)
    response = logged_in_client(alice).get(url(game))
    assert response.status_code == 409
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == history.NOT_FINISHED[Game.Status.ACTIVE]
    game.refresh_from_db()
    assert (game.version, game.action_count, game.status) == before


def test_an_abandoned_game_is_not_exported(alice, bob):
    game = start_table([alice, bob], kind="one-hundred-and-four")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED)
    response = logged_in_client(bob).get(url(game))
    assert response.status_code == 409
    assert "abandoned" in response.content.decode()


def test_a_game_to_sixty_cannot_be_written_in_the_hundred_and_ten_format(alice):
    game = finished_game(alice, "hundred-and-ten", 2, {"target": 60}, ["naive"])
    response = logged_in_client(alice).get(url(game))
    assert response.status_code == 422
    assert "110" in response.content.decode()


def test_an_outsider_gets_a_404_for_a_private_game(alice, dave):
    game = finished_game(alice, "one-hundred-and-four", 2, {}, ["naive"])
    assert logged_in_client(dave).get(url(game)).status_code == 404


def test_a_spectator_of_a_public_finished_game_can_export_it(alice, dave, tmp_path):
    game = finished_game(alice, "fifty-six", 4, {"tables_per_team": 1}, ["naive"], public=True)
    response = logged_in_client(dave).get(url(game))
    assert response.status_code == 200
    path = tmp_path / "watched.json"
    path.write_bytes(response.content)
    assert replay(path) == (0, ["1 passed, 0 failed"])


def test_export_needs_a_login_and_a_get(alice, client):
    game = finished_game(alice, "one-hundred-and-four", 2, {}, ["naive"])
    assert client.get(url(game)).status_code == 302
    assert logged_in_client(alice).post(url(game)).status_code == 405
