"""English dates as the site writes them ("29 Nov 2026", day first, as in Ireland); the
other languages take Django's own formats (docs/languages.md)."""

from __future__ import annotations

DATE_FORMAT = "j M Y"
