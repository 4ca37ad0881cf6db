"""Fixtures for tests/games (shared by the lobby and table tests; small additive edits only)."""

from __future__ import annotations

import copy
import functools

import pytest
from django.urls import reverse

from games.kinds.hundred_and_ten import engine
from games.live import presence
from games.models import GameAction, Membership
from tests.conftest import HX


@pytest.fixture(autouse=True)
def _bots_without_pause(settings):
    """No pause between bot moves: each is due at once, and made by the sweep as soon as the
    change that made it due commits (tests/bots.py `play_bots`)."""
    settings.BOT_DELAY_SECONDS = 0


# --- table helpers (table engineer) ------------------------------------------------------


def seat_game(
    humans,
    bots=0,
    *,
    seed="table-seed",
    public=False,
    name="Table",
    kind=None,
    options=None,
    rated="people",
):
    """A waiting game with `humans` (users) in seats 0.. and then `bots` naive bots."""
    from games.models import DEFAULT_KIND, Game, Membership

    game = Game.objects.create(
        name=name,
        kind=kind or DEFAULT_KIND,
        options=options or {},
        organizer=humans[0],
        public=public,
        seed=seed,
        max_players=len(humans) + bots,
        rated=rated,
    )
    for seat, user in enumerate(humans):
        Membership.objects.create(
            game=game, user=user, role="organizer" if seat == 0 else "player", seat=seat
        )
    for i in range(bots):
        Membership.objects.create(
            game=game, role="player", seat=len(humans) + i, bot="naive", bot_name=f"Bot {i + 1}"
        )
    return game


def clocked_table(humans, bots=0, *, seconds=30, **kwargs):
    """A started game (as `seat_game` makes it) with a clock of `seconds` per move."""
    from django.db import transaction

    from games.services import table

    game = seat_game(humans, bots, **kwargs)
    game.move_seconds = seconds
    game.save(update_fields=["move_seconds"])
    with transaction.atomic():
        table.begin(game)
    game.refresh_from_db()
    return game


def start_table(humans, bots=0, *, target=None, **kwargs):
    """A started game (Snapshot 0 written by table.begin; bots played up to a human).
    `target`: Hundred and Ten's winning score (long games in tests raise it)."""
    from django.db import transaction

    from games.services import table

    if target is not None:
        kwargs["options"] = {**kwargs.get("options", {}), "target": target}
    game = seat_game(humans, bots, **kwargs)
    with transaction.atomic():
        table.begin(game)
    game.refresh_from_db()
    return game


# --- lobby helpers (lobby engineer) ------------------------------------------------------


@pytest.fixture(autouse=True)
def _quick_passwords(settings):
    """Personas are made with real passwords; a fast hasher keeps setup cheap here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def friday(alice, bob, carol, dave):
    """A private waiting game: alice organizes (seat 0), bob plays (seat 1), carol is
    invited (pending), dave is an outsider. Built through the lobby services."""
    from games.services import lobby

    game = lobby.create_game(organizer=alice, name="Friday cards", public=False, max_players=4)
    lobby.invite(game_id=game.pk, by=alice, username="bob")
    lobby.accept(game_id=game.pk, user=bob)
    lobby.invite(game_id=game.pk, by=alice, username="carol")
    game.refresh_from_db()
    return game


@pytest.fixture
def pushes(monkeypatch):
    """Records the realtime helpers' calls instead of sending them: [(name, args), ...],
    and ("turn", (user id, game id)) for a lobby change that starts a user's turn."""
    from games.live import realtime

    calls = []

    def record(*args, _name, turn_users=(), game_id=None, **_):
        calls.append((_name, args))
        for user_id in turn_users:
            calls.append(("turn", (user_id, game_id)))

    for name in (
        "game_changed",
        "lobby_changed",
        "invitation_received",
        "game_started",
        "public_games_changed",
    ):
        monkeypatch.setattr(realtime, name, functools.partial(record, _name=name))
    return calls


# --- moves for the table service ---------------------------------------------------------


def choice_of(move):
    """A Hundred and Ten engine move as the table service's choice (it names its seat)."""
    return lambda kind, seat: move


def play_to_the_end(game, players, *, moves=None, seed=3) -> None:
    """Random legal moves of Hundred and Ten (a fixed sequence, by `seed`) by the player to
    act, `players` by seat, to the end of the game (or `moves` of them); the bots move by
    themselves."""
    import random

    from games.kinds.hundred_and_ten import engine
    from games.models import Game
    from games.services import states, table

    rng = random.Random(seed)
    made = 0
    while game.status != Game.Status.FINISHED and (moves is None or made < moves):
        made += 1
        state = states.load_state(game)
        seat = state.active_seat
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        table.submit_move(
            game_id=game.pk, user=players[seat], choice=choice_of(move), seen_version=game.version
        )
        game.refresh_from_db()


def bid_choice(amount):
    """Bid `amount` (0 = pass) from whatever seat the user holds."""
    from games.kinds.hundred_and_ten import engine

    return lambda kind, seat: engine.Bid(seat, amount)


def active_seat(game):
    """The seat the game waits for (the lowest, in a simultaneous phase), or None."""
    from games.models import Membership

    return (
        Membership.objects.filter(game=game, must_act=True)
        .order_by("seat")
        .values_list("seat", flat=True)
        .first()
    )


# --- the table views (test_table_*_views.py; the absence views too) ----------------------


def url(name, game):
    return reverse(name, kwargs={"game_id": game.pk})


def post_move(client, game, **data):
    return client.post(url("move", game), data, headers=HX)


def form_of(move, version):
    """The move form fields of a Hundred and Ten move, posted from a page at `version`."""
    data = {"version": version}
    if isinstance(move, engine.Bid):
        data.update(kind="bid", amount=move.amount)
    elif isinstance(move, engine.Unpass):
        data.update(kind="unpass")
    elif isinstance(move, engine.SelectTrump):
        data.update(kind="trump", suit=move.suit)
    elif isinstance(move, engine.Discard):
        data.update(kind="discard", cards=[engine.format_card(c) for c in move.cards])
    else:
        data.update(kind="play", card=engine.format_card(move.card))
    return data


def state_answered(game, actions_before):
    """The state a move's answer shows: the game as the mover's action left it (the answer
    is drawn before any bot moves; the sweep makes their moves after it)."""
    from games.services import states

    answered = copy.copy(game)
    answered.action_count = actions_before + 1
    return states.load_state(answered)


def unchanged(game, version, actions):
    game.refresh_from_db()
    return game.version == version and GameAction.objects.filter(game=game).count() == actions


@pytest.fixture
def two(alice, bob):
    """alice (seat 0, dealer) and bob (seat 1, first to bid)."""
    return start_table([alice, bob], seed="views")


# --- absence (test_absence_*.py) -----------------------------------------------------------

T0 = 1_700_000_000.0  # where the `clock` fixture starts: seconds since the epoch


@pytest.fixture
def clock(monkeypatch):
    """presence's clock, set by the test: clock.at = seconds since the epoch."""

    class Clock:
        at = T0

    monkeypatch.setattr(presence, "now", lambda: Clock.at)
    return Clock


@pytest.fixture
def three(alice, bob, carol):
    """alice (organizer, seat 0, dealer), bob (seat 1, first to bid), carol (seat 2)."""
    return start_table([alice, bob, carol], seed="absence")


def here(game, user):
    presence.join(game.pk, user.pk)


def gone(game, user, clock, at):
    """`user` had the table open and left it at `at`."""
    clock.at = at
    presence.join(game.pk, user.pk)
    presence.leave(game.pk, user.pk)


def member(game, user):
    return Membership.objects.get(game=game, user=user)
