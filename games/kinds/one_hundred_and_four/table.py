"""One Hundred and Four's part of the table, drawn from a seat's view (`engine.view`).

* The middle of the felt: the four rows, each card with its bullheads and each row with what
  taking it would cost, and the sixth place that takes a full row. After the last commitment
  the turn is played out step by step on the table socket (games/steps.py): step 0 shows the
  revealed cards with their owners, step k the rows after k placements, lowest card first,
  naming the row that took a penalty and who took it. In a too-low pause everybody sees the
  revealed cards and who is choosing a row; the chooser sees each row's cost as a button.
* A seat's facts: penalty points this deal (and the match total), the cards in their pile,
  chosen or still choosing (never *what*: the view has no other seat's choice).
* The player's controls: the hand sorted, one card picked then confirmed (radio buttons and
  a submit: arrow keys and Enter work), or the chosen card while the others choose.
* The side panel: every player's pile and the deals of a match.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.gamekind import BadAction, Frame, TableContext, TableTemplates
from games.steps import NO_STEPS

from .engine.actions import Choose, TakeRow
from .engine.cards import HAND_SIZE, bullheads, row_cost
from .engine.state import LastTurn, Placement, rows_after_steps
from .engine.view import HundredAndFourView

ROW_LENGTH = 5  # the sixth card takes the row
MOVE_KINDS = ("choose", "take_row")


def _card_name(card: int, heads: int) -> str:
    """A card for screen readers, "55, 7 bullheads", in the active language."""
    # Translators: a card of One Hundred and Four for screen readers: its number and its
    # penalty, e.g. "55, 7 bullheads".
    return ngettext("%(card)s, %(heads)s bullhead", "%(card)s, %(heads)s bullheads", heads) % {
        "card": card,
        "heads": heads,
    }


def _card_html(card: int, size: str) -> SafeString:
    heads = bullheads(card)
    return mark_safe(
        f'<span class="ncard ncard-{heads}{size}" data-card="{card}" role="img" '
        f'aria-label="{escape(_card_name(card, heads))}">'
        f'<span class="ncard-value" aria-hidden="true">{card}</span>'
        f'<span class="ncard-heads" aria-hidden="true">{"♉" * heads}</span></span>'
    )


def _card_parts(card: int) -> dict[str, Any]:
    return _card_parts_in(card, get_language())


# By card and language (the names are words): 104 cards, a few languages.
@lru_cache(maxsize=1024)
def _card_parts_in(card: int, language: str | None) -> dict[str, Any]:
    heads = bullheads(card)
    return {
        "value": card,
        "heads": heads,
        "name": _card_name(card, heads),
        "html": _card_html(card, ""),
        "small": _card_html(card, " ncard-small"),
        "classes": f"ncard ncard-{heads}",
        "face": mark_safe(
            f'<span class="ncard-value" aria-hidden="true">{card}</span>'
            f'<span class="ncard-heads" aria-hidden="true">{"♉" * heads}</span>'
        ),
    }


def card_info(card: int, **extra: Any) -> dict[str, Any]:
    """A card as the templates draw it: `html` (a named image), `small`, `face` (the inside
    of a button), its value and bullheads (worked out once per card), and `extra`."""
    return {**_card_parts(card), **extra}


cost = row_cost


def _rows(rows: tuple[tuple[int, ...], ...], marked: dict[int, str] | None = None) -> list[Any]:
    """Rows as the templates draw them; `marked`: row index -> a CSS class (just changed)."""
    marked = marked or {}
    return [
        {
            "number": index + 1,
            "index": index,
            "cards": [card_info(card) for card in row],
            "cost": cost(row),
            "full": len(row) == ROW_LENGTH,
            "open": range(ROW_LENGTH - len(row)),
            "mark": marked.get(index, ""),
        }
        for index, row in enumerate(rows)
    ]


def rows_html(rows: tuple[tuple[int, ...], ...], marked: tuple[tuple[int, str], ...]) -> SafeString:
    """The four rows as HTML: the same for every viewer, so drawn once per content (and
    language)."""
    return _rows_html(rows, marked, get_language())


@lru_cache(maxsize=4096)
def _rows_html(
    rows: tuple[tuple[int, ...], ...], marked: tuple[tuple[int, str], ...], language: str | None
) -> SafeString:
    context = {"rows": _rows(rows, dict(marked))}
    return SafeString(render_to_string("games/one_hundred_and_four/_rows.html", context))


def _placement_text(p: Placement, names: tuple[str, ...]) -> str:
    said = {
        # Named, never "you": the middle of the felt is the same for every viewer.
        "who": names[p.seat],
        "card": p.card,
        "row": p.row + 1,
    }
    if p.took is None:
        return _("%(who)s: %(card)s goes on row %(row)s.") % said
    count = len(p.took)
    # Translators: the cards a player took with a row, and their bullheads (♉).
    said["took"] = ngettext(
        "%(count)s card, %(heads)s ♉", "%(count)s cards, %(heads)s ♉", count
    ) % {
        "count": count,
        "heads": cost(p.took),
    }
    if p.too_low:
        return _("%(who)s: %(card)s is lower than every row: takes row %(row)s (%(took)s).") % said
    return _("%(who)s: %(card)s is the sixth card of row %(row)s: takes it (%(took)s).") % said


def _reveal(last: LastTurn, step: int | None, names: tuple[str, ...]) -> dict[str, Any]:
    """The revealed cards of `last` with their owners, placed up to `step` (None: all)."""
    placed = len(last.placements) if step is None else step
    order = {p.card: i for i, p in enumerate(last.placements)}
    cards = []
    for seat, card in last.choices:
        index = order.get(card, len(last.placements))
        p = last.placements[index] if index < len(last.placements) else None
        cards.append(
            card_info(
                card,
                owner=names[seat],
                placed=index < placed,
                current=index == placed - 1,
                took=bool(p is not None and p.took is not None and index < placed),
            )
        )
    current = last.placements[placed - 1] if placed > 0 else None
    return {
        "cards": cards,
        "placed": placed,
        "count": len(last.placements),
        "text": _placement_text(current, names) if current else "",
        "took": bool(current is not None and current.took is not None),
        "takers": _takers(last, names),
    }


def _takers(last: LastTurn, names: tuple[str, ...]) -> list[str]:
    """Who took a row in `last`, and how, as sentences."""
    return [_placement_text(p, names) for p in last.placements if p.took is not None]


def _scores(
    view: HundredAndFourView, step: int | None
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Penalty points this deal, match totals and pile sizes per seat, as they stood after
    `step` placements of the last turn (None: now): a replay must not tell how it ends."""
    penalties, totals = list(view.penalties), list(view.totals)
    piles = [len(pile) for pile in view.piles]
    last = view.last_turn
    if step is None or last is None:
        return tuple(penalties), tuple(totals), tuple(piles)
    if last.deal != view.deal and last.deal < len(view.history):  # a match's next deal
        record = view.history[last.deal]
        penalties, totals = list(record.penalties), list(record.totals)
        piles = [0] * len(piles)  # the finished deal's piles are not in the view
    for p in last.placements[step:]:
        if p.took is not None:
            penalties[p.seat] -= row_cost(p.took)
            totals[p.seat] -= row_cost(p.took)
            piles[p.seat] = max(0, piles[p.seat] - len(p.took))
    return tuple(penalties), tuple(totals), tuple(piles)


class HundredAndFourContext(TableContext):
    """`g` for this game: the frame's keys and those its own templates read."""

    rows_html: SafeString
    reveal: dict[str, Any] | None
    replay: bool
    last: dict[str, Any] | None
    pause: bool
    asked: str
    asked_me: bool
    pause_card: int | None
    pause_rows: list[dict[str, Any]]
    revealed: list[dict[str, Any]]
    choosing: bool
    chosen: dict[str, Any] | None
    hand: list[dict[str, Any]]


class HundredAndFourTable(TableTemplates):
    def context(self, view: HundredAndFourView, frame: Frame) -> HundredAndFourContext:
        names = frame.names
        step = frame.step
        last = view.last_turn
        replay = step is not None and last is not None
        choosing = view.phase == "choose" and not replay
        pause = view.phase == "pause" and not replay and view.asked is not None
        penalties, totals, piles = _scores(view, step)
        seats = [
            {
                "penalty": penalties[seat],
                "total": totals[seat],
                "pile": piles[seat],
                "chosen": choosing and view.committed[seat],
                "choosing": choosing and not view.committed[seat],
            }
            for seat in range(len(names))
        ]
        rows_marked: dict[int, str] = {}
        reveal = None
        if replay and last is not None and step is not None:
            rows = rows_after_steps(last, step)
            if step > 0:
                p = last.placements[step - 1]
                rows_marked[p.row] = "row-took" if p.took is not None else "row-placed"
            reveal = _reveal(last, step, names)
        else:
            rows = view.rows
        asked_name = ""
        pause_rows: list[Any] = []
        revealed = []
        if pause and view.asked is not None:
            asked_name = names[view.asked]
            pause_rows = [
                {"index": r, "number": r + 1, "cost": view.row_costs[r], "length": length}
                for r, length in enumerate(view.row_lengths)
            ]
            revealed = [card_info(card, owner=names[seat]) for seat, card in view.revealed]
        facts: list[dict[str, Any]] = []
        if replay and last is not None:  # the turn being played out
            facts.append({"text": _turn_text(view, last.deal, last.turn), "class": ""})
        elif view.phase != "over":
            facts.append({"text": _turn_text(view, view.deal, view.turn), "class": ""})
        if view.match_to:
            match = _("Match to %(points)s") % {"points": view.match_to}
        else:
            match = _("One deal")
        facts.append({"text": match, "class": ""})
        if pause:
            prompt = _("Your %(card)s is lower than every row: choose a row to take.") % {
                "card": view.too_low
            }
            # Translators: completes "Waiting for Ann and Bob …".
            waiting = pgettext("waiting for", "to choose a row to take")
        else:
            prompt = _("Your turn: choose a card.")
            waiting = pgettext("waiting for", "to choose a card")
        chosen = view.my_choice
        return {
            "phase": "rows" if view.phase != "over" else "over",
            "round_number": view.turn + 1,
            "facts": facts,
            "prompt": prompt,
            "waiting": waiting,
            # Translators: the chip on a seat whose player is to act.
            "seat_turn": pgettext("seat", "choosing a row")
            if pause
            else pgettext("seat", "choosing"),
            # The banner of every step (later steps redraw only the middle of the felt).
            "step_text": _("Cards revealed: placing them lowest first."),
            "seats": seats,
            "rows_html": rows_html(rows, tuple(sorted(rows_marked.items()))),
            "reveal": reveal,
            "replay": replay,
            # The last turn's row takers, under the rows while the next one is chosen.
            "last": {"takers": _takers(last, names)} if last and not replay else None,
            "pause": pause,
            "asked": asked_name,
            "asked_me": pause and frame.my_turn,
            "pause_card": view.too_low if pause else None,
            "pause_rows": pause_rows,
            "revealed": revealed,
            "choosing": choosing and frame.controls and chosen is None and frame.my_turn,
            "chosen": card_info(chosen) if chosen is not None else None,
            "hand": [card_info(card) for card in view.hand],
        }

    def steps(self, view: HundredAndFourView) -> tuple[str, int]:
        last = view.last_turn
        if last is None:
            return NO_STEPS
        # Step 0: the cards revealed; step k: k cards placed (the last step shows them all).
        return f"{last.deal}.{last.turn}", len(last.placements) + 1

    # --- the side panel: the same for every viewer -------------------------------------------

    def side_key(self, view: HundredAndFourView) -> str:
        piles = sum(len(pile) for pile in view.piles)
        return f"{view.deal}.{len(view.history)}.{piles}.{int(view.phase == 'over')}"

    def side(self, view: HundredAndFourView, names: tuple[str, ...]) -> dict[str, Any]:
        return {
            "over": view.phase == "over",
            "match_to": view.match_to,
            "players": [
                {
                    "name": name,
                    "penalty": view.penalties[seat],
                    "total": view.totals[seat],
                    "pile": [card_info(card) for card in sorted(view.piles[seat])],
                }
                for seat, name in enumerate(names)
            ],
            "score_names": names,
            "deals": [
                {
                    "number": record.index + 1,
                    "cells": [
                        {"points": p, "total": t}
                        for p, t in zip(record.penalties, record.totals, strict=True)
                    ],
                }
                for record in view.history
            ],
        }

    # --- reading and describing moves --------------------------------------------------------

    def parse_action(self, data: QueryDict, seat: int) -> Choose | TakeRow:
        kind = data.get("kind", "")
        if kind not in MOVE_KINDS:
            raise BadAction(_("That move could not be read: unknown kind of move."))
        if kind == "choose":
            return Choose(_number(data, "card", _("Choose one card.")))
        return TakeRow(_number(data, "row", _("Choose one row.")))

    def describe(self, action: Choose | TakeRow) -> str:
        if isinstance(action, Choose):
            # Translators: a hint: the card to play and its bullheads (♉).
            return _("Play %(card)s (%(heads)s ♉).") % {
                "card": action.card,
                "heads": bullheads(action.card),
            }
        return _("Take row %(row)s.") % {"row": action.row + 1}


def _turn_text(view: HundredAndFourView, deal: int, turn: int) -> str:
    """ "Turn 3 of 10", "Deal 2 · Turn 3 of 10" in a match."""
    said = {"deal": deal + 1, "turn": turn + 1, "turns": HAND_SIZE}
    if view.match_to:
        return _("Deal %(deal)s · Turn %(turn)s of %(turns)s") % said
    return _("Turn %(turn)s of %(turns)s") % said


def _number(data: QueryDict, name: str, missing: str) -> int:
    texts = data.getlist(name)
    if len(texts) != 1 or not texts[0].strip():
        raise BadAction(missing)
    text = texts[0].strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise BadAction(_("“%(text)s” is not a number this game knows.") % {"text": text[:12]})
    return int(text)


TABLE = HundredAndFourTable("games/one_hundred_and_four")
