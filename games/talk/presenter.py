"""What table talk shows one viewer: the chat panel (templates/games/_chat.html) with the
history they may read, and the lines pushed to their sockets. Every text is the person's
own, escaped by the templates (never |safe, never made into a link)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse

from games.models import Game
from games.talk import rules
from games.talk.models import MAX_TEXT, Channel, ChatMessage, ChatMute

HISTORY = 200  # the latest lines a page opens with


def line(message: ChatMessage, viewer_id: int | None) -> dict[str, Any]:
    shown, label = rules.REACTIONS.get(message.reaction, ("", ""))
    return {
        "id": message.pk,
        "user_id": message.user_id,
        "name": message.user.shown_name,
        "text": message.text,
        "reaction": message.reaction,
        "shown": shown,
        "label": label,
        "spectators": message.channel == Channel.SPECTATORS,
        "mine": message.user_id == viewer_id,
        "seat": message.seat,
        "at_action": message.at_action,
    }


def readable(game: Game, viewer: rules.Viewer) -> QuerySet[ChatMessage]:
    """The messages `viewer` may read at `game`, oldest first."""
    channels = rules.read_channels(game, viewer)
    return (
        ChatMessage.objects.filter(game=game, channel__in=channels)
        .exclude(user_id__in=rules.hidden_senders(viewer.user_id))
        .select_related("user")
        .order_by("pk")
    )


def history(game: Game, viewer: rules.Viewer, upto: int | None = None) -> list[dict[str, Any]]:
    """The latest lines `viewer` may read (said by the `upto`-th move, for a replay)."""
    messages = readable(game, viewer)
    if upto is not None:
        messages = messages.filter(at_action__lte=upto)
    latest = list(messages.order_by("-pk")[:HISTORY])
    return [line(m, viewer.user_id) for m in reversed(latest)]


def rule_text(game: Game, viewer: rules.Viewer) -> str:
    """One sentence: what this viewer may say here now, and to whom."""
    channel = rules.write_channel(game, viewer)
    if game.talk_mode == Game.Talk.OFF:
        return "The organizer has turned table talk off for this game."
    if channel is None:
        return ""
    if game.talk_mode == Game.Talk.REACTIONS:
        return "Reactions only at this game (the organizer's choice)."
    if channel == Channel.SPECTATORS:
        if game.status in rules.OVER:
            return "You write to the spectators; everybody can read both chats now."
        return "You write to the spectators: the players see it once the game is over."
    if game.status not in rules.OVER and rules.is_rated(game):
        return rules.RATED_NOTE
    return "You write to everybody at this game."


def panel(game: Game, user: Any, *, upto: int | None = None) -> dict[str, Any]:
    """The chat panel's context for `user` (`upto`: a replay's step, read-only)."""
    viewer = rules.viewer_of(game, user)
    channel = rules.write_channel(game, viewer) if upto is None else None
    mutes = (
        list(ChatMute.objects.filter(user_id=viewer.user_id).select_related("muted").order_by("pk"))
        if viewer.user_id is not None
        else []
    )
    return {
        "talk_game": game,
        "talk_lines": history(game, viewer, upto),
        "talk_rule": rule_text(game, viewer) if upto is None else "",
        "talk_channel": channel,
        "talk_can_chat": channel is not None and game.talk_mode == Game.Talk.ON,
        "talk_can_react": (
            channel is not None and viewer.seated and game.talk_mode != Game.Talk.OFF
        ),
        "talk_reactions": [
            {"code": code, "shown": shown, "label": label, "key": str(n)}
            for n, (code, (shown, label)) in enumerate(rules.REACTIONS.items(), start=1)
        ],
        "talk_mutes": [{"id": m.muted_id, "name": m.muted.shown_name} for m in mutes],
        "talk_organizer": upto is None and game.organizer_id == viewer.user_id,
        "talk_modes": Game.Talk.choices,
        "talk_max": MAX_TEXT,
        "talk_replay": upto is not None,
        "talk_urls": urls(game.pk),
    }


def urls(game_id: int) -> dict[str, str]:
    return {
        name: reverse(f"talk-{name}", args=[game_id])
        for name in ("say", "react", "mute", "mode", "log")
    }


def pushed(game_id: int, user: Any, message_id: int) -> str:
    """The frame a socket of `user` sends for a new message: the line appended to the log
    (and a reaction's bubble), or "" when `user` may not read it (or the game is gone)."""
    game = Game.objects.filter(pk=game_id).first()
    message = (
        ChatMessage.objects.filter(pk=message_id, game_id=game_id).select_related("user").first()
    )
    if game is None or message is None:
        return ""
    viewer = rules.viewer_of(game, user)
    if message.channel not in rules.read_channels(game, viewer):
        return ""
    if message.user_id in rules.hidden_senders(viewer.user_id):
        return ""
    context = {"l": line(message, viewer.user_id), "talk_urls": urls(game_id)}
    return render_to_string("games/_chat.html#pushed", context)


def rule_frame(game_id: int, user: Any) -> str:
    """The rule line redrawn for `user` (out of band), after the organizer changed it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return ""
    viewer = rules.viewer_of(game, user)
    if not viewer.may_see:
        return ""
    context = {"talk_rule": rule_text(game, viewer), "oob": True}
    return render_to_string("games/_chat.html#rule", context)
