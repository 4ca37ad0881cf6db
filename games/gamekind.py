"""What the platform needs from a game kind: its declaration and how its table is drawn.

Each game declares a `GameKind` in `games/kinds/<game>/kind.py`; `games/registry.py` lists
them. Its `Table` (Django side) draws the game's part of the table from views, inside the
platform's frame, and reads actions from POSTs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any, NotRequired, Protocol, TypedDict, TypeVar

from django.http import QueryDict
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.kinds.analysis import Grading
from games.kinds.conformance import TraceChecker, TraceExporter
from games.kinds.levels import LEVELS
from games.kinds.lobby import describe_counts
from games.kinds.places import Places, winners_first
from games.kinds.protocol import Bot, Option, Rules, Teams, resolve_options
from games.kinds.statistics import Statistics
from games.phrases import translated

# A game's words (its name, its options, its bots' levels) are English messages from its
# folder, which must not import Django; the kind holds them as lazy translations, so every
# page and letter says them in the language active when it is drawn (docs/languages.md).
_lazy_translated = lazy(translated, str)


def said(text: str) -> str:
    """`text` translated whenever it is read as a str (already lazy: as it is)."""
    if not text or isinstance(text, Promise):
        return text
    return _lazy_translated(text)


def _said_option(option: Option) -> Option:
    return replace(
        option,
        label=said(option.label),
        help=said(option.help),
        choices=tuple((value, said(label)) for value, label in option.choices),
    )


class BadAction(ValueError):
    """A POST that could not be read as an action of the game (a sentence for the player)."""


@dataclass(frozen=True)
class Frame:
    """What the platform knows of a table, handed to a game's table when it draws its part."""

    names: tuple[str, ...]  # by seat
    # The seat drawn: the viewer's own (a replay may draw another, `own`); None for a
    # spectator or an invitee.
    seat: int | None
    to_act: frozenset[int]
    automated: bool  # the viewer's seat is played by a bot
    version: int
    # Which step of the latest resolution to draw (games/steps.py); None: the current state.
    step: int | None = None
    # A question of undo is open (games/services/undo.py): nobody moves until it is answered.
    halted: bool = False
    # Whether `seat` is the viewer's own: False only in a replay drawn from another seat than
    # the viewer's (games/presenters/replay.py). The seat's own texts (its hand and controls)
    # then name it ("Bob chose 34", "Bob's hand") where they would say "you" (`other_name`).
    # What every viewer sees alike (the felt: seats, middle, facts) names every seat, always.
    own: bool = True

    @property
    def other_name(self) -> str:
        """The drawn seat's name when the texts must name it rather than say "you" (`own`
        False: a replay from another seat than the viewer's); else "". Templates test it:
        `{% if frame.other_name %}…{{ name }}…{% else %}…you…{% endif %}`."""
        return self.names[self.seat] if not self.own and self.seat is not None else ""

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act and not self.automated

    def trick_plays(
        self,
        plays: Iterable[tuple[int, Any]],
        winner: int | None,
        info: Callable[[Any], dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Cards played to a trick, (seat, card) in order, as the seats show them: who played
        it (name and seat: static/css/seats.css places it for each viewer), the card
        (`info(card)`: the game's card as a template dict) and whether it wins."""
        return [
            {
                "name": self.names[seat],
                "seat": seat,
                "card": info(card),
                "winning": seat == winner,
            }
            for seat, card in plays
        ]

    @property
    def controls(self) -> bool:
        """Whether the viewer may act at all (a player whose seat no bot plays, while no
        question of undo holds the table)."""
        return self.seat is not None and not self.automated and not self.halted


class TableContext(TypedDict):
    """What the platform's frame (templates/games/table.html, games/presenters/context.py)
    reads of a game's part of the table, `g`. A game's own templates read more: each game's
    table declares a TypedDict extending this one with its own keys."""

    phase: str  # a CSS-safe word: the table's class and data-phase
    round_number: int  # data-round: tells a card played this round from the same card before
    facts: list[dict[str, Any]]  # the bar's chips: {"text", "class"}
    prompt: str  # your turn: what to do
    waiting: str  # what the others are doing, e.g. "to play"
    seats: list[dict[str, Any]]  # one per seat, shown as `s.g` by the game's seat template
    dealer: NotRequired[int | None]  # the dealer's seat, for games that have one
    seat_turn: NotRequired[str]  # the chip on an acting seat ("to play" if absent)
    step_text: NotRequired[str]  # the banner while a resolution plays out step by step


class Table(Protocol):
    """How a game's part of the table is drawn (Django side, `games/kinds/<game>/table.py`).

    The platform's frame (templates/games/table.html) draws the seats, presence, the turn
    banner, game over, rematch, hint and "hand my seat to a bot"; it includes the game's
    templates for the middle of the felt, each seat's facts, the player's controls and hand,
    and the side panel. Everything drawn comes from views (`rules.view`), never the state.
    """

    center_template: str  # the middle of the felt (trick, rows, ...)
    seat_template: str  # a seat's facts (score, bid, cards held, ...), `s.g` in the seat box
    play_template: str  # the viewer's controls and hand
    side_template: str  # the side panel (score sheet, history): the same for everybody

    def context(self, view: Any, frame: Frame) -> TableContext:
        """The game's part of `#table` for one viewer, as `g` in the templates: the keys the
        frame reads (`TableContext`), and the game's own (a TypedDict extending it)."""
        ...

    def side_key(self, view: Any) -> str:
        """Names the side panel's content for a spectator's view (it is redrawn only when
        this changes)."""
        ...

    def side(self, view: Any, names: tuple[str, ...]) -> dict[str, Any]:
        """The side panel's context, from a spectator's view (the same for every viewer)."""
        ...

    def steps(self, view: Any) -> tuple[str, int]:
        """The latest resolution `view` shows that a socket may play out step by step
        (games/steps.py): a key naming it and its number of steps; `NO_STEPS` if none.
        `context` then draws step `frame.step` of it when that is not None."""
        ...

    def parse_action(self, data: QueryDict, seat: int) -> Any:
        """The action a POST names, for `seat` (BadAction if it cannot be read)."""
        ...

    def describe(self, action: Any) -> str:
        """A sentence for one of the viewer's own possible actions (hints)."""
        ...


C = TypeVar("C")


class TableTemplates:
    """The four templates of a `Table`, by the names every game gives them in its own template
    folder (`games/kinds/<game>/templates/<folder>/`): a game's table class extends this and
    is made with its folder, e.g. `HeartsTable("games/hearts")`."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.center_template = f"{folder}/center.html"
        self.seat_template = f"{folder}/seat.html"
        self.play_template = f"{folder}/play.html"
        self.side_template = f"{folder}/side.html"


def card_reader(parse: Callable[[str], C], examples: str) -> Callable[[str], C]:
    """A reader of the card codes a POST names, for a table's `parse_action`: the game's
    `parse` (ValueError on anything else), with case and spaces forgiven; BadAction with a
    sentence that shows the notation by `examples` ("10H or QS")."""

    def read(text: str) -> C:
        try:
            return parse(text.strip().upper())
        except ValueError:
            raise BadAction(
                _("“%(text)s” is not a card (write it like %(examples)s).")
                % {"text": text[:12], "examples": examples}
            ) from None

    return read


@dataclass(frozen=True)
class GameKind:
    """One game the platform hosts."""

    slug: str  # stored on Game.kind and in traces' "game" field
    name: str
    blurb: str  # one line for the new-game form
    seat_counts: tuple[int, ...]
    rules: Rules[Any, Any, Any]
    bots: Mapping[str, Bot[Any, Any]]  # level -> bot; "naive" fills seats and gives hints
    table: Table
    conformance: TraceChecker
    export: TraceExporter  # a finished game as a trace that `conformance` replays
    options: tuple[Option, ...] = ()
    teams: Callable[[int], Teams] | None = None
    # Each seat's place in a finished game, for the ratings (games/kinds/places.py).
    places: Places = winners_first
    # What the player page shows of a player's rated games (games/kinds/statistics.py).
    statistics: Statistics | None = None
    # How the analysis grades a finished game's decisions (games/kinds/analysis.py).
    grading: Grading[Any, Any] | None = None
    # The bots' levels (games/kinds/levels.py): the hint is the hard bot's choice; the
    # medium bot plays a seat its player handed over or let its clock run out on.
    hint_bot: str = "hard"
    seat_bot: str = "medium"  # the level "Add a bot" seats first; it plays handed-over seats
    # The levels the waiting room offers, (level, label), the default first.
    bot_levels: tuple[tuple[str, str], ...] = LEVELS
    default_seats: int = field(default=0)
    # What `manage.py simulate` reports per seat beside wins: "" (nothing more), "points per
    # hand" (Hearts) or "penalty per game" (One Hundred and Four).
    simulation_figure: str = ""
    # The game's own stylesheet, a static path (games/kinds/<game>/static/...), or "".
    stylesheet: str = ""
    # The game's rules page content, a template in its own folder
    # (games/kinds/<game>/templates/games/<game>/rules.html), shown at /rules/<slug>/.
    rules_template: str = ""

    def __post_init__(self) -> None:
        # Frozen: the words are set once, here, as lazy translations (see `said`).
        object.__setattr__(self, "name", said(self.name))
        object.__setattr__(self, "options", tuple(_said_option(o) for o in self.options))
        levels = tuple((level, said(label)) for level, label in self.bot_levels)
        object.__setattr__(self, "bot_levels", levels)

    @classmethod
    def of(cls, package: str | None, *, blurb: str, **extra: Any) -> GameKind:
        """The kind of the game whose folder is `package` (its kind.py's `__package__`), from
        the modules every game's folder has, by the names they all use: `engine/seam.py`
        (SLUG, NAME, SEAT_COUNTS, RULES, OPTIONS), `bots.py` (BOTS), `table.py` (TABLE, whose
        template folder holds `rules.html`), `conformance.py` (CHECKER), `export.py`
        (export_trace), `statistics.py` (STATISTICS) and `analysis.py` (GRADING). `extra`:
        the fields a game sets apart from these (teams, places, stylesheet, ...)."""
        if not package:
            raise ValueError("GameKind.of takes the package of a game's folder.")
        seam, bots, table, conformance, export, statistics, analysis = (
            import_module(f"{package}.{name}")
            for name in (
                "engine.seam",
                "bots",
                "table",
                "conformance",
                "export",
                "statistics",
                "analysis",
            )
        )
        return cls(
            slug=seam.SLUG,
            name=seam.NAME,
            blurb=blurb,
            seat_counts=seam.SEAT_COUNTS,
            rules=seam.RULES,
            bots=bots.BOTS,
            table=table.TABLE,
            conformance=conformance.CHECKER,
            export=export.export_trace,
            options=seam.OPTIONS,
            statistics=statistics.STATISTICS,
            grading=analysis.GRADING,
            rules_template=f"{table.TABLE.folder}/rules.html",
            **extra,
        )

    def level_label(self, level: str) -> str:
        """ "Hard bot" for "hard" (a level this game does not offer: "Bot")."""
        return str(dict(self.bot_levels).get(level, _("Bot")))

    @property
    def seats_text(self) -> str:
        # Translators: "counts" is how many may play, e.g. "2 to 4" or "4 or 6".
        return ngettext("%(counts)s player", "%(counts)s players", max(self.seat_counts)) % {
            "counts": describe_counts(self.seat_counts)
        }

    @property
    def largest_table(self) -> int:
        return max(self.seat_counts)

    @property
    def table_size(self) -> int:
        """The seat count offered first when creating a game."""
        return self.default_seats or self.largest_table

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(self.options, given)

    def team_of(self, seat: int, seats: int) -> int | None:
        return None if self.teams is None else self.teams(seats).team_of(seat)

    def side_of(self, seat: int, seats: int) -> int:
        """Who the ratings rate `seat` with: its team (numbered after the seats), else the
        seat alone."""
        team = self.team_of(seat, seats)
        return seat if team is None else seats + team
