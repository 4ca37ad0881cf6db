"""The keyboard in the browser tests: Tab (or Shift+Tab) to a control, which must then show
a visible focus ring."""

from __future__ import annotations

from playwright.sync_api import Page

# --- keyboard -------------------------------------------------------------------------

WHERE = """sel => {
    const target = document.querySelector(sel);
    if (!target) return "missing";
    const active = document.activeElement;
    if (active === target) return "here";
    if (!active || active === document.body) return "after";
    return active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING
        ? "after" : "before";
}"""

RING = """() => {
    const el = document.activeElement;
    const ringed = el.matches("input") ? el.closest("label") : el;
    const style = getComputedStyle(ringed);
    return {width: parseFloat(style.outlineWidth), style: style.outlineStyle,
            visible: el.matches(":focus-visible")};
}"""


def focus_with_keys(page: Page, selector: str, limit: int = 80) -> list[str]:
    """Tab (or Shift+Tab, when the target comes earlier) until `selector` has focus."""
    pressed: list[str] = []
    for _ in range(limit):
        where = page.evaluate(WHERE, selector)
        assert where != "missing", selector
        if where == "here":
            ring = page.evaluate(RING)
            assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, ring
            return pressed
        key = "Tab" if where == "after" else "Shift+Tab"
        page.keyboard.press(key)
        pressed.append(key)
    raise AssertionError(f"could not reach {selector} with the keyboard")
