"""On PostgreSQL, statements a connection runs again and again are prepared once (Django's
server-side binding option, hundredten/env.py): PostgreSQL then parses and plans them once
per connection, not on every move."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game

pytestmark = [pytest.mark.scaleout, pytest.mark.django_db]


def test_a_statement_run_often_is_prepared_once() -> None:
    assert connection.vendor == "postgresql"
    for pk in range(1, 8):  # psycopg prepares after prepare_threshold (5) runs
        list(Game.objects.filter(pk=pk))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('FROM "games_game"' in statement for statement in prepared), prepared
