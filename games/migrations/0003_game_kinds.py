# The platform of many games: every game names its kind and options, whose turn it is moves
# to the memberships (several seats may act at once), and the winner becomes an outcome
# (scores and winners: several may share a win). Existing games are Hundred and Ten.

from django.db import migrations, models
import django.core.validators


# What this migration needs of Hundred and Ten's rules, frozen as they stood (rules sections
# 10-12): which card wins a trick and what a round scores. A migration must not change when
# the live engine does, so it reads the stored JSON (snapshots and moves) itself.
_SUITS = "CDHS"
_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_TRICKS_PER_ROUND = 5
_MOON = 60


def _card(text):
    """(suit index, rank index) of "10H"; the joker "JK" is (None, None)."""
    if text == "JK":
        return None, None
    return _SUITS.index(text[-1]), _RANKS.index(text[:-1])


def _trump_rank(text, trump):
    """How high a card ranks as a trump (appendix A), or -1 when it is none."""
    suit, rank = _card(text)
    if suit is None:
        return 12  # the joker, below the five and jack of trumps
    if text == "AH":
        return 11
    if suit != trump:
        return -1
    special = {"5": 14, "J": 13, "A": 10, "K": 9, "Q": 8}
    if _RANKS[rank] in special:
        return special[_RANKS[rank]]
    if trump in (1, 2):  # red trumps: the two is lowest
        return rank if rank < 3 else rank - 1
    return 8 - rank - (1 if rank < 3 else 0)  # black trumps: the ten is lowest


def _plain_rank(text):
    """Rank within the led suit when no trump is played: black number cards run backwards."""
    suit, rank = _card(text)
    if rank >= 9 or suit in (1, 2):
        return rank
    return 8 - rank


def _trick_winner(plays, trump):
    """(seat, card) of the play that wins a trick: the highest trump, else the led suit's best."""
    best = plays[0]
    for play in plays[1:]:
        high, new = _trump_rank(best[1], trump), _trump_rank(play[1], trump)
        follows = high < 0 and _card(play[1])[0] == _card(best[1])[0]
        if new > high or (follows and _plain_rank(play[1]) > _plain_rank(best[1])):
            best = play
    return best


def _round_scores(tricks, trump, bidder, bid, players):
    """What each seat scores for a round of (winner, winning card) tricks (section 12)."""
    points = [5] * len(tricks)
    ranks = [_trump_rank(card, trump) for _, card in tricks]
    if max(ranks) >= 0:
        points[ranks.index(max(ranks))] = 10  # the trick won by the highest trump
    scores = [0] * players
    taken = sum(p for (winner, _), p in zip(tricks, points, strict=True) if winner == bidder)
    if bid == _MOON:
        if all(winner == bidder for winner, _ in tricks):
            scores[bidder] = _MOON
            return scores
    elif taken >= bid:
        for (winner, _), p in zip(tricks, points, strict=True):
            scores[winner] += p
        return scores
    scores[bidder] -= bid
    for (winner, _), p in zip(tricks, points, strict=True):
        if winner != bidder:
            scores[winner] += p
    return scores


def _scores_after(scores, moves):
    """`scores` at the start of a round plus every round scored by `moves` (JSON, in order)."""
    scores = [int(score) for score in scores]
    bid, bidder, trump, trick, tricks = 0, None, None, [], []
    for move in moves:
        if move["type"] == "bid":
            bid = max(bid, move["amount"])
        elif move["type"] == "select_trump":
            bidder, trump = move["seat"], _SUITS.index(move["suit"])
        elif move["type"] == "play":
            trick.append((move["seat"], move["card"]))
            if len(trick) == len(scores):
                tricks.append(_trick_winner(trick, trump))
                trick = []
            if len(tricks) == _TRICKS_PER_ROUND:
                won = _round_scores(tricks, trump, bidder, bid, len(scores))
                scores = [a + b for a, b in zip(scores, won, strict=True)]
                bid, bidder, trump, tricks = 0, None, None, []
    return scores


def _final_scores(Snapshot, GameAction, game):
    """The scores of a finished Hundred and Ten game: its latest snapshot's (stored at the
    start of a round) plus every round scored in the moves after it."""
    snapshot = Snapshot.objects.filter(game=game).order_by("-seq").first()
    if snapshot is None:
        return None
    moves = GameAction.objects.filter(game=game, seq__gt=snapshot.seq).order_by("seq")
    return _scores_after(snapshot.state["scores"], moves.values_list("move", flat=True))


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Membership = apps.get_model("games", "Membership")
    Snapshot = apps.get_model("games", "Snapshot")
    GameAction = apps.get_model("games", "GameAction")
    for game in Game.objects.exclude(status="waiting"):
        if game.status == "active" and game.active_seat is not None:
            Membership.objects.filter(game=game, seat=game.active_seat).update(must_act=True)
        if game.status == "finished":
            scores = _final_scores(Snapshot, GameAction, game)
            winners = [game.winner_seat] if game.winner_seat is not None else []
            game.outcome = {"scores": scores, "winners": winners, "winning_team": None}
            game.save(update_fields=["outcome"])


def backwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Membership = apps.get_model("games", "Membership")
    for game in Game.objects.exclude(status="waiting"):
        acting = Membership.objects.filter(game=game, must_act=True).order_by("seat").first()
        game.active_seat = acting.seat if acting is not None else None
        winners = (game.outcome or {}).get("winners") or [None]
        game.winner_seat = winners[0]
        game.save(update_fields=["active_seat", "winner_seat"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_game_action_count"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(default="hundred-and-ten", max_length=32),
        ),
        migrations.AddField(
            model_name="game",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="game",
            name="outcome",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="membership",
            name="must_act",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="game", name="active_seat"),
        migrations.RemoveField(model_name="game", name="winner_seat"),
        migrations.RemoveConstraint(model_name="game", name="game_max_players_2_to_4"),
        migrations.AlterField(
            model_name="game",
            name="max_players",
            field=models.PositiveSmallIntegerField(
                default=4,
                validators=[
                    django.core.validators.MinValueValidator(2),
                    django.core.validators.MaxValueValidator(10),
                ],
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(("max_players__gte", 2), ("max_players__lte", 10)),
                name="game_max_players_2_to_10",
            ),
        ),
    ]
