"""Words for the players from the modules that must not import Django (pure: engines, bots,
search, the lobby and levels).

`gettext_noop` marks a message for makemessages without importing Django; the Django side
translates it when it shows it. `Phrase` is English text that remembers the message it was
made from and its values, for the texts that carry values (a refusal naming a card, a bid's
reason): it reads as the English text, and games/phrases.py translates it for the page.
"""

from __future__ import annotations

from collections.abc import Mapping


def gettext_noop(message: str) -> str:
    """Marks `message` for makemessages without importing Django; the Django side translates
    it when it shows it."""
    return message


class Phrase(str):
    """The English `message % params`, keeping `message` (a msgid, marked where it is
    written), `params` and the translation `context` (pgettext's, "" for none): the Django
    side translates the message, and every param that is itself a Phrase (a card's name in a
    sentence), when it shows it. Being a str, it goes wherever the English text went."""

    message: str
    params: Mapping[str, object]
    context: str

    def __new__(
        cls, message: str, params: Mapping[str, object] | None = None, context: str = ""
    ) -> Phrase:
        phrase = super().__new__(cls, message % params if params else message)
        phrase.message = message
        phrase.params = params or {}
        phrase.context = context
        return phrase
