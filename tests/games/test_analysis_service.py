"""The analysis of a finished game as a service (games/services/analysis.py): asked for by
whoever may see the replay, refused while the game is played, queued once per game, within
a quota and a bounded queue, run by the deadline sweep, stored with the grading's version
and run again when that changes, never grading a bot's move for a covered seat against the
player, and shown on the replay: the marks, the decision at a marked step, each seat's
summary, and no card the replay of the finished game does not show."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.http import Http404
from django.urls import reverse

from games.clocks import deadlines
from games.kinds import analysis as core
from games.models import Game, GameAction, GameAnalysis
from games.services import analysis, seats
from tests.conftest import logged_in_client
from tests.games.conftest import play_to_the_end, start_table

pytestmark = pytest.mark.django_db
CARD = re.compile(r'data-card="([^"]+)"')


@pytest.fixture(autouse=True)
def _tiny_budget(settings):
    settings.ANALYSIS_BUDGET = 1  # each game's fewest samples: fast, and still a fixed budget


def finished_game(alice, bob, *, moves=8, public=False):
    """alice and bob make `moves` random moves, then hand their seats to bots, which finish."""
    game = start_table([alice, bob], target=30, public=public)
    play_to_the_end(game, [alice, bob], moves=moves, seed=4)
    seats.automate(game_id=game.pk, user=alice)
    seats.automate(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def result_of(game) -> Any:
    return GameAnalysis.objects.get(game=game).result


def run_queue():
    """What a server's sweep does: the queued analyses, run here (no worker pool in tests)."""
    while analysis.run_next():
        pass


def replay_url(game, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("replay", args=[game.pk]) + (f"?{query}" if query else "")


def test_a_game_in_progress_is_refused_and_nothing_stored(alice, bob):
    game = start_table([alice, bob], target=30)
    with pytest.raises(analysis.AnalysisRefused, match="Only a finished game"):
        analysis.request(game_id=game.pk, user=alice)
    answer = logged_in_client(alice).post(reverse("analysis-request", args=[game.pk]))
    assert answer.status_code == 409
    assert "Only a finished game can be analysed" in answer.content.decode()
    assert not GameAnalysis.objects.exists()


def test_a_private_game_is_analysed_for_its_players_only(alice, bob, dave):
    game = finished_game(alice, bob)
    with pytest.raises(Http404):
        analysis.request(game_id=game.pk, user=dave)
    assert (
        logged_in_client(dave).post(reverse("analysis-request", args=[game.pk])).status_code == 404
    )
    assert (
        logged_in_client(dave).get(reverse("analysis-progress", args=[game.pk])).status_code == 404
    )
    assert not GameAnalysis.objects.exists()
    answer = logged_in_client(bob).post(reverse("analysis-request", args=[game.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse("replay", args=[game.pk])
    assert GameAnalysis.objects.get().requested_by == bob


def test_anyone_may_ask_for_a_public_game(alice, bob, dave):
    game = finished_game(alice, bob, public=True)
    row = analysis.request(game_id=game.pk, user=dave)
    assert row.status == GameAnalysis.Status.QUEUED


def test_asked_twice_it_is_computed_once(alice, bob, monkeypatch):
    game = finished_game(alice, bob)
    first = analysis.request(game_id=game.pk, user=alice)
    second = analysis.request(game_id=game.pk, user=bob)
    assert first.pk == second.pk and GameAnalysis.objects.count() == 1
    runs = []
    real = analysis.run

    def counted(*args):
        runs.append(args)
        real(*args)

    monkeypatch.setattr(analysis, "run", counted)
    run_queue()
    assert analysis.request(game_id=game.pk, user=bob).status == GameAnalysis.Status.DONE
    run_queue()
    assert len(runs) == 1


def test_a_quota_per_person_and_a_bounded_queue(alice, bob, carol, settings):
    settings.ANALYSIS_PER_HOUR = 2
    games = [finished_game(alice, bob, moves=0) for _ in range(3)]
    analysis.request(game_id=games[0].pk, user=alice)
    analysis.request(game_id=games[1].pk, user=alice)
    analysis.request(game_id=games[1].pk, user=alice)  # the same game again: not counted
    with pytest.raises(analysis.TooManyAnalyses, match="in the last hour") as refused:
        analysis.request(game_id=games[2].pk, user=alice)
    assert refused.value.status == 429
    settings.ANALYSIS_QUEUE = 2  # two wait already
    with pytest.raises(analysis.TooManyAnalyses, match="Too many games"):
        analysis.request(game_id=games[2].pk, user=bob)
    assert GameAnalysis.objects.count() == 2


def test_the_sweep_runs_it_and_stores_the_result_with_its_version(alice, bob):
    game = finished_game(alice, bob)
    analysis.request(game_id=game.pk, user=alice)
    deadlines.tick()
    row = GameAnalysis.objects.get()
    assert row.status == GameAnalysis.Status.DONE and row.version == core.ANALYSIS_VERSION
    assert row.result is not None
    effective = GameAction.objects.filter(game=game, undone=False, undoes__isnull=True)
    assert row.done == row.total == effective.count()
    assert result_of(game)["unit"] == "% chance to win" and len(result_of(game)["seats"]) == 2
    assert result_of(game)["decisions"], "the people's own moves are graded"
    assert row.finished_at is not None and row.claimed_until is None


def test_a_new_version_of_the_grading_computes_it_again(alice, bob, monkeypatch):
    game = finished_game(alice, bob)
    analysis.request(game_id=game.pk, user=alice)
    run_queue()
    monkeypatch.setattr(core, "ANALYSIS_VERSION", "2-test")
    html = logged_in_client(alice).get(replay_url(game)).content.decode()
    assert "older version of the search" in html and "Analyse this game" in html
    assert analysis.request(game_id=game.pk, user=alice).status == GameAnalysis.Status.QUEUED
    run_queue()
    assert GameAnalysis.objects.get().version == "2-test"


def test_a_lapsed_claim_is_taken_again_after_a_restart(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    game = finished_game(alice, bob)
    analysis.request(game_id=game.pk, user=alice)
    # A process claimed it and stopped (a restart): its claim lapses, another starts over.
    GameAnalysis.objects.update(
        status=GameAnalysis.Status.RUNNING, attempt=1, done=3, claimed_until=timezone.now()
    )
    assert not analysis.run_next(timezone.now() - timedelta(seconds=1))  # still claimed
    assert analysis.run_next(timezone.now() + timedelta(seconds=1))
    row = GameAnalysis.objects.get()
    assert row.status == GameAnalysis.Status.DONE and row.attempt == 2


def test_a_bots_moves_for_a_covered_seat_are_not_graded(alice, bob):
    game = finished_game(alice, bob, moves=10)
    analysis.request(game_id=game.pk, user=alice)
    run_queue()
    graded = {d["step"] for d in result_of(game)["decisions"]}
    by_people = set(GameAction.objects.filter(game=game, auto=False).values_list("seq", flat=True))
    assert graded and graded <= by_people
    # A bot's own seat is graded: it is nobody's decision but the bot's.
    game = start_table([alice], bots=1, target=30, seed="with-a-bot")
    seats.automate(game_id=game.pk, user=alice)
    game.refresh_from_db()
    analysis.request(game_id=game.pk, user=alice)
    run_queue()
    decisions = result_of(game)["decisions"]
    assert decisions and {d["seat"] for d in decisions} == {1}


def test_undo_rows_and_undone_moves_are_left_out(alice, bob):
    game = finished_game(alice, bob)
    recorded = analysis.recorded(game)
    GameAction.objects.filter(game=game, seq=2).update(undone=True)
    assert analysis.recorded(game).seqs == tuple(s for s in recorded.seqs if s != 2)


def test_the_game_over_box_links_to_it(alice, bob):
    game = finished_game(alice, bob)
    html = logged_in_client(alice).get(reverse("table", args=[game.pk])).content.decode()
    assert f'href="{reverse("replay", args=[game.pk])}#analysis">Analyse this game</a>' in html


def test_the_replay_offers_it_then_shows_the_progress_then_the_marks(alice, bob):
    game = finished_game(alice, bob, moves=12)
    client = logged_in_client(alice)
    page = client.get(replay_url(game)).content.decode()
    assert "Analyse this game" in page and reverse("analysis-request", args=[game.pk]) in page
    client.post(reverse("analysis-request", args=[game.pk]))
    page = client.get(replay_url(game)).content.decode()
    assert "<progress" in page and 'hx-trigger="every 2s"' in page
    polled = client.get(reverse("analysis-progress", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert polled.status_code == 200 and "<progress" in polled.content.decode()
    run_queue()
    polled = client.get(reverse("analysis-progress", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert polled["HX-Refresh"] == "true"  # done: the page reloads with the marks
    result = result_of(game)
    page = client.get(replay_url(game)).content.decode()
    assert (
        "Each player&#x27;s moves, graded by the search" in page or "graded by the search" in page
    )
    assert "alice" in page and "Accuracy" in page
    marked = [d for d in result["decisions"] if d["mark"]]
    assert marked, "random moves: the search marks some"
    first = marked[0]
    link = replay_url(game, at=first["step"], seat=first["seat"]).replace("&", "&amp;")
    assert link in page
    at = client.get(replay_url(game, at=first["step"], seat=first["seat"])).content.decode()
    assert "played: " in at and "The search prefers: " in at  # a marked move lost something
    assert "chance to win against" in at and "percentage points lost." in at


def test_the_analysis_shows_no_card_the_replay_does_not(alice, bob, settings):
    """Once the game is over the replay shows every hand from its seat; the analysis part
    names the move played and the search's choice, both in the deciding seat's hand then.
    Its cards are the replay's at that step: the page without it has the same cards, and
    every card its text names is a card the replay from that seat shows."""
    game = finished_game(alice, bob, moves=12)
    client = logged_in_client(alice)
    before = {
        d: set(CARD.findall(client.get(replay_url(game, at=d, seat=s)).content.decode()))
        for d, s in ((5, 0), (6, 1))
    }
    analysis.request(game_id=game.pk, user=alice)
    run_queue()
    for d in result_of(game)["decisions"]:
        html = client.get(replay_url(game, at=d["step"], seat=d["seat"])).content.decode()
        start = html.index('id="analysis"')
        part = html[start : html.index("</section>", start)]
        assert not CARD.findall(part)  # the part draws no card of its own
        # The card played or preferred was in the deciding seat's hand before the move.
        shown = set(
            CARD.findall(
                client.get(replay_url(game, at=d["step"] - 1, seat=d["seat"])).content.decode()
            )
        )
        for action in (d["played"], d["best"]):
            card = action.get("card")
            if card:
                assert card in shown, (d, card)
    for d, cards in before.items():
        seat = 0 if d == 5 else 1
        after = set(CARD.findall(client.get(replay_url(game, at=d, seat=seat)).content.decode()))
        assert after == cards


def test_an_abandoned_game_is_refused_with_its_own_reason(alice, bob):
    """Not "the search never helps during play": an abandoned game is not being played."""
    game = start_table([alice, bob], target=30)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED)
    with pytest.raises(analysis.AnalysisRefused, match="An abandoned game is not analysed."):
        analysis.request(game_id=game.pk, user=alice)
    answer = logged_in_client(alice).post(reverse("analysis-request", args=[game.pk]))
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "An abandoned game is not analysed." in html
    assert "during play" not in html
    assert not GameAnalysis.objects.exists()


def test_a_running_analysis_says_it_is_starting_until_its_total_is_known(alice, bob):
    """Claimed but its log not yet read (total 0): no "move 0 of 0" and an empty bar."""
    game = finished_game(alice, bob)
    analysis.request(game_id=game.pk, user=alice)
    GameAnalysis.objects.update(status=GameAnalysis.Status.RUNNING, done=0, total=0)
    client = logged_in_client(alice)
    polled = client.get(reverse("analysis-progress", args=[game.pk]), HTTP_HX_REQUEST="true")
    for html in (polled.content.decode(), client.get(replay_url(game)).content.decode()):
        assert "Starting the analysis…" in html
        assert "of 0" not in html and 'max="1"' not in html
    GameAnalysis.objects.update(done=8, total=20)
    polled = client.get(reverse("analysis-progress", args=[game.pk]), HTTP_HX_REQUEST="true")
    html = polled.content.decode()
    assert "Analysing: move 8 of 20…" in html and "Starting" not in html


def analysed(alice, bob):
    game = finished_game(alice, bob, moves=12)
    analysis.request(game_id=game.pk, user=alice)
    run_queue()
    return game


def test_the_values_and_the_loss_shown_add_up(alice, bob):
    """Each figure rounded on its own gave "47.6 against 52.2: 4.5 lost"; the loss shown is
    the difference of the two values shown."""
    game = analysed(alice, bob)
    row = GameAnalysis.objects.get()
    assert row.result is not None
    decision = next(d for d in row.result["decisions"] if d["played"] != d["best"])
    decision.update(value_played=47.64, value_best=52.16, loss=4.52)
    row.save(update_fields=["result"])
    html = (
        logged_in_client(alice)
        .get(replay_url(game, at=decision["step"], seat=decision["seat"]))
        .content.decode()
    )
    assert (
        "Worth 47.6% chance to win against 52.2% chance to win: 4.6 percentage points lost." in html
    )


def test_a_seat_with_nothing_graded_shows_no_figures(alice):
    """A seat a bot covered throughout: "–" for its accuracy and its mistakes per hand, not
    "–" beside "0.00"."""
    game = start_table([alice], bots=1, target=30, seed="with-a-bot")
    seats.automate(game_id=game.pk, user=alice)
    analysis.request(game_id=game.pk, user=alice)
    run_queue()
    assert next(s for s in result_of(game)["seats"] if s["seat"] == 0)["decisions"] == 0
    html = logged_in_client(alice).get(replay_url(game)).content.decode()
    rows = re.findall(r'<tr><th scope="row">(.*?)</tr>', html, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in rows]
    assert len(cells) == 2
    assert cells[0][0] == "–" and cells[0][1] == "0" and cells[0][-1] == "–", cells
    assert cells[1][0] != "–" and cells[1][-1] != "–", cells  # the bot's seat was graded
