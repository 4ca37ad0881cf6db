"""What a user sees at the table: the ONE place that decides it, for every game kind.

`table_context(game, user)` builds the `#table` partial's context from the rules'
`view(state, seat)` (seat None for spectators), never from the raw state, so a card the
viewer may not see is never in the context. The platform draws the frame (seats, presence,
whose turn, game over, rematch, tools); the game's `Table` (games/kinds/<game>/table.py)
draws its own part from the view, as `g`.

What is the same for every viewer of a version (memberships, names, the state, the side
panel built from the spectators' view) is computed once per version and process
(`table_basis`), so a move's redraws (its answer, every socket) share it. The basis keeps
the game row it was built from, so a socket told "version v" redraws with no query when this
process already knows v (`known_game`).
"""

from __future__ import annotations

import copy
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from games import clocks, registry, thinking
from games.committed import CommittedCache, game_identity
from games.gamekind import Frame, GameKind
from games.kinds.protocol import IllegalAction
from games.models import Game, Membership
from games.presence import Presence, presence_of, watchers
from games.services import absence
from games.services import table as service
from games.steps import Steps

log = logging.getLogger(__name__)

# Seat positions around the felt, by offset from the viewer's seat (the viewer at the
# bottom; the next seat sits on the viewer's left). Past four seats the others sit in a
# row across the top, in playing order.
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}


def positions(players: int, bottom: int) -> tuple[str, ...]:
    """Where each seat sits for a viewer in seat `bottom` (spectators: seat 0's place)."""
    around = POSITIONS.get(players) or ("bottom", *(f"row-{i}" for i in range(1, players)))
    return tuple(around[(seat - bottom) % players] for seat in range(players))


def names_of(members: dict[int, Membership], players: int) -> tuple[str, ...]:
    return tuple(members[s].name if s in members else f"Seat {s + 1}" for s in range(players))


def and_list(words: list[str]) -> str:
    """ "Bob", "Bob and Carol", "Bob, Carol and Dave"."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + f" and {words[-1]}"


# --- what every viewer shares ----------------------------------------------------------------


@dataclass(frozen=True)
class TableBasis:
    """What the table shows alike to every viewer of one version of a game.

    Built once per version and process (`table_basis`), then shared by the page that
    answers a move and by every socket's redraw of that version: each viewer only adds
    their own seat's part (`table_context`). It holds the whole rules state, hands
    included, so it never leaves the server: only views built with `rules.view` do.
    """

    kind: GameKind
    members: tuple[Membership, ...]  # every membership (invitees too), users loaded
    seated: dict[int, Membership]
    state: Any  # None until the game has started
    names: tuple[str, ...]
    urls: dict[str, str]
    rematch_url: str
    side: SafeString  # the side panel (#table-side): the same for everybody
    side_key: str
    game: Game  # the row at this version: this basis's own copy, only ever read

    def member_of(self, user: Any) -> Membership | None:
        """`user`'s membership (seated or not), or None for anybody else."""
        if not getattr(user, "is_authenticated", False):
            return None
        return next((m for m in self.members if m.user_id == user.pk), None)


BasisKey = tuple[int, str, float, int]
_BASES: CommittedCache[BasisKey, TableBasis] = CommittedCache(size=2048)
_SIDES: CommittedCache[tuple[Any, ...], SafeString] = CommittedCache(size=2048)
# A seat box's inside by its content: at a table of ten every viewer sees the nine other
# boxes alike, so each is drawn once per change instead of once per viewer.
_SEAT_BOXES: CommittedCache[str, SafeString] = CommittedCache(size=8192)


def clear_table_cache() -> None:
    """Forget every shared table part of this process (tests)."""
    _BASES.clear()
    _SIDES.clear()
    _SEAT_BOXES.clear()


def on_version_committed(
    sender: Any, *, game: Game, members: tuple[Membership, ...], **_: Any
) -> None:
    """After a commit, before the sockets are told: build the table's shared part for the
    committed version, so every redraw of it in this process reads nothing (`known_game`).
    Connected to `games.signals.version_committed`."""
    try:
        table_basis(game, members)
    except Exception:  # best effort: without it each redraw reads what it needs
        log.exception("could not prepare the redraws of game %s", game.pk)


def adopt(game_id: int, version: int, change: dict[str, Any]) -> Game | None:
    """The game row at `version`, with the table's shared part for it built in memory from
    this process's basis of the version before and the `change` a push carried
    (`services.table._change`: the moves, the row's fields, the members'); None when this
    process has no basis of that version before (then the caller reads the database).

    This is how a process that did not make a move redraws its sockets for it without a
    query or a replay from the last snapshot: it makes the same moves on its own copy."""
    try:
        identity = (
            int(change["identity"][0]),
            str(change["identity"][1]),
            float(change["identity"][2]),
        )
        if identity[0] != game_id:
            return None
        basis = _BASES.get((*identity, version))
        if basis is not None:
            return basis.game
        before = _BASES.get((*identity, int(change["from"])))
        if before is None or before.state is None:
            return None
        rules = before.kind.rules
        state = before.state
        for seat, data in change["actions"]:
            state = rules.apply(state, int(seat), rules.action_from_json(data))
        game = copy.copy(before.game)
        row = change["row"]
        game.version = version
        game.action_count = int(row["action_count"])
        game.status = str(row["status"])
        game.outcome = row["outcome"]
        finished = row["finished_at"]
        game.finished_at = datetime.fromisoformat(finished) if finished else None
        fields = {int(pk): rest for pk, *rest in change["members"]}
        if set(fields) != {m.pk for m in before.members}:
            return None  # somebody joined or left: read them
        members = []
        for old in before.members:
            member = copy.copy(old)
            must_act, deadline, automated, cover_note = fields[old.pk]
            member.must_act = bool(must_act)
            member.deadline = datetime.fromisoformat(deadline) if deadline else None
            member.automated = bool(automated)
            member.cover_note = str(cover_note)
            members.append(member)
    except (KeyError, TypeError, ValueError, IndexError, IllegalAction):
        log.exception("could not follow the change to version %s of game %s", version, game_id)
        return None
    service.STATES.put_now((*identity, game.action_count), state)
    return table_basis(game, tuple(members)).game


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
    kind = registry.kind(game.kind)
    if members is None:
        members = service.memberships(game)
    seated = {m.seat: m for m in members if m.seat is not None}
    state = None if game.status == Game.Status.WAITING else service.load_state(game)
    names = names_of(seated, len(seated))
    rematch_url = ""
    if game.status == Game.Status.FINISHED:
        rematch = Game.objects.filter(rematch_of=game).order_by("created_at").first()
        if rematch is not None:
            rematch_url = reverse("table", kwargs={"game_id": rematch.pk})
    side_key, side = "", SafeString("")
    if state is not None:
        side_key, side = _side_panel(game, kind, state, names)
    basis = TableBasis(
        kind=kind,
        members=members,
        seated=seated,
        state=state,
        names=names,
        urls={
            name: reverse(name, kwargs={"game_id": game.pk})
            for name in ("move", "hint", "automate", "reclaim", "rematch", "table")
        },
        rematch_url=rematch_url,
        side=side,
        side_key=side_key,
        game=copy.copy(game),  # the caller's row may go on to later versions (bots)
    )
    _BASES.put(key, basis)
    return basis


def _seat_box(kind: GameKind, seat_turn: Any, s: dict[str, Any]) -> SafeString:
    """The inside of one seat's box (games/_seat.html and the game's seat template), drawn
    once for the same content. Everything the box shows is in `s` (and the game's word for
    a seat to act), so the key is their text."""
    key = repr((kind.slug, seat_turn, s))
    html = _SEAT_BOXES.get(key)
    if html is None:
        context = {"s": s, "kind": kind, "g": {"seat_turn": seat_turn}}
        html = SafeString(render_to_string("games/_seat.html", context))
        _SEAT_BOXES.put_now(key, html)
    return html


def _side_panel(
    game: Game, kind: GameKind, state: Any, names: tuple[str, ...]
) -> tuple[str, SafeString]:
    """The side panel (score sheet, history), built from the spectators' view (finished
    hands are open to all), so one rendering serves every viewer and every version until
    its key changes."""
    public = kind.rules.view(state, None)
    side_key = kind.table.side_key(public)
    key = (*game_identity(game), side_key, names)
    html = _SIDES.get(key)
    if html is None:
        html = SafeString(
            render_to_string(
                "games/table.html#side",
                {
                    "side_key": side_key,
                    "side_template": kind.table.side_template,
                    "g": kind.table.side(public, names),
                },
            )
        )
        _SIDES.put(key, html)
    return side_key, html


# --- what one viewer sees ---------------------------------------------------------------------


def _turn_text(frame: Frame, g: dict[str, Any], over: bool) -> str:
    if over:
        return "Game over."
    if frame.step is not None:  # playing out a resolution (games/steps.py)
        return str(g.get("step_text", ""))
    if frame.seat is not None and frame.automated:
        return "A bot plays your seat."
    if frame.my_turn:
        return str(g["prompt"])
    others = [frame.names[s] for s in sorted(frame.to_act) if s != frame.seat]
    if not others:
        return ""
    return f"Waiting for {and_list(others)} {g['waiting']}."


def _clock(member: Membership | None) -> int | None:
    """When the seat's time for its move runs out, for a human player on a clock."""
    if member is None or member.plays_itself or member.deadline is None:
        return None
    return int(member.deadline.timestamp() * 1000)


def table_context(
    game: Game | int, user: Any, error: str = "", steps: Steps | None = None
) -> dict[str, Any]:
    """The `#table` context for `user` (a player, an invitee, a spectator or anybody).

    `side` is the shared side panel (#table-side) and `side_key` names its content.
    `steps`: a socket's record of the resolution it is playing out (games/steps.py); the
    table then draws the step it names. Without it (pages, a move's answer): the current state.
    """
    if not isinstance(game, Game):
        game = Game.objects.get(pk=game)
    basis = table_basis(game)
    kind = basis.kind
    viewer = basis.member_of(user)
    my_seat = viewer.seat if viewer is not None else None
    abandoned = game.status == Game.Status.ABANDONED
    base: dict[str, Any] = {
        "game": game,
        "kind": kind,
        "version": game.version,
        "error": error,
        "urls": basis.urls,
        "me": viewer,
        "is_player": my_seat is not None,
        "spectator": my_seat is None,
        "side": basis.side,
        "side_key": basis.side_key,
        "hint": "",
        "abandoned": abandoned,  # no turns, no controls (games/services/absence.py)
        # The clock's pace, and the server's time for the page to count seat clocks down.
        "pace": clocks.pace_text(game.move_seconds),
        "now_ms": int(time.time() * 1000),
    }
    state = basis.state
    if state is None:
        return {
            **base,
            "phase": "waiting",
            "turn_text": "The game has not started yet.",
            "seats": [],
            "others": [],
        }
    # Who has this game open right now (games/presence.py; a dot by each human seat).
    here = presence_of(game.pk, [m.user_id for m in basis.seated.values() if m.user_id])
    drawn = draw(
        kind,
        basis.names,
        basis.seated,
        state,
        my_seat,
        to_act=frozenset() if abandoned else kind.rules.to_act(state),  # abandoned: nobody
        automated=bool(viewer is not None and viewer.automated),
        version=game.version,
        here=here,
        steps=steps,
        rematch_url=basis.rematch_url,
        me=my_seat,
    )
    frame = drawn["frame"]
    return {
        **base,
        **drawn,
        "turn": kind.rules.decision_key(state, my_seat) if my_seat is not None else "",
        "turn_text": _abandoned_text(basis)
        if abandoned
        else _turn_text(frame, drawn["g"], drawn["over"] is not None),
        # What the viewer may do about absent players (templates/games/_absence.html).
        "absence": absence.table_offers(game, basis.members, viewer, here),
        # How many people without a seat have the table open (a cache read).
        "watching": watchers(game.pk, [m.user_id for m in basis.seated.values()]),
    }


def draw(
    kind: GameKind,
    names: tuple[str, ...],
    seated: dict[int, Membership],
    state: Any,
    my_seat: int | None,
    *,
    to_act: frozenset[int],
    automated: bool,
    version: int,
    here: Presence,
    steps: Steps | None = None,
    rematch_url: str = "",
    me: int | None,
    replay: bool = False,
) -> dict[str, Any]:
    """The table as seen from `my_seat` (None: a spectator) in `state`: the game's part
    (`g`, from `rules.view`), the seat boxes, and how the game ended. Shared by the live
    table (`table_context`) and the replay (games/replay.py), which draws a past state
    from a chosen seat (`me`: the viewer's own seat, marked "you", which a replay may draw
    the table from another seat than). A replay shows no clocks, presence or who covers."""
    rules = kind.rules
    view = rules.view(state, my_seat)
    players = len(names)
    steps_key, steps_count = kind.table.steps(view)
    frame = Frame(
        names=names,
        seat=my_seat,
        to_act=to_act,
        automated=automated,
        version=version,
        positions=positions(players, my_seat if my_seat is not None else 0),
        step=steps.step_for(steps_key, steps_count) if steps is not None else None,
    )
    g = kind.table.context(view, frame)
    # While the socket plays the last resolution out step by step, how it ends waits too.
    outcome = rules.outcome(state) if frame.step is None else None
    winners = set(outcome.winners) if outcome is not None else set()
    members = seated
    seats = []
    for seat in range(players):
        member = members.get(seat)
        team = kind.team_of(seat, players)
        seats.append(
            {
                "seat": seat,
                "name": names[seat],
                # Each seat box is a group named after it, so a screen reader announces
                # whose box it is entering rather than one run of text.
                "label": f"{names[seat]}, seat {seat + 1}",
                # The player's page (games/views/players.py) for a person's name.
                "username": member.user.username
                if member is not None and member.user is not None and member.user.is_active
                else "",
                "is_me": seat == me,
                "replay": replay,
                "connected": bool(member and member.user_id in here.connected),
                # How long a human who had the table open has been away ("away 3 min").
                "away": here.away.get(member.user_id) if member and member.user_id else None,
                "is_bot": bool(member and member.is_bot),
                "bot_label": kind.level_label(member.bot).lower()
                if member is not None and member.is_bot
                else "",
                "automated": bool(member and member.automated and not replay),
                # Why a bot plays a human's seat ("away, a bot is playing for them").
                "cover_note": member.cover_note if member and not replay else "",
                # The seat's clock (ms since the epoch) while its player has a move to make.
                "clock": _clock(member)
                if seat in frame.to_act and frame.step is None and not replay
                else None,
                "dealer": seat == g.get("dealer"),
                "active": seat in frame.to_act and frame.step is None,
                "pos": frame.positions[seat],
                "winner": seat in winners,
                "team": team,
                "g": g["seats"][seat],
            }
        )
    for s in seats:
        s["box"] = _seat_box(kind, g.get("seat_turn"), s)
    over = None
    if outcome is not None:
        over = {
            "winners": and_list([names[s] for s in outcome.winners]),
            "shared": len(outcome.winners) > 1,
            # A team game: "Team A" (as the seats' team chips name them).
            "team": "Team " + "AB"[outcome.winning_team]
            if outcome.winning_team is not None
            else "",
            "i_won": my_seat in winners,
            "rematch_url": rematch_url,
            "scores": [
                {"name": n, "score": s, "winner": i in winners}
                for i, (n, s) in enumerate(zip(names, outcome.scores, strict=True))
            ],
        }
        teams = kind.teams(players) if kind.teams is not None else None
        if teams is not None:  # each seat carries its team's figure: say it once per team
            over["scores"] = [
                {
                    "name": "Team " + "AB"[t],
                    "score": outcome.scores[members[0]],
                    "winner": t == outcome.winning_team,
                }
                for t, members in enumerate(teams.members)
            ]
    return {
        "g": g,
        "frame": frame,
        "phase": g["phase"],
        "view_seat": my_seat,
        "my_turn": frame.my_turn and frame.step is None,
        "step": frame.step,
        "steps_key": steps_key,
        "seats": seats,
        # In playing order from the viewer's left (a row of them past four seats).
        "others": sorted(
            (s for s in seats if s["pos"] != "bottom"),
            key=lambda s: (s["seat"] - (my_seat or 0)) % players,
        ),
        "bottom_seat": next((s for s in seats if s["pos"] == "bottom"), None),
        "many_seats": players > len(POSITIONS) + 1,
        "over": over,
    }


def _abandoned_text(basis: TableBasis) -> str:
    """ "Abandoned by Alice." (only the organizer may abandon a game)."""
    organizer = next((m for m in basis.members if m.user_id == basis.game.organizer_id), None)
    return f"Abandoned by {organizer.name}." if organizer is not None else "Abandoned."


def hint_text(game: Game, user: Any) -> tuple[str, int]:
    """The hint bot's choice for the user's own turn, as a sentence, and an HTTP status."""
    basis = table_basis(game)
    viewer = basis.member_of(user)
    if viewer is None or viewer.seat is None:
        return "Hints are for the players at this table.", 403
    state = basis.state
    if state is None:
        return "This game has not started yet.", 200
    kind = basis.kind
    if viewer.seat not in kind.rules.to_act(state):
        return "Hints are shown on your turn.", 200
    # The bot decides from the seat's own view only (games.kinds.protocol.Bot); a search
    # runs in a worker process while this request's thread waits (games/thinking.py).
    seed = f"hint:{game.pk}:{game.version}"
    action = thinking.decide(kind, kind.hint_bot, state, viewer.seat, seed)
    return "Hint: " + kind.table.describe(action), 200
