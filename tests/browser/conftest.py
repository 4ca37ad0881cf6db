"""Every test in this folder is a browser test (marker `browser`): written once here, not in
each module, so that a new module cannot forget it (the browser tests run last, in a pytest
run of their own, with their own time limit: see tests/conftest.py and tests/timeouts.py).
Under pytest-xdist each worker starts its own daphne on its own database (the session's
fixtures below): two workers never share a server.

A failed browser test's report ends with the e2e daphne's log since the test began (the
posts, the sockets closing, every error status and any traceback; the pages and partials
loaded with no trouble left out, so that what matters fits in a CI log's excerpt): a failure
on a CI machine is then read from the log, not guessed at."""

from __future__ import annotations

import re
from collections.abc import Generator
from pathlib import Path

import pytest

LOG_MARK = pytest.StashKey[int]()
LOG_LINES = 120


def pytest_itemcollected(item: pytest.Item) -> None:
    item.add_marker(pytest.mark.browser)


# The access lines a failure is never read from: static files, a socket connecting, and a
# page or partial loaded with no trouble (a waiting room polls its invite links). What stays
# (posts, sockets closing, every 4xx and 5xx, tracebacks) fits in a CI log's excerpt.
_ROUTINE = re.compile(r'"(GET [^"]*" [23]\d\d|WSCONNECTING |WSCONNECT )')


def telling(line: str) -> bool:
    """Whether a daphne log line goes into a failed test's report."""
    return _ROUTINE.search(line) is None


def _daphne_log(item: pytest.Item) -> Path | None:
    workdir = getattr(item, "funcargs", {}).get("e2e_workdir")
    return Path(workdir) / "daphne.log" if workdir else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    log = _daphne_log(item)
    if log is not None and log.exists():
        item.stash[LOG_MARK] = log.stat().st_size
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    log = _daphne_log(item)
    if report.when == "call" and report.failed and log is not None and log.exists():
        with log.open("rb") as out:
            out.seek(item.stash.get(LOG_MARK, 0))
            lines = out.read().decode("utf-8", "replace").splitlines()
        lines = [line for line in lines if telling(line)][-LOG_LINES:]
        report.sections.append(("daphne log during the test", "\n".join(lines)))
    return report
