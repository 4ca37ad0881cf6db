"""What a page receives in the browser tests: its websocket frames, and the text of every load
of the table and of every htmx answer from it, recorded for a game's tests to check."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import Page, Response, WebSocket

# --- what a page receives -------------------------------------------------------------------

# The table's page and the htmx answers a table sends (moves, hints, handing a seat over).
TABLE_URLS = re.compile(r"/games/\d+/(?:table|move|hint|automate)/$")


@dataclass
class PageTraffic:
    """Everything one page receives: websocket frames, and the text of every load of the
    table and every htmx answer from it (read as they come, before the page moves on). A
    game's tests subclass it with a `check` of what the seat may see."""

    page: Page
    frames: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    checked_frames: int = 0
    checked_answers: int = 0

    def unchecked(self) -> tuple[list[str], list[str]]:
        """The frames and answers that came since the last call."""
        frames = self.frames[self.checked_frames :]
        answers = self.answers[self.checked_answers :]
        self.checked_frames, self.checked_answers = len(self.frames), len(self.answers)
        return frames, answers


def listen(traffic: PageTraffic) -> None:
    """Record into `traffic` what its page receives from now on."""

    def on_socket(socket: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            traffic.frames.append(payload if isinstance(payload, str) else payload.decode())

        socket.on("framereceived", on_frame)

    def on_response(response: Response) -> None:
        if TABLE_URLS.search(response.url.split("?")[0]):
            # Read at once: a body is gone once the page loads another document.
            traffic.answers.append(response.text())

    traffic.page.on("websocket", on_socket)
    traffic.page.on("response", on_response)
