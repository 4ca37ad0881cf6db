"""Each line is logged once: `make run` (DEBUG on, daphne's runserver, which logs every request
on the "django.channels.server" logger) and a production process (DEBUG off) alike.

In a fresh interpreter, with the settings' LOGGING applied by `django.setup()` as a server
applies it: a request line and a 404 warning are written, and each must appear once."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

EMIT = """
import logging, django
django.setup()
logging.getLogger("django.channels.server").info("HTTP GET /lobby/ 200 [0.01, 127.0.0.1:5]")
logging.getLogger("django.request").warning("Not Found: /nowhere/")
logging.getLogger("games.clocks.deadlines").warning("a sweep failed")
"""


def logged(debug: str) -> str:
    env = {
        **os.environ,
        "DEBUG": debug,
        "SECRET_KEY": "logging-test-secret-key-" + "x" * 40,
        "DJANGO_SETTINGS_MODULE": "hundredten.settings",
    }
    env.pop("LOG_LEVEL", None)
    done = subprocess.run(
        [sys.executable, "-c", EMIT], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout + done.stderr


def test_make_run_logs_each_request_once() -> None:
    output = logged("1")
    assert output.count("HTTP GET /lobby/ 200") == 1, output
    assert output.count("Not Found: /nowhere/") == 1, output
    assert output.count("a sweep failed") == 1, output


def test_a_production_process_logs_each_warning_once() -> None:
    output = logged("0")
    assert output.count("Not Found: /nowhere/") == 1, output
    assert output.count("a sweep failed") == 1, output
