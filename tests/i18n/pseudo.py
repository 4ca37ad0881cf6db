"""The pseudo-locale (`en-xa`): every message of the catalogues, accented and bracketed, so
that any text a page shows without passing through translation stands out.

`build` writes its catalogue from the English messages of the committed German one (every
language has the same messages: `make messages` writes them all), so a string marked in the
code but missing from the catalogues is caught too. `untranslated` lists the texts of a page
that are left once every bracketed part is taken out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

import polib
from django.conf import settings

CODE = "en-xa"
OPEN, CLOSE = "⟦", "⟧"
# Kept as they are: placeholders, HTML tags and entities inside a message.
_KEPT = re.compile(r"%\(\w+\)[sdifr]|%[sdifr%]|\{[^}]*\}|<[^>]+>|&#?\w+;")
_ACCENTS = str.maketrans("aeiouyAEIOUYcnCN", "áéíóúýÁÉÍÓÚÝçñÇÑ")


def pseudo(message: str) -> str:
    """`message` accented outside its placeholders and tags, and bracketed."""
    out, last = [], 0
    for kept in _KEPT.finditer(message):
        out += [message[last : kept.start()].translate(_ACCENTS), kept.group()]
        last = kept.end()
    out.append(message[last:].translate(_ACCENTS))
    return OPEN + "".join(out) + CLOSE


def source_catalogue(domain: str = "django") -> Path:
    return Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / f"{domain}.po"


def build(into: Path, domain: str = "django") -> Path:
    """Write the pseudo-locale's compiled catalogue under `into` (a LOCALE_PATHS entry)."""
    out = polib.POFile()
    out.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Language": "en_XA",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    for entry in polib.pofile(str(source_catalogue(domain))):
        if entry.obsolete:
            continue
        made = polib.POEntry(msgid=entry.msgid, msgctxt=entry.msgctxt)
        if entry.msgid_plural:
            made.msgid_plural = entry.msgid_plural
            made.msgstr_plural = {0: pseudo(entry.msgid), 1: pseudo(entry.msgid_plural)}
        else:
            made.msgstr = pseudo(entry.msgid)
        out.append(made)
    folder = into / "en_XA" / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    out.save_as_mofile(str(folder / f"{domain}.mo"))
    return folder


# Attributes whose values people read (or hear, from a screen reader).
_READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
_SKIPPED = {"script", "style", "template"}
_TRANSLATED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
# Left after the translated parts are taken out, a word of two letters or more is English.
_WORD = re.compile(r"[^\W\d_]{2,}")
_ADDRESS = re.compile(r"https?://\S+|\S+@\S+")  # addresses in a letter's text


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping = 0
        self.option_value: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        named = dict(attrs)
        self.option_value = named.get("value") if tag == "option" else None
        for name, value in attrs:
            if value and name in _READ_ATTRIBUTES:
                self.texts.append(value)
        if tag == "input" and named.get("type") in ("submit", "button") and named.get("value"):
            self.texts.append(str(named["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        # A choice that shows its own value (a time zone's IANA name) is data, not words.
        shown = data.strip()
        if not self.skipping and shown and shown.replace(" ", "_") != self.option_value:
            self.texts.append(data)


def texts_of(html: str) -> list[str]:
    """The texts a person reads on `html`: text nodes and the read attributes."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    return parser.texts


def untranslated(html: str, allowed: Iterable[str] = ()) -> list[str]:
    """The texts of `html` holding a word that did not pass through translation; `allowed`:
    words that never do (player and game names, card ranks)."""
    # The translated parts go first, from the source: a message may hold markup (a link in
    # a sentence) and another message (a placeholder's value), innermost first.
    left = html
    while True:
        shorter = _TRANSLATED.sub(" ", left)
        if shorter == left:
            break
        left = shorter
    words = sorted({w for w in allowed if w}, key=len, reverse=True)
    # Whole words only: "Table" allowed leaves "Tables" to be caught.
    allowed_re = re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words) or "$^")
    found = []
    for text in texts_of(left):
        rest = allowed_re.sub(" ", _ADDRESS.sub(" ", text))
        if _WORD.search(rest):
            found.append(text.strip())
    return found
