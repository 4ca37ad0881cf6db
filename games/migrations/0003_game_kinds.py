# The platform of many games: every game names its kind and options, whose turn it is moves
# to the memberships (several seats may act at once), and the winner becomes an outcome
# (scores and winners: several may share a win). Existing games are Hundred and Ten.

from django.db import migrations, models
import django.core.validators


def _final_state(Snapshot, GameAction, game):
    """The last Hundred and Ten state of `game`: its latest snapshot plus the actions after.
    The engine is pure Python and reads its own versioned snapshot format."""
    from games.kinds.hundred_and_ten.engine import apply, move_from_json, state_from_json

    snapshot = Snapshot.objects.filter(game=game).order_by("-seq").first()
    if snapshot is None:
        return None
    state = state_from_json(snapshot.state)
    moves = GameAction.objects.filter(game=game, seq__gt=snapshot.seq).order_by("seq")
    for data in moves.values_list("move", flat=True):
        state = apply(state, move_from_json(data))
    return state


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Membership = apps.get_model("games", "Membership")
    Snapshot = apps.get_model("games", "Snapshot")
    GameAction = apps.get_model("games", "GameAction")
    for game in Game.objects.exclude(status="waiting"):
        if game.status == "active" and game.active_seat is not None:
            Membership.objects.filter(game=game, seat=game.active_seat).update(must_act=True)
        if game.status == "finished":
            state = _final_state(Snapshot, GameAction, game)
            scores = list(state.scores) if state is not None else None
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
