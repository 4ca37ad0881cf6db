"""What a table shows from one chair, and what every viewer of a version shares of it.

`draw(kind, names, seated, state, seat, ...)` is the table as seen from `seat` (None: a
spectator's chair) from the rules' `view(state, seat)`, never the raw state: the game's part
(`g`, from the game's `Table`), the seat boxes, how the game ended. The live table
(games/presenters/context.py) and the replay (games/presenters/replay.py) both draw with it.

`Public` draws the felt (every seat and the middle) and the head above it (the title and the
facts) from a spectator's chair once per version for every viewer, and keeps them on the
version's basis (games/presenters/basis.py): nothing of them depends on who looks, since
static/css/seats.css places the felt around each viewer (docs/render-once.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeData, SafeString
from django.utils.translation import gettext as _

from games.clocks.turns import pace_text
from games.gamekind import Frame, GameKind
from games.live.presence import Presence
from games.models import Membership
from games.presenters.basis import HEADS, TableBasis, seat_box
from games.presenters.seats import many
from games.steps import Steps
from games.words import and_list


def _clock(member: Membership | None) -> int | None:
    """When the seat's time for its move runs out, for a human player on a clock."""
    if member is None or member.plays_itself or member.deadline is None:
        return None
    return int(member.deadline.timestamp() * 1000)


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
    halted: bool = False,
    steps: Steps | None = None,
    rematch_url: str = "",
    me: int | None,
    replay: bool = False,
    with_seats: bool = True,
    ratings: dict[int, Any] | None = None,
) -> dict[str, Any]:
    """The table as seen from `my_seat` (None: a spectator) in `state`: the game's part
    (`g`, from `rules.view`), the seat boxes, and how the game ended. Shared by the live
    table (`table_context`) and the replay (games/presenters/replay.py), which draws a past state
    from a chosen seat (`me`: the viewer's own seat, marked "you", which a replay may draw
    the table from another seat than). A replay shows no clocks, presence or who covers.
    `with_seats` False: no seat boxes (the felt's middle alone); `halted`: a question of
    undo is open, and no control is drawn."""
    rules = kind.rules
    view = rules.view(state, my_seat)
    players = len(names)
    steps_key, steps_count = kind.table.steps(view)
    frame = Frame(
        names=names,
        seat=my_seat,
        to_act=to_act,
        automated=automated,
        halted=halted,
        version=version,
        step=steps.step_for(steps_key, steps_count) if steps is not None else None,
        # A replay may draw the table from another seat than the viewer's: its texts then
        # name that seat rather than say "you".
        own=my_seat == me,
    )
    g = kind.table.context(view, frame)
    # While the socket plays the last resolution out step by step, how it ends waits too.
    outcome = rules.outcome(state) if frame.step is None else None
    winners = set(outcome.winners) if outcome is not None else set()
    members = seated
    seats = []
    for seat in range(players if with_seats else 0):
        member = members.get(seat)
        team = kind.team_of(seat, players)
        seats.append(
            {
                "seat": seat,
                "name": names[seat],
                # Each seat box is a group named after it, so a screen reader announces
                # whose box it is entering rather than one run of text.
                # Translators: a seat box's name for screen readers ("Alice, seat 2").
                "label": _("%(name)s, seat %(number)s") % {"name": names[seat], "number": seat + 1},
                # The player's page (games/views/players.py) for a person's name.
                "username": member.user.username
                if member is not None and member.user is not None and member.user.is_active
                else "",
                "replay": replay,
                "connected": bool(member and member.user_id in here.connected),
                # How long a human who had the table open has been away ("away 3 min").
                "away": here.away.get(member.user_id) if member and member.user_id else None,
                "is_bot": bool(member and member.is_bot),
                "bot_label": kind.level_label(member.bot)
                if member is not None and member.is_bot
                else "",
                "automated": bool(member and member.automated and not replay),
                # Why a bot plays a human's seat ("away, a bot is playing for them").
                "cover_note": member.cover_text if member and not replay else "",
                # The seat's clock (ms since the epoch) while its player has a move to make.
                "clock": _clock(member)
                if seat in frame.to_act and frame.step is None and not replay
                else None,
                "dealer": seat == g.get("dealer"),
                "active": seat in frame.to_act and frame.step is None,
                "winner": seat in winners,
                "team": team,
                # The seat's rating in this game (games/ratings/board.py); none in a replay.
                "rating": (ratings or {}).get(seat),
                "g": g["seats"][seat],
            }
        )
    for s in seats:
        s["box"] = seat_box(kind, g.get("seat_turn"), s)
    over = None
    if outcome is not None:
        over = {
            "winners": and_list([names[s] for s in outcome.winners]),
            "shared": len(outcome.winners) > 1,
            # A team game: "Team A" (as the seats' team chips name them).
            "team": _team(outcome.winning_team) if outcome.winning_team is not None else "",
            "i_won": my_seat in winners,
            "rematch_url": rematch_url,
            # The replay offers the search's analysis of a finished game (docs/analysis.md).
            "analysable": kind.grading is not None,
            "scores": [
                {"name": n, "score": s, "winner": i in winners}
                for i, (n, s) in enumerate(zip(names, outcome.scores, strict=True))
            ],
        }
        teams = kind.teams(players) if kind.teams is not None else None
        if teams is not None:  # each seat carries its team's figure: say it once per team
            over["scores"] = [
                {
                    "name": _team(t),
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
        # The viewer's own seat (None: a spectator), which a replay may draw the table from
        # another seat than: static/css/seats.css marks it "(you)" by `data-own-seat`.
        "own_seat": me,
        # In seat order, for every viewer alike: static/css/seats.css places them around the
        # felt as the viewer sits (`view_seat`), a row of them past four seats.
        "seats": seats,
        "many_seats": many(players),
        "over": over,
    }


def _team(team: int) -> str:
    """ "Team A" for team 0 (as the seats' team chips name them)."""
    # Translators: "team" is a letter, A or B.
    return _("Team %(team)s") % {"team": "AB"[team]}


def head(basis: TableBasis, g: dict[str, Any], watching: int) -> SafeString:
    """The title and the facts above the felt (games/table.html#head): `g`, the game's part
    as a spectator sees it ({} before the game has started). Drawn once for what it shows,
    which most moves leave as it was."""
    game, urls = basis.game, basis.urls
    pace = pace_text(game.move_seconds)
    # A fact's text is escaped unless it is markup the game made (SafeData): both are the key.
    facts = tuple(
        (str(text), isinstance(text, SafeData), str(f.get("class", "")))
        for f in g.get("facts", ())
        for text in [f.get("text", "")]
    )
    # The links (`urls`) follow from the game and its kind.
    key = (translation.get_language(), basis.kind.slug, game.pk, game.name, facts, pace, watching)
    html = HEADS.get(key)
    if html is None:
        context = {
            "g": g,
            "game": game,
            "kind": basis.kind,
            "urls": urls,
            "pace": pace,
            "watching": watching,
        }
        html = SafeString(render_to_string("games/table.html#head", context))
        HEADS.put_now(key, html)
    return html


@dataclass
class Felt:
    """The felt of one version as a spectator sees it: the seat dicts (read by a socket's
    patches, games/consumers/marks.py), their drawing with the middle (`html`), and each
    seat's element alone as a patch sends it (`patch`)."""

    seats: list[dict[str, Any]]
    html: SafeString
    patches: dict[tuple[Any, ...], str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.html

    def __html__(self) -> SafeString:
        return self.html

    def patch(self, seat: dict[str, Any], version: int) -> str:
        """Seat `seat`'s element on the felt, swapped in alone at `version` (its marks
        changed, nothing else of the table did): the same bytes for every socket."""
        key = ("seat", seat["seat"], version)
        html = self.patches.get(key)
        if html is None:
            context = {"s": seat, "patch_version": version}
            html = self.patches[key] = render_to_string("games/_felt.html#seat", context)
        return html

    def banner(self, version: int, text: str, mine: bool) -> str:
        """The turn banner alone, as a patch sends it: every viewer it tells the same (all
        who wait for the same seats, all whose turn it is) gets the same bytes."""
        key = ("banner", version, text, mine)
        html = self.patches.get(key)
        if html is None:
            context = {"patch_version": version, "turn_text": text, "my_turn": mine}
            html = self.patches[key] = render_to_string("games/table.html#turn", context)
        return html


@dataclass(frozen=True)
class Public:
    """What every viewer of a version sees alike, drawn once from a spectator's chair and kept
    on the version's basis (`basis.felts`) by what else it shows: the language, who is to act
    and whether a question of undo halts the table, who is present and away (the seats' dots),
    and the step of a resolution a socket plays out (games/steps.py). Nothing of it depends on
    who looks (static/css/seats.css places it around each viewer), so a viewer's own seat
    shows nothing a spectator's page does not."""

    basis: TableBasis
    to_act: frozenset[int]
    halted: bool
    here: Presence
    steps: Steps | None

    def _step(self) -> tuple[str, int] | None:
        if self.steps is None:
            return None
        # A resolution is public (who played what): every chair sees the same steps.
        steps_key, count = self.basis.kind.table.steps(self.basis.public)
        step = self.steps.step_for(steps_key, count)
        # No step: the current state, drawn alike whether or not a socket keeps a record of
        # steps (a move's answer keeps none), so the answer and the sockets share a drawing.
        return None if step is None else (steps_key, step)

    def _kept(self, part: str, key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
        felts = self.basis.felts
        key = (part, translation.get_language(), self.to_act, self.halted, *key)
        found = felts.get(key)
        if found is None:
            if len(felts) >= KEPT_PER_VERSION:  # presence changing within a version
                felts.clear()
            found = felts[key] = build()  # a race draws it twice, and keeps either
        return found

    def _drawn(self, with_seats: bool) -> dict[str, Any]:
        basis = self.basis
        return draw(
            basis.kind,
            basis.names,
            basis.seated,
            basis.state,
            None,
            to_act=self.to_act,
            automated=False,
            halted=self.halted,
            version=basis.game.version,
            here=self.here,
            steps=self.steps,
            rematch_url=basis.rematch_url,
            me=None,
            with_seats=with_seats,
            ratings=basis.ratings,
        )

    def _viewless(self) -> dict[str, Any]:
        """The table drawn from a spectator's chair without the seats: what the head and the
        middle read, drawn once for both (it does not depend on who is present)."""
        found: dict[str, Any] = self._kept(
            "drawn", (self._step(),), lambda: self._drawn(with_seats=False)
        )
        return found

    def felt(self) -> Felt:
        """Every seat and the middle (games/table.html#felt)."""
        here = self.here
        key = (
            frozenset(here.connected),
            tuple(sorted((uid, a.text, a.seconds) for uid, a in here.away.items())),
            self._step(),
        )

        def build() -> Felt:
            drawn = {**self._drawn(with_seats=True), "kind": self.basis.kind}
            html = SafeString(render_to_string("games/table.html#felt", drawn))
            return Felt(drawn["seats"], html)

        found: Felt = self._kept("felt", key, build)
        return found

    def head(self, watching: int) -> SafeString:
        """The title and the facts above the felt (games/table.html#head), with how many
        people watch (`watching`, which changes without a new version)."""

        def build() -> SafeString:
            return head(self.basis, self._viewless()["g"], watching)

        found: SafeString = self._kept("head", (watching, self._step()), build)
        return found

    def middle(self) -> dict[str, Any]:
        """The felt's middle alone (games/table.html#center: a later step of a resolution),
        with the step it shows (`step`, `steps_key`)."""

        def build() -> dict[str, Any]:
            drawn = self._viewless()
            context = {**drawn, "kind": self.basis.kind}
            html = SafeString(render_to_string("games/table.html#center", context))
            return {"step": drawn["step"], "steps_key": drawn["steps_key"], "middle": html}

        found: dict[str, Any] = self._kept("middle", (self._step(),), build)
        return found


# How many felts and middles of one version a process keeps (each differs in who is present
# or away, or in the step shown).
KEPT_PER_VERSION = 16
