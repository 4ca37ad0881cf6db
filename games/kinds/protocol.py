"""The rules protocol every game engine meets: pure Python, no Django, no I/O.

The platform (lobby, table frame, real time, persistence, bot runner) knows a game only
through this protocol and the registry of game kinds (`games/registry.py`). An engine works
on immutable states; a seat is an int `0 … seats-1`.

* `to_act(state)` is a *set* of seats: one seat in sequential phases, several in
  simultaneous ones (Hearts' pass, One Hundred and Four's choices), empty once the game is
  over. `legal_actions(state, seat)` may be non-empty for a seat outside that set (Hundred and
  Ten's pre-pass).
* `apply(state, seat, action)` returns the next state or raises `IllegalAction`, whose text
  is a sentence for the player; a refused action changes nothing (states are values).
* `view(state, seat)` is everything `seat` may see (`None`: a spectator). Pages, partials,
  sockets and bots are built from views, never from the state.
* `decision_key(state, seat)` names the decision `seat` faces. A submission made from a page
  that showed an older version of the game is stale only if that seat's key changed: in a
  simultaneous phase the other seats' choices must not bounce yours.
* `undoable(before, seat, action, after)` says whether the game's rules let `seat` take
  `action` back by consent of the table (a bid, a card to an unfinished trick); the
  platform decides the rest (the last action, a person's, an unrated game).
* Actions and states round-trip through JSON (`action_to_json` / `state_to_json`). The action
  log stores the acting seat beside the action, so an action's JSON need not carry it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from .words import Phrase, gettext_noop

S = TypeVar("S")  # a game's state
A = TypeVar("A")  # a game's action
V = TypeVar("V", covariant=True)  # what a seat sees
S_in = TypeVar("S_in", contravariant=True)
A_out = TypeVar("A_out", covariant=True)


class IllegalAction(Exception):
    """An action the rules refuse. `str(error)` is a sentence for the player, in English;
    `code` is a stable identifier for tests and logs (e.g. "not_your_turn",
    "must_follow_suit").

    `template` is the sentence as written, a message marked with `gettext_noop`
    (games/kinds/words.py), with %(name)s placeholders for `params`; `message` is the
    `Phrase` of both, `template % params` in English, which the Django side translates when
    it shows it (games/phrases.py `refusal_text`). A param may be a `Phrase` (a card's name),
    translated as well."""

    def __init__(
        self, message: str, code: str = "illegal", params: Mapping[str, object] | None = None
    ) -> None:
        self.template = message
        self.params: Mapping[str, object] = params or {}
        self.message = Phrase(message, params)
        super().__init__(self.message)
        self.code = code


def check_view_seat(seat: int | None, seats: int) -> None:
    """A view (`Rules.view`) is for one of the `seats` seats or, with None, for a spectator:
    ValueError for anything else (a bool is not a seat)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < seats):
        raise ValueError(f"Seat {seat!r} is not at this table.")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    `scores` has one entry per seat: the game's final score as its players count it (in a team
    game, each seat carries its team's figure). `winners` are the seats that won or share the
    win, ascending. `winning_team` is the team index in a team game, else None.
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    winning_team: int | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option chosen when a game is created (e.g. Hearts' target score).

    `choices` are (value, label) pairs; `default` must be one of the values. Values are ints
    or None (e.g. "no match: one deal"), so every option is a simple choice in a form.
    `label`, `help` and the choices' labels are English messages marked with `gettext_noop`
    or `Phrase`s (games/kinds/words.py): whoever shows them translates them
    (games/phrases.py `translated`).
    """

    name: str
    label: str
    default: int | None
    choices: tuple[tuple[int | None, str], ...]
    help: str = ""

    def clean(self, value: Any) -> int | None:
        """`value` if it is one of the choices, else ValueError."""
        for choice, _ in self.choices:
            if value == choice and type(value) is type(choice):
                return choice
        raise ValueError(f"{value!r} is not a choice for {self.label}.")


def target_option(usual: int, short: int, help: str) -> Option:
    """The "Play to" option of a game played to a target score (Hearts, Hundred and Ten):
    the usual target, the default, and a shorter one. `help` is marked for translation by
    the game."""
    return Option(
        "target",
        # Translators: the option of a game's target score, e.g. "Play to: 100 points".
        gettext_noop("Play to"),
        usual,
        (
            (usual, Phrase(gettext_noop("%(points)s points (the usual game)"), {"points": usual})),
            (short, Phrase(gettext_noop("%(points)s points (a short game)"), {"points": short})),
        ),
        help=help,
    )


def target_of(options: Mapping[str, Any], usual: int) -> int:
    """The target score `options` name (`target_option`), `usual` if they name none."""
    target = options.get("target")
    return usual if target is None else int(target)


def resolve_options(options: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of a game with its value: `given` (checked) over the defaults.

    Unknown names and values that are not among the choices raise ValueError.
    """
    known = {option.name: option for option in options}
    unknown = set(given) - set(known)
    if unknown:
        raise ValueError(f"Unknown options: {', '.join(sorted(unknown))}.")
    return {
        name: option.clean(given[name]) if name in given else option.default
        for name, option in known.items()
    }


class Rules(Protocol[S, A, V]):
    """A game's rules over immutable states (see the module docstring)."""

    def initial_state(self, seed: str, seats: int, options: Mapping[str, Any]) -> S:
        """The state before the first action: the first deal made from `seed` (later deals
        too: the same seed always gives the same game). `options` are resolved (every
        option present)."""
        ...

    def initial_state_from_deals(
        self, deals: Sequence[Any], seats: int, options: Mapping[str, Any]
    ) -> S:
        """The same, with every deal given explicitly (traces, tests, exports): `deals[i]` is
        hand (round, deal) `i` in the JSON form of the game's conformance traces. Needing a
        deal past the last one given raises ValueError."""
        ...

    def to_act(self, state: S) -> frozenset[int]:
        """The seats the game waits for (empty once it is over)."""
        ...

    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every action `seat` may take now (may be non-empty outside `to_act`). Where the
        legal set is combinatorial (choose three cards of thirteen), a documented set of
        representatives; `apply` still accepts every legal action."""
        ...

    def apply(self, state: S, seat: int, action: A) -> S:
        """The state after `seat` takes `action`, or IllegalAction (and nothing changes)."""
        ...

    def view(self, state: S, seat: int | None) -> V:
        """What `seat` may see (None: a spectator). Never holds another seat's hidden cards
        or secret choices."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def hand_number(self, state: S) -> int:
        """The 0-based hand (round, deal) in progress: the platform snapshots a state whenever
        this changes, so loading a long game replays at most one hand."""
        ...

    def decision_key(self, state: S, seat: int) -> str:
        """A short string naming the decision `seat` faces now: equal keys mean a page drawn
        for the one state is still a fair basis for `seat`'s action in the other."""
        ...

    def undoable(self, before: S, seat: int, action: A, after: S) -> bool:
        """Whether `seat`'s `action`, which took `before` to `after`, may be taken back by
        consent of the table. The platform checks everything else: that it is the last
        action, by that seat, not a bot's, and that the game is unrated. True only for an
        action whose undoing hides nothing newly revealed and leaves no one else's decision
        undone: never an action that completes a trick, a hand or the auction, nor a
        reveal, nor one taken in a simultaneous phase."""
        ...

    def action_to_json(self, action: A) -> dict[str, Any]: ...

    def action_from_json(self, data: Mapping[str, Any]) -> A:
        """The action written by `action_to_json`; ValueError if malformed."""
        ...

    def state_to_json(self, state: S) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> S: ...


W = TypeVar("W")  # a game's view, where it is handed in


@dataclass(frozen=True)
class JsonForms(Generic[S, A]):
    """How a game writes its actions and states as JSON, and reads them back."""

    action_to_json: Callable[[A], dict[str, Any]]
    action_from_json: Callable[[Mapping[str, Any]], A]
    state_to_json: Callable[[S], dict[str, Any]]
    state_from_json: Callable[[Mapping[str, Any]], S]


@dataclass(frozen=True)
class EngineRules(Generic[S, A, W]):
    """A `Rules` made of the engine's functions: a game subclasses it with its two ways to
    begin (`initial_state`, `initial_state_from_deals`) and hands in the rest."""

    to_act: Callable[[S], frozenset[int]]
    legal_actions: Callable[[S, int], Sequence[A]]
    apply: Callable[[S, int, A], S]
    view: Callable[[S, int | None], W]
    outcome: Callable[[S], Outcome | None]
    hand_number: Callable[[S], int]
    decision_key: Callable[[S, int], str]
    undoable: Callable[[S, int, A, S], bool]
    json: JsonForms[S, A]

    def action_to_json(self, action: A) -> dict[str, Any]:
        return self.json.action_to_json(action)

    def action_from_json(self, data: Mapping[str, Any]) -> A:
        return self.json.action_from_json(data)

    def state_to_json(self, state: S) -> dict[str, Any]:
        return self.json.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        return self.json.state_from_json(data)


class Bot(Protocol[S_in, A_out]):
    """A machine player. `choose` must base its decision only on what `seat` may see
    (`rules.view(state, seat)`); it is asked only when `seat` has a legal action."""

    def choose(self, state: S_in, seat: int, rng: random.Random) -> A_out: ...


@dataclass(frozen=True)
class ViewBot(Generic[S, A]):
    """A bot that decides from the seat's view alone: `decide(rules.view(state, seat))`
    gives the action (None: the seat has nothing to do, an error for a bot). Such a bot
    cannot cheat, and `decide` doubles as the hint for a person."""

    rules: Rules[S, A, Any]
    decide: Callable[[Any], A | None]

    def choose(self, state: S, seat: int, rng: random.Random) -> A:
        action = self.decide(self.rules.view(state, seat))
        if action is None:
            raise ValueError(f"Seat {seat} has nothing to do.")
        return action


def replay(rules: Rules[S, A, Any], state: S, log: Iterable[tuple[int, A]]) -> S:
    """The state after applying each (seat, action) of `log` to `state` in order."""
    for seat, action in log:
        state = rules.apply(state, seat, action)
    return state


@dataclass(frozen=True)
class Teams:
    """Teams of a team game: `members[t]` are team t's seats, ascending."""

    members: tuple[tuple[int, ...], ...] = field(default_factory=tuple)

    def team_of(self, seat: int) -> int:
        return next(t for t, seats in enumerate(self.members) if seat in seats)


def alternating_teams(seats: int) -> Teams:
    """Two teams seated alternately: team 0 holds the even seats, team 1 the odd ones."""
    return Teams((tuple(range(0, seats, 2)), tuple(range(1, seats, 2))))
