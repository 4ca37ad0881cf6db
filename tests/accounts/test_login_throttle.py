"""Failed sign-ins are throttled per account and per address (ACCOUNT_RATE_LIMITS
"login_failed" in hundredten/settings.py).

- An account takes 5 failures in 5 minutes, then refuses even its right password.
- An address takes 30 failures a minute, across accounts (guessing one password for many
  accounts). Failures at an account already throttled are not counted against the
  address, so an attack on one account does not lock out the others on that address.
- An address takes 60 sign-in posts a minute, right or wrong (a flood guard).
- Behind a proxy (BEHIND_PROXY=1) the address is the client's, as the proxy appended it
  to X-Forwarded-For, not the proxy's; `make serve` then runs daphne with --proxy-headers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD, ROOT

pytestmark = pytest.mark.django_db

PER_ACCOUNT = 5
PER_ADDRESS = 30
FLOOD = 60  # sign-in posts a minute from one address, right or wrong
THROTTLED = "Too many failed login attempts"
PROXY = "10.0.0.2"


@pytest.fixture(autouse=True)
def _quick_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(client: Client, login: str, password: str = PASSWORD, **meta: Any):
    return client.post(reverse("account_login"), {"login": login, "password": password}, **meta)


def test_the_limits_are_the_documented_ones() -> None:
    limits = django_settings.ACCOUNT_RATE_LIMITS
    assert limits["login_failed"] == f"{PER_ACCOUNT}/5m/key,{PER_ADDRESS}/m/ip"
    assert limits["login"] == f"{FLOOD}/m/ip"


def test_many_failures_at_one_account_do_not_stop_another_signing_in_from_that_address(
    alice, bob
) -> None:
    attacker = Client()
    for _ in range(PER_ADDRESS + 10):
        sign_in(attacker, "alice", "wrong")
    assert THROTTLED in sign_in(attacker, "alice").content.decode()  # alice stays shut
    assert sign_in(Client(), "bob").status_code == 302  # bob, same address, gets in


def test_guessing_across_many_accounts_from_one_address_is_stopped(alice, bob) -> None:
    sprayer = Client()
    for n in range(PER_ADDRESS):
        assert "not correct" in sign_in(sprayer, f"someone{n}", "wrong").content.decode()
    assert THROTTLED in sign_in(sprayer, "alice", "wrong").content.decode()
    # Another address is not affected.
    assert sign_in(Client(), "bob", REMOTE_ADDR="192.0.2.44").status_code == 302


def test_behind_a_proxy_two_clients_are_counted_apart(settings, alice, bob) -> None:
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1  # what BEHIND_PROXY=1 sets (test below)
    first = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    second = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.6"}
    sprayer = Client()
    for n in range(PER_ADDRESS):
        sign_in(sprayer, f"someone{n}", "wrong", **first)
    assert THROTTLED in sign_in(sprayer, "carol", "wrong", **first).content.decode()
    # A client cannot escape by writing an address of its own in front of the proxy's.
    spoofed = {**first, "HTTP_X_FORWARDED_FOR": "198.51.100.9, 203.0.113.5"}
    assert THROTTLED in sign_in(sprayer, "dave", "wrong", **spoofed).content.decode()
    # The other client behind the same proxy is not throttled.
    assert "not correct" in sign_in(Client(), "erin", "wrong", **second).content.decode()
    assert sign_in(Client(), "bob", **second).status_code == 302


def _client_ip(**env: str) -> str:
    """The address the throttle counts for a request from the proxy on behalf of
    203.0.113.5, in a process started with `env`."""
    code = (
        "from django.test import RequestFactory;"
        "from allauth.account.adapter import get_adapter;"
        f"r = RequestFactory().post('/', REMOTE_ADDR='{PROXY}',"
        " HTTP_X_FORWARDED_FOR='198.51.100.9, 203.0.113.5');"
        "print(get_adapter().get_client_ip(r))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"BEHIND_PROXY", "PYTEST_VERSION"}}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**clean, "DEBUG": "1", **env},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()[-1]


def test_behind_proxy_counts_the_address_the_proxy_appended() -> None:
    assert _client_ip(BEHIND_PROXY="1") == "203.0.113.5"
    assert _client_ip() == PROXY  # no proxy trusted: X-Forwarded-For is anybody's to write


def _serve_command(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "BEHIND_PROXY"}
    result = subprocess.run(
        ["make", "-n", "serve"], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if "daphne" in line)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_serve_takes_the_client_address_from_the_proxy_only_behind_one() -> None:
    assert "--proxy-headers" in _serve_command(BEHIND_PROXY="1")
    assert "--proxy-headers" not in _serve_command()
    assert "--proxy-headers" not in _serve_command(BEHIND_PROXY="0")
