"""What a user sees at the table: the ONE place that decides it.

`table_context(game, user)` builds the `#table` partial's context from the engine's
`perspective_of(state, seat)` (seat None for spectators), never from the raw state, so a
card the viewer may not see is never in the context. Every card that is rendered carries
`data-card` and its name, which the hidden-information tests look for.

What is the same for every viewer of a version (memberships, names, the state, the side
panel built from the spectators' view) is computed once per version and process
(`table_basis`), so a move's five redraws (its answer, four sockets) share it. The basis
keeps the game row it was built from, so a socket told "version v" redraws with no query
when this process already knows v (`known_game`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games import engine
from games.committed import CommittedCache, game_identity
from games.engine import Card, GameState, SeatView, Status
from games.engine.cards import FULL_DECK
from games.engine.rules import trick_winner
from games.models import Game, Membership
from games.presence import connected_user_ids
from games.services import table as service

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
PHASES = {
    Status.BIDDING: ("bidding", "Bidding"),
    Status.TRUMP_SELECTION: ("trump", "Naming trump"),
    Status.DISCARD: ("discard", "Discarding"),
    Status.TRICKS: ("tricks", "Playing tricks"),
    Status.WON: ("over", "Game over"),
}
PAST_ROUNDS_SHOWN = 3
# Seat positions around the felt, by offset from the viewer's seat (viewer at the bottom;
# the next seat sits on the viewer's left, as in the rules).
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}


def _face(card: Card) -> str:
    """The inside of a card: corners and a big pip (decorative; the name is on the element)."""
    if engine.card_suit(card) is None:
        return (
            '<span class="pcard-corner" aria-hidden="true">JK</span>'
            '<span class="pcard-pip" aria-hidden="true">★</span>'
            '<span class="pcard-word" aria-hidden="true">Joker</span>'
        )
    corner = f"{engine.card_rank(card)}<br>{SUIT_SYMBOLS[engine.card_suit(card) or 'C']}"
    return (
        f'<span class="pcard-corner" aria-hidden="true">{corner}</span>'
        f'<span class="pcard-pip" aria-hidden="true">{SUIT_SYMBOLS[engine.card_suit(card) or "C"]}'
        f'</span><span class="pcard-corner pcard-corner-end" aria-hidden="true">{corner}</span>'
    )


def _classes(card: Card) -> str:
    suit = engine.card_suit(card)
    if suit is None:
        return "pcard pcard-joker"
    return "pcard pcard-red" if suit in "DH" else "pcard pcard-black"


def _shown(card: Card, size: str) -> str:
    """A face-up card that is not a control: an image with the card's name."""
    code, name = engine.format_card(card), engine.card_name(card)
    return (
        f'<span class="{_classes(card)}{size}" data-card="{code}" role="img" '
        f'aria-label="{escape(name)}">{_face(card)}</span>'
    )


# Card markup is rendered once per process: tables show many cards, includes are slow.
_FACES = {card: mark_safe(_face(card)) for card in FULL_DECK}
_SHOWN = {card: mark_safe(_shown(card, "")) for card in FULL_DECK}
_SHOWN_SMALL = {card: mark_safe(_shown(card, " pcard-small")) for card in FULL_DECK}


def card_info(card: Card, **extra: Any) -> dict[str, Any]:
    """What the template needs of a card the viewer may see (only such cards get here)."""
    suit = engine.card_suit(card)
    return {
        "code": engine.format_card(card),
        "name": engine.card_name(card),
        "classes": _classes(card),
        "face": _FACES[card],
        "html": _SHOWN[card],
        "small": _SHOWN_SMALL[card],
        "joker": suit is None,
        **extra,
    }


def suit_info(suit: str) -> dict[str, str]:
    return {
        "code": suit,
        "name": engine.SUIT_NAMES[suit],
        "symbol": SUIT_SYMBOLS[suit],
        "color": "red" if suit in "DH" else "black",
    }


def bid_label(amount: int) -> str:
    if amount == 0:
        return "Pass"
    if amount == 60:
        return "Shoot the moon (60)"
    return f"Bid {amount}"


def describe_move(move: engine.Move) -> str:
    """A sentence for a move of the viewer's own seat (only their own cards appear)."""
    if isinstance(move, engine.Bid):
        return "Pass." if move.amount == 0 else f"{bid_label(move.amount)}."
    if isinstance(move, engine.Unpass):
        return "Cancel your pass."
    if isinstance(move, engine.SelectTrump):
        return f"Choose {engine.SUIT_NAMES[move.suit]} as trump."
    if isinstance(move, engine.Discard):
        if not move.cards:
            return "Keep your hand."
        return "Give up " + ", ".join(engine.card_name(c) for c in move.cards) + "."
    return f"Play the {engine.card_name(move.card)}."


def _names(members: dict[int, Membership], players: int) -> list[str]:
    return [members[s].name if s in members else f"Seat {s + 1}" for s in range(players)]


def _seat_text(view: SeatView, seat: int) -> tuple[str, bool]:
    """This round's bid or pass of `seat`, as shown by its name."""
    if view.status != Status.BIDDING:
        if view.bidder == seat and view.bid:
            return f"Bid {view.bid}", False
        return "", False
    last = None
    for who, amount in view.bids:
        if who == seat:
            last = amount
    if last is None:
        if seat == view.seat and view.pre_passed:
            return "Passing", True
        return "", False
    return ("Passed", True) if last == 0 else (f"Bid {last}", False)


def _chart(
    names: list[str], history: tuple[engine.RoundRecord, ...], target: int
) -> dict[str, Any]:
    totals = [[0] for _ in names]
    for record in history:
        if record.outcome == "no_bidders":
            continue
        for seat, points in enumerate(record.round_scores):
            totals[seat].append(totals[seat][-1] + points)
    rounds = len(totals[0]) - 1
    if rounds < 1:
        return {}
    width, height, pad = 300, 120, 6
    low = min(0, *(min(t) for t in totals))
    high = max(target, *(max(t) for t in totals))
    span = max(high - low, 1)

    def y(value: int) -> float:
        return round(pad + (high - value) * (height - 2 * pad) / span, 1)

    def x(index: int) -> float:
        return round(pad + index * (width - 2 * pad) / rounds, 1)

    lines = [
        {
            "name": name,
            "last": series[-1],
            "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(series)),
        }
        for name, series in zip(names, totals, strict=True)
    ]
    return {"width": width, "height": height, "zero": y(0), "target_y": y(target), "lines": lines}


def _score_rows(names: list[str], history: tuple[engine.RoundRecord, ...]) -> list[dict[str, Any]]:
    """One row per scored round: the contract, and each seat's total and points."""
    running = [0] * len(names)
    rows = []
    for record in history:
        for seat, points in enumerate(record.round_scores):
            running[seat] += points
        if record.outcome == "no_bidders" or record.bidder is None:
            continue  # changes no score: counted below the sheet instead
        cells = [
            {"points": points, "total": running[seat], "bidder": seat == record.bidder}
            for seat, points in enumerate(record.round_scores)
        ]
        rows.append(
            {
                "number": record.index + 1,
                "bid": record.bid,
                "trump": suit_info(record.trump) if record.trump else None,
                "bidder": names[record.bidder],
                "cells": cells,
            }
        )
    return rows


def _round_summary(names: list[str], record: engine.RoundRecord) -> str:
    if record.outcome == "no_bidders" or record.bidder is None:
        return f"everyone passed ({names[record.dealer]} dealt)"
    who = names[record.bidder]
    trump = engine.SUIT_NAMES[record.trump] if record.trump else "?"
    points = record.round_scores[record.bidder]
    verdict = {
        "made": "made it",
        "failed": "went set",
        "moon": "shot the moon",
    }.get(record.outcome, record.outcome)
    sign = "+" if points > 0 else ""
    return f"{who} bid {record.bid} in {trump} and {verdict} ({sign}{points})"


def _past_rounds(names: list[str], history: tuple[engine.RoundRecord, ...]) -> list[dict[str, Any]]:
    """The last few finished rounds in full (hands, discards, tricks), newest first.

    Older rounds stay on the score sheet only, so the partial does not grow with the game.
    """
    rounds = []
    for record in reversed(history[-PAST_ROUNDS_SHOWN:]):
        hands = [
            {
                "name": names[seat],
                "cards": [card_info(c) for c in hand],
                "discards": [card_info(c) for c in record.discards[seat]]
                if seat < len(record.discards)
                else [],
            }
            for seat, hand in enumerate(record.hands)
        ]
        tricks = [
            {
                "plays": [{"card": card_info(c), "name": names[s]} for s, c in trick.plays],
                "winner": names[trick.winner],
            }
            for trick in record.tricks
        ]
        rounds.append(
            {
                "number": record.index + 1,
                "summary": _round_summary(names, record),
                "hands": hands,
                "tricks": tricks,
            }
        )
    return rounds


def _turn_text(view: SeatView, names: list[str], mine: bool, automated: bool) -> str:
    if view.status == Status.WON:
        return "Game over."
    active = view.active_seat
    if active is None:
        return ""
    if mine and automated:
        return "A bot plays your seat."
    verbs = {
        Status.BIDDING: ("bid or pass", "to bid"),
        Status.TRUMP_SELECTION: ("you won the bid, choose trump", "to choose trump"),
        Status.DISCARD: ("give up cards and draw new ones", "to discard"),
        Status.TRICKS: ("play a card", "to play"),
    }
    yours, theirs = verbs.get(view.status, ("act", "to act"))
    if mine:
        return f"Your turn: {yours}."
    return f"Waiting for {names[active]} {theirs}."


# --- what every viewer shares ----------------------------------------------------------------


@dataclass(frozen=True)
class TableBasis:
    """What the table shows alike to every viewer of one version of a game.

    Built once per version and process (`table_basis`), then shared by the page that
    answers a move and by every socket's redraw of that version: each viewer only adds
    their own seat's part (`table_context`). It holds the whole engine state, hands
    included, so it never leaves the server: only views built with `perspective_of` do.
    """

    members: tuple[Membership, ...]  # every membership (invitees too), users loaded
    seated: dict[int, Membership]
    state: GameState | None  # None until the game has started
    names: tuple[str, ...]
    urls: dict[str, str]
    rematch_url: str
    side: SafeString  # the side panel (#table-side): the same for everybody
    game: Game  # the row at this version: this basis's own copy, only ever read

    def member_of(self, user: Any) -> Membership | None:
        """`user`'s membership (seated or not), or None for anybody else."""
        if not getattr(user, "is_authenticated", False):
            return None
        return next((m for m in self.members if m.user_id == user.pk), None)


BasisKey = tuple[int, str, float, int]
_BASES: CommittedCache[BasisKey, TableBasis] = CommittedCache(size=2048)
_SIDES: CommittedCache[tuple[Any, ...], SafeString] = CommittedCache(size=2048)


def clear_table_cache() -> None:
    """Forget every shared table part of this process (tests)."""
    _BASES.clear()
    _SIDES.clear()


def known_game(identity: tuple[int, str, float], version: int) -> Game | None:
    """The game row at `version` if this process has built that version's basis (a game's
    row changes only with its version), else None: then read it from the database."""
    basis = _BASES.get((*identity, version))
    return basis.game if basis is not None else None


def table_basis(game: Game, members: tuple[Membership, ...] | None = None) -> TableBasis:
    """The shared part of `game`'s table at `game.version` (one query and a cached state
    the first time in this process, nothing after that). `members`: every membership at
    that version, if the caller has read them (`services.table.memberships`)."""
    key = (*game_identity(game), game.version)
    basis = _BASES.get(key)
    if basis is not None:
        return basis
    if members is None:
        members = service.memberships(game)
    seated = {m.seat: m for m in members if m.seat is not None}
    try:
        state: GameState | None = service.load_state(game)
    except service.RefusedMove:
        state = None
    players = state.players if state is not None else len(seated)
    names = tuple(_names(seated, players))
    rematch_url = ""
    if state is not None and state.status == Status.WON:
        rematch = Game.objects.filter(rematch_of=game).order_by("created_at").first()
        if rematch is not None:
            rematch_url = reverse("table", kwargs={"game_id": rematch.pk})
    basis = TableBasis(
        members=members,
        seated=seated,
        state=state,
        names=names,
        urls={
            name: reverse(name, kwargs={"game_id": game.pk})
            for name in ("move", "hint", "automate", "rematch", "table")
        },
        rematch_url=rematch_url,
        side=_side_panel(game, state, names) if state is not None else SafeString(""),
        game=copy.copy(game),  # the caller's row may go on to later versions (bots)
    )
    _BASES.put(key, basis)
    return basis


def side_key(view: SeatView) -> str:
    """Names the side panel's content (it changes when a trick or a round ends)."""
    return f"{len(view.history)}.{len(view.tricks)}.{int(view.status == Status.WON)}"


def _side_panel(game: Game, state: GameState, names: tuple[str, ...]) -> SafeString:
    """The side panel: last trick, score sheet and chart, past rounds. Built from the
    spectators' view (finished rounds are open to all), so one rendering serves every
    viewer and every version until a trick or a round ends."""
    public = engine.perspective_of(state, None)
    key = (*game_identity(game), side_key(public), names)
    html = _SIDES.get(key)
    if html is not None:
        return html
    history = public.history
    last = None
    last_round = 0  # set when the last trick belongs to a finished round
    if public.tricks:
        last = public.tricks[-1]
    elif history and history[-1].tricks:
        last = history[-1].tricks[-1]
        last_round = history[-1].index + 1
    last_trick = None
    if last is not None:
        last_trick = {
            "round": last_round,
            "winner": names[last.winner],
            "plays": [
                {"name": names[s], "card": card_info(c), "winning": s == last.winner}
                for s, c in last.plays
            ],
        }
    html = SafeString(
        render_to_string(
            "games/table.html#side",
            {
                "side_key": side_key(public),
                "over": public.status == Status.WON,
                "last_trick": last_trick,
                "final_scores": [
                    {"name": n, "score": s} for n, s in zip(names, public.scores, strict=True)
                ],
                "score_names": names,
                "score_rows": _score_rows(list(names), history),
                "passed_out": sum(r.outcome == "no_bidders" for r in history),
                "chart": _chart(list(names), history, public.target),
                "past_rounds": _past_rounds(list(names), history),
            },
        )
    )
    _SIDES.put(key, html)
    return html


# --- what one viewer sees ---------------------------------------------------------------------


def table_context(game: Game | int, user: Any, error: str = "") -> dict[str, Any]:
    """The `#table` context for `user` (a player, an invitee, a spectator or anybody).

    `side` is the shared side panel (#table-side) and `side_key` names its content.
    """
    if not isinstance(game, Game):
        game = Game.objects.get(pk=game)
    basis = table_basis(game)
    viewer = basis.member_of(user)
    my_seat = viewer.seat if viewer is not None else None
    base: dict[str, Any] = {
        "game": game,
        "version": game.version,
        "error": error,
        "urls": basis.urls,
        "me": viewer,
        "is_player": my_seat is not None,
        "spectator": my_seat is None,
        "side": basis.side,
    }
    state = basis.state
    if state is None:
        return {
            **base,
            "phase": "waiting",
            "phase_label": "Waiting for players",
            "turn_text": "The game has not started yet.",
            "seats": [],
            "others": [],
        }
    view = engine.perspective_of(state, my_seat)
    members = basis.seated
    names = list(basis.names)
    automated = bool(viewer is not None and viewer.automated)
    mine = view.is_my_turn

    tricks_won = [0] * view.players
    for done in view.tricks:
        tricks_won[done.winner] += 1
    bottom = my_seat if my_seat is not None else 0
    positions = POSITIONS[view.players]
    # Who has this game open right now (games/presence.py; a dot by each human seat).
    online = connected_user_ids(game.pk, [m.user_id for m in members.values() if m.user_id])
    seats = []
    for seat in range(view.players):
        member = members.get(seat)
        text, passed = _seat_text(view, seat)
        seats.append(
            {
                "seat": seat,
                "name": names[seat],
                "is_me": seat == my_seat,
                "connected": bool(member and member.user_id in online),
                "is_bot": bool(member and member.is_bot),
                "automated": bool(member and member.automated),
                "dealer": seat == view.dealer and view.status != Status.WON,
                "active": seat == view.active_seat,
                "bid_text": text,
                "passed": passed,
                "score": view.scores[seat],
                "card_count": view.hand_sizes[seat],
                "backs": range(view.hand_sizes[seat]),
                "tricks_won": tricks_won[seat],
                "pos": positions[(seat - bottom) % view.players],
                "winner": seat == view.winner,
                "drew": view.discard_counts[seat]
                if view.status in (Status.DISCARD, Status.TRICKS)
                else None,
            }
        )
    trump = view.trump
    trump_index = engine.SUITS.index(trump) if trump else None

    # The viewer's own hand, sorted (trumps together once trump is known).
    hand: list[dict[str, Any]] = []
    discarding = False
    discard_count = 0
    if view.hand is not None:
        discarding = mine and view.status == Status.DISCARD and not automated
        playable = set(view.legal_plays) if not automated else set()
        for card in engine.sort_hand(view.hand, trump):
            pre = discarding and trump is not None and not engine.is_trump(card, trump)
            discard_count += pre
            hand.append(card_info(card, playable=card in playable, preselected=pre))

    trick: list[dict[str, Any]] = []
    if view.current_trick and trump_index is not None:
        winner = trick_winner(view.current_trick, trump_index)
        for seat, card in view.current_trick:
            trick.append(
                {
                    "name": names[seat],
                    "pos": positions[(seat - bottom) % view.players],
                    "card": card_info(card),
                    "winning": seat == winner and len(view.current_trick) > 1,
                }
            )
    # The trick just completed stays in the middle, its winner marked, until the next lead.
    done_trick = None
    if view.status == Status.TRICKS and not view.current_trick and view.tricks:
        last = view.tricks[-1]
        done_trick = {
            "winner": names[last.winner],
            "plays": [
                {"name": names[s], "card": card_info(c), "winning": s == last.winner}
                for s, c in last.plays
            ],
        }

    leader_text = ""
    if view.status == Status.TRICKS and view.active_seat is not None:
        leader_text = "Your lead." if mine else f"{names[view.active_seat]} leads."

    over = None
    if view.status == Status.WON and view.winner is not None:
        over = {
            "winner": names[view.winner],
            "i_won": view.winner == my_seat,
            "rematch_url": basis.rematch_url,
        }
    controls = my_seat is not None and not automated
    phase, phase_label = PHASES.get(view.status, ("waiting", str(view.status)))
    return {
        **base,
        "side_key": side_key(view),
        "view_seat": my_seat,
        "phase": phase,
        "phase_label": phase_label,
        "round_number": view.round_index + 1,
        "my_turn": mine and not automated,
        "turn_text": _turn_text(view, names, mine, automated),
        "seats": seats,
        "others": [s for s in seats if s["pos"] != "bottom"],
        "bottom_seat": next(s for s in seats if s["pos"] == "bottom"),
        "hand": hand,
        "discarding": discarding,
        "discard_count": discard_count,
        "playing": view.status == Status.TRICKS,
        "bids": [{"amount": a, "label": bid_label(a)} for a in view.legal_bids] if controls else [],
        "can_prepass": controls and view.can_prepass,
        "can_unpass": controls and view.can_unpass,
        "trump_choices": [suit_info(s) for s in engine.SUITS]
        if controls and mine and view.status == Status.TRUMP_SELECTION
        else [],
        "trump": suit_info(trump) if trump else None,
        "bleeding": view.bleeding,
        "contract": {"bidder": names[view.bidder], "bid": view.bid}
        if view.bidder is not None and view.bid and view.status != Status.WON
        else None,
        "trick": trick,
        "done_trick": done_trick,
        "leader_text": leader_text,
        "over": over,
        "final_scores": [{"name": n, "score": s} for n, s in zip(names, view.scores, strict=True)],
        "hint": "",
    }


def hint_text(game: Game, user: Any) -> tuple[str, int]:
    """The bot's suggestion for the user's own turn, as a sentence, and an HTTP status."""
    basis = table_basis(game)
    viewer = basis.member_of(user)
    if viewer is None or viewer.seat is None:
        return "Hints are for the players at this table.", 403
    state = basis.state
    if state is None:
        return "This game has not started yet.", 200
    if state.active_seat != viewer.seat or state.status == Status.WON:
        return "Hints are shown on your turn.", 200
    # suggestion() reads only the active seat's own hand and public facts.
    return "Hint: " + describe_move(engine.suggestion(state)), 200
