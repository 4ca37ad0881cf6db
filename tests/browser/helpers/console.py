"""A page watched for what fails a browser test (docs/configuration.md): a console error, an
uncaught exception or a Content-Security-Policy violation (which Chromium reports on the console;
`REPORT_VIOLATIONS` makes sure each is seen, with what was blocked and where)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, ConsoleMessage

from tests.browser.helpers.people import DESKTOP

REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`
    + ` at ${event.sourceFile}:${event.lineNumber} (${event.sample})`);
});
"""


class Watched:
    """A page whose console errors, uncaught exceptions and CSP violations are kept, and
    the Content-Security-Policy of every document it loads."""

    def __init__(self, browser: Browser) -> None:
        context = browser.new_context(viewport=DESKTOP)
        context.add_init_script(REPORT_VIOLATIONS)
        self.page = context.new_page()
        self.problems: list[str] = []
        self.policies: dict[str, str] = {}
        self.page.on("console", self.console)
        self.page.on("pageerror", lambda error: self.problems.append(f"exception: {error}"))
        self.page.on("response", self.response)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text} ({self.page.url})")

    def response(self, response: Any) -> None:
        if response.request.resource_type == "document":
            self.policies[response.url] = response.headers.get("content-security-policy", "")
