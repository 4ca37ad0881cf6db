"""Every test in this folder is a browser test (marker `browser`): written once here, not in
each module, so that a new module cannot forget it (the browser tests run last, in one
process, with their own time limit: see tests/conftest.py and tests/timeouts.py)."""

from __future__ import annotations

import pytest


def pytest_itemcollected(item: pytest.Item) -> None:
    item.add_marker(pytest.mark.browser)
