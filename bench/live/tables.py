"""The data, made with the Django ORM in this process against the daphnes' database: users,
sessions and started games of humans, with the turns they will play (the naive bot's moves,
chosen on a pure engine mirror of each game, as the table's form posts them), and the games
of bots the daphnes play in the background (--bot-tables)."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from bench.live.browser import Browser

# Players per table, unless --seats says otherwise.
PLAYERS = 4
# In usernames, so runs against the same PostgreSQL database never collide.
RUN_TOKEN = secrets.token_hex(3)


@dataclass
class Player:
    user_id: int
    session: str
    seat: int


# One move of a turn: (seat, form fields as the table's form posts them). A turn is every
# move the game waits for at once: one in a sequential phase, several in a simultaneous one.
Turn = list[tuple[int, dict[str, Any]]]


@dataclass
class BenchGame:
    game_id: int
    players: list[Player]
    turns: list[Turn]  # in order
    version: int = 0
    # Seconds over which a simultaneous turn's moves are spread (0: all at once, a burst).
    pace: float = 0.0
    browsers: dict[int, Browser] = field(default_factory=dict)  # seat -> its HTTP connection
    talkers: dict[int, Browser] = field(default_factory=dict)  # seat -> its chat's (--chat)


def make_games(
    count: int, first: int, slug: str, spread: int = 0, seats: int = PLAYERS
) -> list[BenchGame]:
    """`count` started games of `seats` humans of the kind `slug`, with the naive bot's
    turns chosen on a pure engine mirror of each game.

    `spread` > 0 (the measured turns of a step), in a game with simultaneous turns: the game
    is played in (through the ORM, before any socket opens) up to a random point 1 to
    `spread` turns before a simultaneous turn (the first one at index >= `spread`: Hearts'
    second pass), so that over the games those turns fall evenly across the measured turns
    (after the warm-up move) instead of all at the first."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import transaction

    from accounts.models import User
    from games import registry
    from games.models import Game, Membership
    from games.services import recording, states, table

    kind = registry.kind(slug)
    games: list[BenchGame] = []
    for n in range(first, first + count):
        users = []
        for seat in range(seats):
            user = User(username=f"bench{RUN_TOKEN}-{n}s{seat}", display_name=f"P{seat} of {n}")
            user.set_unusable_password()  # no hashing: fast to create
            users.append(user)
        User.objects.bulk_create(users)
        users = list(
            User.objects.filter(username__in=[u.username for u in users]).order_by("username")
        )
        with transaction.atomic():
            game = Game.objects.create(
                name=f"Bench {n}",
                kind=slug,
                options=kind.resolve_options({}),
                organizer=users[0],
                seed=f"bench-{n}",
                # Not rated: a rated game is reactions-only during a hand (games/talk/), and
                # --chat sends messages. Nothing else reads it before a game's end, which no
                # step reaches, so the moves cost the same either way.
                rated=Game.Rated.NO,
                max_players=seats,
            )
            Membership.objects.bulk_create(
                Membership(game=game, user=u, role="organizer" if s == 0 else "player", seat=s)
                for s, u in enumerate(users)
            )
            table.begin(game)
        players = []
        for seat, user in enumerate(users):
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            players.append(Player(user.pk, str(store.session_key), seat))
        mirror = mirror_turns(kind, game.seed, game.options, 120, seats)
        together = [i for i, turn in enumerate(mirror) if len(turn) > 1 and i >= spread]
        skip = 0
        if spread and together:
            # Warm-up move at together[0] - offset - 1, then `offset` measured turns before it.
            offset = random.Random(f"{RUN_TOKEN}:{n}").randrange(spread)
            skip = max(0, together[0] - offset - 1)
            with transaction.atomic():
                game = Game.objects.select_for_update().get(pk=game.pk)
                state = states.load_state(game)
                for turn in mirror[:skip]:
                    for seat, action, _ in turn:
                        state = recording.record(game, state, seat, action, auto=False)
        game.refresh_from_db()
        turns = [[(seat, fields) for seat, _, fields in turn] for turn in mirror[skip:]]
        games.append(BenchGame(game.pk, players, turns, game.version))
    return games


def start_bot_tables(count: int, slug: str, level: str, seats: int) -> list[int]:
    """`count` games of `seats` bots of `level`, started, for the daphnes to play in the
    background (`--bot-tables`). The daphnes' deadline sweeps find their first bot moves due
    at their next look (games/clocks/deadlines.py) and play on, one move per BOT_DELAY_SECONDS."""
    from django.conf import settings
    from django.db import transaction

    from accounts.models import User
    from games import registry
    from games.models import Game, Membership
    from games.services import table

    organizer = User(username=f"bench{RUN_TOKEN}-bots", display_name="Bench bots")
    organizer.set_unusable_password()
    organizer.save()
    ids = []
    settings.BOT_DELAY_SECONDS = 1.0  # not played here, at once, in the start's transaction
    for n in range(count):
        with transaction.atomic():
            game = Game.objects.create(
                name=f"Bots {n}",
                kind=slug,
                options=registry.kind(slug).resolve_options({}),
                organizer=organizer,
                seed=f"bench-bots-{RUN_TOKEN}-{n}",
                max_players=seats,
            )
            Membership.objects.bulk_create(
                Membership(game=game, role="player", seat=s, bot=level, bot_name=f"Bot {s}")
                for s in range(seats)
            )
            table.begin(game)
        ids.append(game.pk)
    return ids


def bot_moves(ids: list[int]) -> int:
    """The moves the background bot tables have made so far."""
    from django.db.models import Sum

    from games.models import Game

    return int(Game.objects.filter(pk__in=ids).aggregate(n=Sum("action_count"))["n"] or 0)


def mirror_turns(
    kind: Any, seed: str, options: dict[str, Any], count: int, seats: int = PLAYERS
) -> list[list[tuple[int, Any, dict[str, Any]]]]:
    """The first `count` turns of the game dealt from `seed`, the naive bot playing every
    seat: per turn, (seat, action, form fields) of each move. In a simultaneous phase each
    waiting seat chooses on the same state (it cannot see the others' choices), so the order
    the server applies them in changes nothing."""
    rules, bot, form = kind.rules, kind.bots["naive"], FORMS[kind.slug]
    state = rules.initial_state(seed, seats, options)
    rng = random.Random(seed)
    turns: list[list[tuple[int, Any, dict[str, Any]]]] = []
    while len(turns) < count and (waiting := sorted(rules.to_act(state))):
        chosen = [(seat, bot.choose(state, seat, rng)) for seat in waiting]
        for seat, action in chosen:
            state = rules.apply(state, seat, action)
        turns.append([(seat, action, form(action)) for seat, action in chosen])
    return turns


def hundred_and_ten_form(move: Any) -> dict[str, Any]:
    from games.kinds.hundred_and_ten import engine

    if isinstance(move, engine.Bid):
        return {"kind": "bid", "amount": str(move.amount)}
    if isinstance(move, engine.Unpass):
        return {"kind": "unpass"}
    if isinstance(move, engine.SelectTrump):
        return {"kind": "trump", "suit": move.suit}
    if isinstance(move, engine.Discard):
        return {"kind": "discard", "cards": [engine.format_card(c) for c in move.cards]}
    return {"kind": "play", "card": engine.format_card(move.card)}


def hearts_form(action: Any) -> dict[str, Any]:
    from games.kinds.hearts import engine

    if isinstance(action, engine.Pass):
        return {"kind": "pass", "cards": [engine.card_code(c) for c in action.cards]}
    return {"kind": "play", "card": engine.card_code(action.card)}


def one_hundred_and_four_form(action: Any) -> dict[str, Any]:
    from games.kinds.one_hundred_and_four import engine

    if isinstance(action, engine.TakeRow):
        return {"kind": "take_row", "row": str(action.row)}
    return {"kind": "choose", "card": str(action.card)}


# The fields the table's form posts for an action, by game kind: one line per game.
FORMS = {
    "hundred-and-ten": hundred_and_ten_form,
    "hearts": hearts_form,
    "one-hundred-and-four": one_hundred_and_four_form,
}
