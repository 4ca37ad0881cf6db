"""The Django side of games/kinds/words.py: the texts the pure modules write in English
(refusals, card names, a bid's reason, option labels, bot levels) translated when a page
shows them, into the language active then. They are never stored translated.

`translated(text)` takes a message marked with `gettext_noop` or a `Phrase` (whose params
that are Phrases are translated too; other params, such as names and numbers, are not);
`refusal_text(error)` is the sentence of a refusal from the rules or the lobby;
`html_sentence(message, **params)` a translated sentence with markup in its params.
"""

from __future__ import annotations

from typing import Protocol

from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from games.kinds.words import Phrase


class Refusal(Protocol):
    """A refusal of the pure side: `IllegalAction` (games/kinds/protocol.py), `LobbyError`
    (games/kinds/lobby.py)."""

    @property
    def message(self) -> str: ...


def translated(text: str) -> str:
    """`text` in the active language: a `Phrase` with its params, a plain message as it is
    marked (an unknown one, or "", stays as it is)."""
    if not text:
        return text  # gettext("") is the catalog's header
    if not isinstance(text, Phrase):
        return gettext(text)
    message = pgettext(text.context, text.message) if text.context else gettext(text.message)
    if not text.params:
        return message
    return message % {
        name: translated(value) if isinstance(value, Phrase) else value
        for name, value in text.params.items()
    }


def refusal_text(error: Refusal) -> str:
    """The sentence of a refusal, for the player, in the active language."""
    return translated(error.message)


def html_sentence(message: str, **params: str | int) -> SafeString:
    """`message % params` as HTML, for a translated sentence whose params hold markup (a
    suit's sign, a small card): the message is escaped, and so is each param that is not
    already safe."""
    return mark_safe(
        escape(message) % {name: conditional_escape(str(v)) for name, v in params.items()}
    )
