"""A `Game`: lobby + state + automated seats, the seed library's operations in one object.

This is the one mutable object of the engine: a convenience wrapper over the pure functions
(`lobby`, `rules.apply`, `bots.suggestion`) for callers that want the library's shape, such as
the conformance replayer and simulations. Every call either succeeds or raises and leaves the
game as it was.

Automation (rules section 16): an automated seat plays its suggestion immediately whenever it
becomes active: after every accepted move, at the start and when the seat is automated, and
across rounds. It cannot be switched off. Each call returns the `Transition`s it caused, the
caller's own move first, so a caller can see every intermediate state.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import NamedTuple

from games.kinds import lobby as lobbies
from games.kinds.words import gettext_noop

from .bots import suggestion as naive_suggestion
from .moves import Bid, IllegalMove, Move, Play
from .rules import DEFAULT_TARGET, apply, new_game_from_source
from .state import DeckSource, GameState, RoundRecord, SeededDecks, Status


class Transition(NamedTuple):
    """One accepted move and the states around it; `auto` when the automation made it."""

    move: Move
    auto: bool
    before: GameState
    after: GameState


class StepEvents(NamedTuple):
    """What a move caused besides the new state (as the traces report it)."""

    trick_winner: int | None  # the move completed a trick won by this seat
    auto_passes: tuple[int, ...]  # pre-passes that fired as a consequence, in order
    round_end: RoundRecord | None  # the move finished this round


def events_of(before: GameState, after: GameState, move: Move) -> StepEvents:
    """The events of the accepted `move` that turned `before` into `after`."""
    round_end = after.history[-1] if len(after.history) > len(before.history) else None
    winner = None
    if isinstance(move, Play):
        if len(after.tricks) > len(before.tricks):
            winner = after.tricks[-1].winner
        elif round_end is not None and round_end.tricks:
            winner = round_end.tricks[-1].winner
    passes: tuple[int, ...] = ()
    if (
        isinstance(move, Bid)
        and before.status is Status.BIDDING
        and move.seat == before.active_seat
    ):
        bids = round_end.bids if round_end is not None else after.bids
        passes = tuple(seat for seat, _ in bids[len(before.bids) + 1 :])
    return StepEvents(winner, passes, round_end)


class Game:
    """A game from its lobby to its end.

    Identify people by string ids (the web uses user ids); moves use seats (0-based, the
    order of `players`). Decks: from `decks` (a `DeckSource`) when given, else from `seed`,
    else from a fresh random seed. Keep seeds server-side: a seed predicts every deal.
    """

    def __init__(
        self,
        organizer_id: str,
        *,
        seed: str | None = None,
        public: bool = False,
        decks: DeckSource | None = None,
        target: int = DEFAULT_TARGET,
    ) -> None:
        self.lobby = lobbies.new_lobby(organizer_id, public)
        if decks is None:
            # No seed given: a fresh secret one, so two such games never deal alike.
            decks = SeededDecks(seed if seed is not None else secrets.token_hex(16))
        self.decks: DeckSource = decks
        self.target = target
        self.state: GameState | None = None
        self._automated: set[str] = set()

    # --- lobby -----------------------------------------------------------------------------
    def invite(self, by: str, invitee_id: str) -> None:
        self.lobby = lobbies.invite(self.lobby, by, invitee_id)

    def join(self, who: str) -> None:
        self.lobby = lobbies.join(self.lobby, who)

    def decline(self, who: str) -> None:
        self.lobby = lobbies.decline(self.lobby, who)

    def leave(self, who: str) -> None:
        self.lobby = lobbies.leave(self.lobby, who)

    def add_bot(self, by: str, bot_id: str) -> None:
        """Seat a bot; it is automated from the start."""
        self.lobby = lobbies.add_bot(self.lobby, by, bot_id)
        self._automated.add(bot_id)

    def remove(self, by: str, who: str) -> None:
        self.lobby = lobbies.remove(self.lobby, by, who)
        self._automated.discard(who)

    @property
    def players(self) -> tuple[str, ...]:
        """Player ids in seat order."""
        return lobbies.players(self.lobby)

    def seat_of(self, person_id: str) -> int:
        """Seat of a player; LobbyError for anyone else."""
        try:
            return self.players.index(person_id)
        except ValueError:
            raise lobbies.LobbyError(gettext_noop("You are not playing in this game.")) from None

    def start(self, by: str) -> tuple[Transition, ...]:
        """Start (organizer only, 2-4 players), deal round 0 and run automated seats."""
        lobby = lobbies.start(self.lobby, by)
        self.state = new_game_from_source(self.decks, len(lobbies.players(lobby)), self.target)
        self.lobby = lobby
        return self._run_automation(())

    # --- play ------------------------------------------------------------------------------
    def _require_state(self) -> GameState:
        if self.state is None:
            raise IllegalMove(gettext_noop("The game has not started yet."), "not_started")
        return self.state

    def act(self, move: Move) -> tuple[Transition, ...]:
        """Apply `move` (IllegalMove leaves the game unchanged), then any automated moves."""
        before = self._require_state()
        after = apply(before, move)
        self.state = after
        return self._run_automation((Transition(move, False, before, after),))

    def automate(self, who: int | str) -> tuple[Transition, ...]:
        """Hand a seat (or a player id, also before the start) to the naive bot for good."""
        person = self.players[who] if isinstance(who, int) else who
        if person not in self.players:
            raise lobbies.LobbyError(gettext_noop("Only players can be automated."))
        self._automated.add(person)
        if self.state is None:
            return ()
        return self._run_automation(())

    def is_automated(self, who: int | str) -> bool:
        person = self.players[who] if isinstance(who, int) else who
        return person in self._automated

    def _run_automation(self, done: tuple[Transition, ...]) -> tuple[Transition, ...]:
        state = self.state
        assert state is not None
        seats = self.players
        steps = list(done)
        while state.active_seat is not None and seats[state.active_seat] in self._automated:
            move = naive_suggestion(state)
            after = apply(state, move)
            steps.append(Transition(move, True, state, after))
            state = after
        self.state = state
        return tuple(steps)

    def suggestion(self) -> Move:
        """The naive bot's move for the active seat."""
        return naive_suggestion(self._require_state())

    # --- queries ---------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        return Status.WAITING_FOR_PLAYERS if self.state is None else self.state.status

    @property
    def scores(self) -> tuple[int, ...]:
        return (0,) * len(self.players) if self.state is None else self.state.scores

    @property
    def winner(self) -> str | None:
        """Id of the winner once the game is won."""
        if self.state is None or self.state.winner is None:
            return None
        return self.players[self.state.winner]

    @property
    def active_player(self) -> str | None:
        """Id of the player expected to act, None before the start and after the end."""
        if self.state is None or self.state.active_seat is None:
            return None
        return self.players[self.state.active_seat]

    @property
    def rounds(self) -> Sequence[RoundRecord]:
        """Records of the finished rounds."""
        return () if self.state is None else self.state.history
