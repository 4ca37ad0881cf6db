"""What a user sees at the table: the ONE place that decides it, for every game kind.

`table_context(game, user)` builds the `#table` partial's context from the rules'
`view(state, seat)` (seat None for spectators), never from the raw state, so a card the
viewer may not see is never in the context. The platform draws the frame (seats, presence,
whose turn, game over, rematch, tools); the game's `Table` (games/kinds/<game>/table.py)
draws its own part from the view, as `g`. What every viewer of a version shares (the
members, the state, the side panel) comes from games/presenters/basis.py, built once per version.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from games.bots import thinking
from games.gamekind import Frame
from games.live.presence import Presence, presence_of, watchers
from games.models import Game
from games.presenters.basis import TableBasis, table_basis
from games.presenters.felt import Public, draw, head
from games.presenters.undo import undo_context
from games.services import absence
from games.steps import Steps
from games.words import and_list

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

# --- what one viewer sees ---------------------------------------------------------------------


def _turn_text(frame: Frame, g: dict[str, Any], over: bool) -> str:
    if over:
        return _("Game over.")
    if frame.step is not None:  # playing out a resolution (games/steps.py)
        return str(g.get("step_text", ""))
    if frame.seat is not None and frame.automated:
        return _("A bot plays your seat.")
    if frame.my_turn:
        return str(g["prompt"])
    others = [frame.names[s] for s in sorted(frame.to_act) if s != frame.seat]
    if not others:
        return ""
    # Translators: "doing" is what the game says they are doing, e.g. "to play".
    return _("Waiting for %(names)s %(doing)s.") % {
        "names": and_list(others),
        "doing": g["waiting"],
    }


def table_context(
    game: Game | int,
    user: User,
    error: str = "",
    steps: Steps | None = None,
    *,
    middle_only: bool = False,
    basis: TableBasis | None = None,
) -> dict[str, Any]:
    """The `#table` context for `user` (a player, an invitee, a spectator or anybody).

    `side` is the shared side panel (#table-side) and `side_key` names its content.
    `steps`: a socket's record of the resolution it is playing out (games/steps.py); the
    table then draws the step it names. Without it (pages, a move's answer): the current state.
    `middle_only`: enough for the felt's middle alone (games/table.html#center, a later step
    of a resolution): no seats, presence, absence offers or watchers.
    """
    if not isinstance(game, Game):
        game = Game.objects.get(pk=game)
    if basis is None:  # else the caller's, of this version
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
        # The server's time for the page to count seat clocks down.
        "now_ms": int(time.time() * 1000),
    }
    state = basis.state
    if state is None:
        return {
            **base,
            "phase": "waiting",
            "head": head(basis, {}, 0),
            "turn_text": _("The game has not started yet."),
            "seats": [],
        }
    # Who has this game open right now (games/live/presence.py; a dot by each human seat).
    here = (
        Presence()
        if middle_only
        else presence_of(game.pk, [m.user_id for m in basis.seated.values() if m.user_id])
    )
    # Undo by consent: while the table answers a question, nobody is to act.
    told = undo_context(game, basis.seated, basis.names, viewer)
    # Abandoned, or a question of undo open: nobody.
    to_act = frozenset() if abandoned or told["question"] else kind.rules.to_act(state)
    public = Public(basis, to_act, told["question"], here, steps)
    if middle_only:
        return {**base, **public.middle()}
    # The viewer's own part: the seats and the middle are the felt's, the same for everybody.
    drawn = draw(
        kind,
        basis.names,
        basis.seated,
        state,
        my_seat,
        to_act=to_act,
        automated=bool(viewer is not None and viewer.automated),
        halted=told["question"],
        version=game.version,
        here=here,
        steps=steps,
        rematch_url=basis.rematch_url,
        me=my_seat,
        with_seats=False,
        ratings=basis.ratings,
    )
    frame = drawn["frame"]
    felt = public.felt()
    # How many people without a seat have the table open (a cache read).
    watching = watchers(game.pk, [m.user_id for m in basis.seated.values()])
    return {
        **base,
        **drawn,
        "seats": felt.seats,
        "felt": felt,
        "turn": kind.rules.decision_key(state, my_seat) if my_seat is not None else "",
        "turn_text": _abandoned_text(basis)
        if abandoned
        else told["undo"]["text"]
        if told["question"]
        else _turn_text(frame, drawn["g"], drawn["over"] is not None),
        "undo": told["undo"],
        # What the viewer may do about absent players (templates/games/_absence.html).
        "absence": absence.table_offers(game, basis.members, viewer, here),
        "watching": watching,
        "head": public.head(watching),
    }


def _abandoned_text(basis: TableBasis) -> str:
    """ "Abandoned by Alice." (only the organizer may abandon a game)."""
    organizer = next((m for m in basis.members if m.user_id == basis.game.organizer_id), None)
    if organizer is None:
        return _("Abandoned.")
    return _("Abandoned by %(name)s.") % {"name": organizer.name}


def hint_text(game: Game, user: User) -> tuple[str, int]:
    """The hint bot's choice for the user's own turn, as a sentence, and an HTTP status."""
    basis = table_basis(game)
    viewer = basis.member_of(user)
    if viewer is None or viewer.seat is None:
        return _("Hints are for the players at this table."), 403
    state = basis.state
    if state is None:
        return _("This game has not started yet."), 200
    kind = basis.kind
    if viewer.seat not in kind.rules.to_act(state):
        return _("Hints are shown on your turn."), 200
    # The bot decides from the seat's own view only (games.kinds.protocol.Bot); a search
    # runs in a worker process while this request's thread waits (games/bots/thinking.py).
    seed = f"hint:{game.pk}:{game.version}"
    action = thinking.decide(kind, kind.hint_bot, state, viewer.seat, seed)
    # Translators: "move" is a move the hint suggests, e.g. "Play the 10 of hearts".
    return _("Hint: %(move)s") % {"move": kind.table.describe(action)}, 200
