"""Words the pages put together from names, shared by the table and the lists of games."""

from __future__ import annotations


def and_list(words: list[str]) -> str:
    """ "Bob", "Bob and Carol", "Bob, Carol and Dave"."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + f" and {words[-1]}"
