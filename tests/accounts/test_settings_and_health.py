from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from hundredten.env import POOL_SIZE, database_from_url, env_bool
from tests.conftest import ROOT


@pytest.mark.django_db
def test_healthz_checks_the_database(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db
def test_healthz_answers_a_head_request_as_health_checks_send_it(client: Client) -> None:
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_healthz_reports_a_broken_database(client: Client, monkeypatch) -> None:
    from django.db.backends.utils import CursorWrapper

    def broken(*args, **kwargs):
        raise RuntimeError("database is down")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


def test_database_url_is_parsed_for_postgresql() -> None:
    db = database_from_url("postgres://ann:p%40ss@db.example:6543/cards?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "ann",
        "p@ss",
        "db.example",
        "6543",
        "cards",
    )
    assert db["OPTIONS"]["sslmode"] == "require"
    assert db["OPTIONS"]["pool"]["max_size"] == POOL_SIZE  # pooled, never persistent
    assert db["OPTIONS"]["server_side_binding"] is True  # statements prepared once
    assert db["OPTIONS"]["prepare_threshold"] == 5
    assert db.get("CONN_MAX_AGE", 0) == 0
    assert db["TEST"]["NAME"] == "test_cards"


@pytest.mark.parametrize("url", ["mysql://x/y", "postgres://host/"])
def test_bad_database_urls_are_refused_clearly(url: str) -> None:
    with pytest.raises(ImproperlyConfigured):
        database_from_url(url)


def test_env_bool_refuses_nonsense(monkeypatch) -> None:
    monkeypatch.setenv("SOME_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured):
        env_bool("SOME_FLAG")


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "PYTEST_VERSION"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
    )


def test_check_deploy_is_clean_with_production_settings(tmp_path) -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY="a-long-random-production-secret-" + "k" * 40,
        ALLOWED_HOSTS="cards.example",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = _manage("check", DEBUG="0", ALLOWED_HOSTS="cards.example")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_a_server_process_tunes_the_garbage_collector_and_the_test_process_does_not() -> None:
    import gc

    from hundredten.asgi import GC_OLD_THRESHOLD, GC_YOUNG_THRESHOLD

    code = "import gc, hundredten.asgi; print(*gc.get_threshold(), gc.get_freeze_count() > 0)"
    result = _manage("shell", "-c", code, DEBUG="1")
    assert result.returncode == 0, result.stderr
    young, middle, old, frozen = result.stdout.splitlines()[-1].split()
    assert (int(young), int(old), frozen) == (GC_YOUNG_THRESHOLD, GC_OLD_THRESHOLD, "True")
    assert int(middle) == gc.get_threshold()[1]  # Python's own
    assert gc.get_threshold()[0] != GC_YOUNG_THRESHOLD  # this process imported asgi too
    assert gc.get_threshold()[2] != GC_OLD_THRESHOLD
