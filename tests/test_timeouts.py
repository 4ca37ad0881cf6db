"""The time limits of tests/timeouts.py, in an inner pytest run with the plugin alone and the
limits shrunk to seconds: a plain test over the general limit fails, a browser test under its
own (longer) limit passes and one over it fails, and a test's own marker wins."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT

pytest_plugins = ["pytester"]

TESTS = """
import time
import pytest

def test_plain_over_the_limit():
    time.sleep(1.5)

@pytest.mark.browser
def test_browser_within_its_limit():
    time.sleep(1.5)

@pytest.mark.browser
def test_browser_over_its_limit():
    time.sleep(6)

@pytest.mark.browser
@pytest.mark.timeout(0.5)
def test_browser_with_its_own_limit():
    time.sleep(1.5)
"""


def test_browser_tests_get_the_longer_limit(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the inner run imports tests.timeouts
    pytester.makeini(
        "[pytest]\nmarkers =\n    browser: real-browser tests\ntimeout = 0.5\nbrowser_timeout = 3\n"
    )
    pytester.makepyfile(test_sleepers=TESTS)
    quiet = ("-p", "no:randomly", "-p", "no:django", "-p", "no:playwright", "-p", "no:asyncio")
    result = pytester.runpytest_subprocess("-p", "tests.timeouts", *quiet, "-rA")
    result.stdout.fnmatch_lines_random(
        [
            "FAILED test_sleepers.py::test_plain_over_the_limit*",
            "PASSED test_sleepers.py::test_browser_within_its_limit",
            "FAILED test_sleepers.py::test_browser_over_its_limit*",
            "FAILED test_sleepers.py::test_browser_with_its_own_limit*",
        ]
    )
    result.assert_outcomes(passed=1, failed=3)
    # The failure's own "E   Failed: Timeout (>Ns) ..." line, once per test (the short summary
    # repeats it only when the terminal is wide enough, as it is in CI).
    stopped = sorted(
        line.split()[-3]
        for line in result.outlines
        if line.startswith("E ") and "from pytest-timeout" in line
    )
    assert stopped == ["(>0.5s)", "(>0.5s)", "(>3.0s)"], result.outlines
