"""What a change at the table tells the parts that build on the service: what changed
(`signals.TableChange`: whose turn began, whether it ended, the moves) is announced inside
the transaction (the mail rows are written with it) and again once it commits (the redraws,
the pushes to every page and lobby, the sweep's wake-up for a bot to move)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games import signals
from games.models import Game, Membership
from games.services.bot_choice import bot_seats
from games.services.change import change_of
from games.services.states import kind_of, memberships, seated
from games.signals import TableChange


def after_change(
    game: Game,
    before: Any,
    after: Any,
    *,
    mover_seat: int | None,
    members: tuple[Membership, ...] | None = None,
    moves: Sequence[tuple[int, Any]] = (),
) -> None:
    """Announce the change: now (`signals.table_changed`) and
    after commit (`signals.version_committed`, then `signals.table_committed`).

    `members` are every membership if the caller has just read them (`memberships(game)`,
    under the game's lock, after any change to them). `mover_seat` None: the game started or
    a seat changed hands, so everybody's turn may have changed. `moves`: what the caller
    recorded, when those moves are all that changed the game (its members apart from whose
    turn it is, their clocks and who plays them): the push then carries them, so another
    process advances its copy of the table without reading it (`games.presenters.basis.adopt`).
    """
    rules = kind_of(game).rules
    # With a clock, the rows as the moves left them (their deadlines): the redraws show them.
    everyone = memberships(game) if members is None or game.move_seconds else members
    by_seat = seated(game, everyone)
    moves = list(moves)
    member_ids = [m.user_id for m in by_seat.values() if m.user_id is not None]
    waited = rules.to_act(before) if mover_seat is not None else frozenset()
    waiting = rules.to_act(after)

    def human(seat: int) -> int | None:
        member = by_seat.get(seat)
        if member is None or member.plays_itself or member.user_id is None:
            return None
        return member.user_id

    # It has just become these players' turn (they get the cue: chime, title, notification);
    # the mover who acts again (a trick's winner leads) is at the table already.
    fresh = [uid for s in waiting - waited if s != mover_seat and (uid := human(s)) is not None]
    ended = rules.outcome(after) is not None
    turn_changed = waited != waiting or mover_seat is None
    # Whose turn banner may change: the players whose turn ended or began (everybody's at
    # the start and the end, or when a seat changed hands).
    banner_for: list[int] | None = None
    if not ended and mover_seat is not None:
        banner_for = [
            m.user_id
            for seat in (waited ^ waiting) | {mover_seat}
            if (m := by_seat.get(seat)) is not None and m.user_id is not None
        ]

    table_change = TableChange(
        game=game,
        members=everyone,
        member_ids=member_ids,
        fresh=fresh,
        ended=ended,
        turn_changed=turn_changed,
        banner_for=banner_for,
        moves=change_of(game, rules, moves, everyone) if moves else None,
        bots_to_move=not ended and bool(bot_seats(game, after, by_seat)),
    )
    signals.table_changed.send(sender=Game, change=table_change)

    def committed() -> None:
        signals.version_committed.send(
            sender=Game, game=game, members=everyone, moves=table_change.moves
        )
        signals.table_committed.send(sender=Game, change=table_change)

    transaction.on_commit(committed)
