"""Small typed readers for settings that come from the environment."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}.") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


POOL_SIZE = 20  # connections per process at most; PostgreSQL allows 100 by default


def database_from_url(url: str) -> dict[str, Any]:
    """Turn `postgres://user:pass@host:port/name?opt=v` into a Django DATABASES entry.

    Only PostgreSQL is supported for DATABASE_URL: SQLite is the embedded default and
    needs no URL.
    """
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// or postgresql://, not {parts.scheme}://."
        )
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured("DATABASE_URL must name a database, e.g. .../hundredten.")
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    # A pool per process (psycopg_pool), as Django advises under ASGI: taken at a request's
    # first query and given back at its end, so the kept request threads (up to 32 idle,
    # more in a burst: hundredten.handlers) hold none while idle and a burst waits for a
    # connection instead of opening more than POOL_SIZE; the render threads keep one each.
    options["pool"] = {"min_size": 2, "max_size": POOL_SIZE, "timeout": 10}
    # Prepared statements: Django turns psycopg's off (for poolers such as PgBouncer in
    # transaction mode; ours is psycopg's own pool, whose connections keep their sessions)
    # and takes `prepare_threshold` from OPTIONS; with server-side parameter binding, psycopg
    # prepares a statement once a connection has run it 5 times, and PostgreSQL parses and
    # plans it once per connection instead of on every move.
    options.setdefault("server_side_binding", True)
    options.setdefault("prepare_threshold", 5)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": options,
        "CONN_HEALTH_CHECKS": True,  # the pool checks a connection before handing it out
        # Explicit, so live-server helpers never build "test_test_<name>".
        "TEST": {"NAME": f"test_{name}"},
    }
