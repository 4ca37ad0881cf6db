"""Every character beyond ASCII that the site's templates, scripts and stylesheets put on a page
is one that Debian's default fonts carry (fonts-dejavu-core, which Chromium falls back to):
anything else, such as the media symbols ⏮ and ⏭, shows as an empty box there. An icon the
fonts lack is drawn in SVG instead (templates/games/_replay_icon.html).

Checked against the characters DejaVu Sans has (`fc-list :charset=<hex>` lists it), written out
here so the test needs no fonts installed; Template comments ({# #}) are not shown, so they may
say anything."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

# Punctuation, arrows, the card suits and the few symbols the pages use; all in DejaVu Sans.
IN_DEFAULT_FONTS = frozenset("·–—’“”…›←↑→↓↕−σ▶▾◀●☾♉♠♣♥♦✕⟳")

COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.DOTALL)


def shown_files() -> list[Path]:
    folders = [ROOT / "templates", ROOT / "static", *ROOT.glob("games/kinds/*/templates")]
    folders += ROOT.glob("games/kinds/*/static")
    return sorted(
        path
        for folder in folders
        for path in folder.rglob("*")
        if path.suffix in {".html", ".js", ".css", ".svg", ".txt"}
    )


def test_every_character_on_a_page_is_in_debians_default_fonts() -> None:
    files = shown_files()
    assert any(path.name == "replay.html" for path in files)
    missing = {
        f"{path.relative_to(ROOT)}: {char} (U+{ord(char):04X})"
        for path in files
        for char in COMMENT.sub("", path.read_text())
        if ord(char) > 127 and char not in IN_DEFAULT_FONTS
    }
    assert sorted(missing) == []
