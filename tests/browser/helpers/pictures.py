"""Pictures in the browser tests: the documentation's screenshots (docs/screenshots/ with
UPDATE_SCREENSHOTS=1, else test-artifacts/screenshots/docs/), and the page in each look they
are taken in: desktop and phone width, light and dark."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from playwright.sync_api import Page, ViewportSize

from tests.browser.helpers.people import DESKTOP, PHONE
from tests.conftest import ARTIFACTS, ROOT

DOCS_SHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("UPDATE_SCREENSHOTS") == "1"
    else ARTIFACTS / "screenshots" / "docs"
)
SIZES: tuple[tuple[str, ViewportSize], ...] = (("desktop", DESKTOP), ("phone", PHONE))
# The page is no wider than the window: it does not scroll sideways.
FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def looks(
    page: Page,
    schemes: Sequence[str] = ("light", "dark"),
    sizes: Sequence[tuple[str, ViewportSize]] = SIZES,
) -> Iterator[tuple[str, str]]:
    """The page at each of `sizes` and, at each, in each colour scheme of `schemes` (none: as
    it is); yields (size name, scheme) in each look, and leaves the page light and at desktop
    width after the last."""
    for size_name, size in sizes:
        page.set_viewport_size(size)
        for scheme in schemes or ("",):
            if scheme:
                page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            yield size_name, scheme
    if schemes:
        page.emulate_media(color_scheme="light")
    page.set_viewport_size(DESKTOP)


# A full page has no window's foot: the hand that sticks there on a turn at a long table
# (static/css/table.css) is drawn where it stands in the page. (Through the CSSOM: the
# Content-Security-Policy refuses a stylesheet added for the picture.)
PLACE_HANDS = """(position) => document.querySelectorAll("#table .hand-area")
    .forEach((hand) => { hand.style.position = position; })"""


def picture(page: Page, name: str, *, still: bool = True) -> Path:
    """A full-page screenshot for the documentation, `name`.png (`still`: with animations
    stopped)."""
    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    path = DOCS_SHOTS / f"{name}.png"
    page.evaluate(PLACE_HANDS, "static")
    try:
        if still:
            page.screenshot(path=str(path), full_page=True, animations="disabled")
        else:
            page.screenshot(path=str(path), full_page=True)
    finally:
        page.evaluate(PLACE_HANDS, "")
    return path
