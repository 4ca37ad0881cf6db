"""Table talk's commands: say, react, mute, set the game's talk. Each checks with
games/talk/rules.py, writes in one transaction and pushes after commit (games/live/realtime.py):
the push carries ids only, each socket draws the line for its own user."""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.access import visible_game_or_404
from games.live import realtime
from games.models import Game, Membership
from games.talk import presenter, rules
from games.talk.models import MAX_TEXT, Channel, ChatMessage, ChatMute
from games.talk.rules import Refused

if TYPE_CHECKING:
    from accounts.models import User

# A limiter says whether one more message may go now (the view's: allauth's rate limit).
Limiter = Callable[[], bool]
log = logging.getLogger(__name__)

SLOW_DOWN = gettext_lazy("You are talking fast: wait a few seconds before the next message.")


def clean_text(raw: Any) -> str:
    """The message as it will be stored, or Refused(400) saying what is wrong with it."""
    if not isinstance(raw, str):
        raise Refused(_("Write a message first."), 400)
    text = raw.strip()
    if not text:
        raise Refused(_("Write a message first."), 400)
    if len(text) > MAX_TEXT:
        raise Refused(
            _("A message is at most %(most)s characters (%(given)s given).")
            % {"most": MAX_TEXT, "given": len(text)},
            400,
        )
    # Text only: no control characters (NUL above all: PostgreSQL refuses it), and no U+FFFD,
    # which is what bytes that were not UTF-8 became when the POST was decoded.
    if "\ufffd" in text or any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise Refused(_("That message could not be read: write plain text."), 400)
    return text


def _game(game_id: int, user: User) -> tuple[Game, rules.Viewer]:
    game = visible_game_or_404(user, game_id)  # a private game's outsiders: 404
    viewer = rules.viewer_of(game, user)
    return game, viewer


def _said(message: ChatMessage, game: Game) -> None:
    def push() -> None:
        # Drawn here, once, after the commit (presenter.drawn), not by each socket.
        try:
            line = presenter.drawn(message, game)
        except Exception:  # the sockets then draw it themselves (presenter.pushed)
            log.exception("drawing chat line %s failed", message.pk)
            line = None
        realtime.talk_said(game.pk, message.pk, line)

    transaction.on_commit(push)


@transaction.atomic
def say(*, game_id: int, user: User, text: Any, limiter: Limiter) -> ChatMessage:
    """`user` writes `text` at the game, to the channel they may write to."""
    game, viewer = _game(game_id, user)  # first: an outsider learns nothing, not even a 400
    clean = clean_text(text)
    channel = rules.check_chat(game, viewer)
    if not limiter():
        raise Refused(str(SLOW_DOWN), 429)
    message = ChatMessage.objects.create(
        game=game,
        user=user,
        channel=channel,
        text=clean,
        seat=viewer.seat,
        at_action=game.action_count,
    )
    _said(message, game)
    return message


@transaction.atomic
def react(*, game_id: int, user: User, code: Any, limiter: Limiter) -> ChatMessage:
    """A seated player sends a quick reaction (a code of rules.REACTIONS)."""
    game, viewer = _game(game_id, user)  # first: an outsider learns nothing, not even a 400
    if not isinstance(code, str) or code not in rules.REACTIONS:
        raise Refused(_("That is not one of the reactions."), 400)
    rules.check_reaction(game, viewer)
    if not limiter():
        raise Refused(str(SLOW_DOWN), 429)
    message = ChatMessage.objects.create(
        game=game,
        user=user,
        channel=Channel.PLAYERS,
        reaction=code,
        seat=viewer.seat,
        at_action=game.action_count,
    )
    _said(message, game)
    return message


@transaction.atomic
def set_mode(*, game_id: int, user: User, mode: Any) -> Game:
    """The organizer sets the game's talk (rules: on, reactions only, off)."""
    game = visible_game_or_404(user, game_id, for_update=True)
    if game.organizer_id != user.pk:
        raise Refused(_("Only the organizer sets the table talk."))
    if mode not in Game.Talk.values:
        raise Refused(_("That is not a choice for the table talk."), 400)
    if game.talk_mode != mode:
        game.talk_mode = mode
        game.save(update_fields=["talk_mode"])
        game_id = game.pk
        transaction.on_commit(lambda: realtime.talk_changed(game_id))
    return game


@transaction.atomic
def mute(*, game_id: int, user: User, other_id: Any, muted: bool) -> None:
    """`user` mutes (or unmutes) somebody who talked at, or is a member of, a game they may
    see (muting works from a seat too, before the person has said anything)."""
    game, _viewer = _game(game_id, user)
    if not isinstance(other_id, int):
        raise Refused(_("Whom to mute could not be read."), 400)
    if other_id == user.pk:
        raise Refused(_("You cannot mute yourself."), 400)
    if not muted:
        ChatMute.objects.filter(user=user, muted_id=other_id).delete()
        return
    if not (
        Membership.objects.filter(game=game, user_id=other_id).exists()
        or ChatMessage.objects.filter(game=game, user_id=other_id).exists()
    ):
        raise Http404("Nobody by that number is at this game.")
    ChatMute.objects.get_or_create(user=user, muted_id=other_id)
