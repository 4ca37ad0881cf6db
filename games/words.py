"""Words the pages put together from names, shared by the table and the lists of games."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def and_list(words: list[str]) -> str:
    """ "Bob", "Bob and Carol", "Bob, Carol and Dave" (in the active language)."""
    if len(words) < 2:
        return "".join(words)
    # Translators: what separates the names of a list but the last two ("Bob, Carol and Dave").
    most = pgettext("list separator", ", ").join(words[:-1])
    # Translators: the end of a list of names: "most" is all but the last ("Bob, Carol").
    return _("%(most)s and %(last)s") % {"most": most, "last": words[-1]}


def or_list(words: list[str]) -> str:
    """ "easy", "easy or hard", "easy, medium or hard" (in the active language)."""
    if len(words) < 2:
        return "".join(words)
    most = pgettext("list separator", ", ").join(words[:-1])
    # Translators: the end of a list of choices: "most" is all but the last ("Easy, Medium").
    return _("%(most)s or %(last)s") % {"most": most, "last": words[-1]}
