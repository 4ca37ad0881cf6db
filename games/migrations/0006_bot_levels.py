"""Bots are seated at a level the same for every game (games/kinds/levels.py): easy, medium or
hard. Seats stored under the old per-game names keep the bot they had: "naive" was what is
now the medium bot; One Hundred and Four's "heuristic" bot was its default."""

from django.db import migrations

RENAMED = {"naive": "medium", "heuristic": "medium"}


def rename(apps, schema_editor):
    Membership = apps.get_model("games", "Membership")
    for old, new in RENAMED.items():
        Membership.objects.filter(bot=old).update(bot=new)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_clocks_and_mail"),
    ]

    operations = [migrations.RunPython(rename, migrations.RunPython.noop)]
