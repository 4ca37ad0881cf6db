"""Per-test time limits (pytest-timeout): a hung test fails with its stack instead of holding
the run until CI's own limit. Every test gets pyproject's `timeout` (60 s); a browser test
(marker `browser`) gets `browser_timeout` (240 s): it starts pages, sockets and whole games,
beside another browser test (`make pytest` runs them in two processes, which makes each up
to twice as long: bench/results/suite.md).

A test's own `@pytest.mark.timeout(...)` wins, and so does `--timeout` on the command line
(say `--timeout=0` to debug a browser test at leisure). CI machines have been up to three
times slower than a developer's: a test should need a third of its limit here.

A plugin (tests/conftest.py lists it in `pytest_plugins`), so that a test can load it alone
into an inner pytest run (tests/test_timeouts.py)."""

from __future__ import annotations

import pytest

BROWSER_TIMEOUT = 240
# The hidden-information tests (tests/games/test_hidden_information*.py) are split into one
# game (or two) a test, but the longest pieces still exceeded 60 s on a loaded machine: their
# own limit, until they are measured on a quiet one (or split by hand). So do the browser
# tests that play a whole game (58-120 s and more on a busy machine).
HEAVY_TIMEOUT = 300
# Tests that start, kill and restart real server processes (daphne, nginx) are end to end:
# migrating a fresh site and starting two daphnes took 60 s of setup on a busy machine, and CI
# has been three times slower than this one.
SERVER_TIMEOUT = HEAVY_TIMEOUT


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "browser_timeout",
        "seconds each browser test may take (pytest-timeout's `timeout` is everyone else's)",
        default=str(BROWSER_TIMEOUT),
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("timeout", None) is not None:
        return  # the command line's limit is everybody's
    seconds = float(config.getini("browser_timeout"))
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(seconds))
