"""What table talk shows one viewer: the chat panel (templates/games/_chat.html) with the
history they may read, and the lines pushed to their sockets. Every text is the person's
own, escaped by the templates (never |safe, never made into a link)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import blocking
from games.live.committed import CommittedCache
from games.models import Game, Membership
from games.ratings.service import rated
from games.talk import rules
from games.talk.models import MAX_TEXT, Channel, ChatMessage, ChatMute

if TYPE_CHECKING:
    from accounts.models import User
    from games.presenters.basis import TableBasis

HISTORY = 200  # the latest lines a page opens with


def said(message: ChatMessage) -> dict[str, Any]:
    """What a line shows, whoever reads it and in whatever language (plain values: a push
    carries it, `drawn`)."""
    return {
        "id": message.pk,
        "user_id": message.user_id,
        "name": message.user.shown_name,
        "text": message.text,
        "reaction": message.reaction,
        "channel": message.channel,
        "seat": message.seat,
        "at_action": message.at_action,
    }


def line_of(raw: dict[str, Any], viewer_id: int | None) -> dict[str, Any]:
    """A line's template context for `viewer_id`, from `said`: the reaction's words in the
    active language."""
    shown, label = rules.REACTIONS.get(raw["reaction"], ("", ""))
    return {
        **{key: value for key, value in raw.items() if key != "channel"},
        "shown": shown,
        "label": label,
        "spectators": raw["channel"] == Channel.SPECTATORS,
        "mine": raw["user_id"] == viewer_id,
    }


def line(message: ChatMessage, viewer_id: int | None) -> dict[str, Any]:
    return line_of(said(message), viewer_id)


def readable(
    game: Game, viewer: rules.Viewer, hidden: set[int] | None = None
) -> QuerySet[ChatMessage]:
    """The messages `viewer` may read at `game`, oldest first (`hidden`: the senders hidden
    from them, `rules.hidden_senders`, when the caller has read them)."""
    channels = rules.read_channels(game, viewer)
    if hidden is None:
        hidden = rules.hidden_senders(viewer.user_id)
    return (
        ChatMessage.objects.filter(game=game, channel__in=channels)
        .exclude(user_id__in=hidden)
        .select_related("user")
        .order_by("pk")
    )


def history(
    game: Game, viewer: rules.Viewer, upto: int | None = None, hidden: set[int] | None = None
) -> list[dict[str, Any]]:
    """The latest lines `viewer` may read (said by the `upto`-th move, for a replay)."""
    messages = readable(game, viewer, hidden)
    if upto is not None:
        messages = messages.filter(at_action__lte=upto)
    latest = list(messages.order_by("-pk")[:HISTORY])
    return [line(m, viewer.user_id) for m in reversed(latest)]


def rule_text(game: Game, viewer: rules.Viewer, *, rated: bool | None = None) -> str:
    """One sentence: what this viewer may say here now, and to whom (`rated`: whether the
    game is rated, when the caller knows it without a query)."""
    channel = rules.write_channel(game, viewer)
    if game.talk_mode == Game.Talk.OFF:
        return _("The organizer has turned table talk off for this game.")
    if channel is None:
        return ""
    if game.talk_mode == Game.Talk.REACTIONS:
        return _("Reactions only at this game (the organizer's choice).")
    if channel == Channel.SPECTATORS:
        if game.status in rules.OVER:
            return _("You write to the spectators; everybody can read both chats now.")
        return _("You write to the spectators: the players see it once the game is over.")
    if game.status not in rules.OVER and (rules.is_rated(game) if rated is None else rated):
        return str(rules.RATED_NOTE)
    return _("You write to everybody at this game.")


# (whether the game is rated, whether a hand is being played), when known without a query.
Known = tuple[bool, bool]


def chat_open(
    game: Game, viewer: rules.Viewer, channel: str | None, known: Known | None = None
) -> bool:
    """Whether the message box is offered: what rules.check_chat accepts now."""
    if channel is None or game.talk_mode != Game.Talk.ON:
        return False
    if game.rated == Game.Rated.NO or game.status != Game.Status.ACTIVE:
        return True
    if known is not None:
        return not (known[0] and known[1])
    return not (rules.hand_in_progress(game) and rules.is_rated(game))


def composer_state(
    game: Game, viewer: rules.Viewer, *, replay: bool = False, known: Known | None = None
) -> tuple[str, str | None, bool, bool]:
    """What the composer says and offers `viewer` now: the rule line, the channel written
    to, whether the message box and the reactions are offered. A socket compares it with the
    last one drawn before it draws again (games/consumers/game.py `composer_frame`)."""
    channel = rules.write_channel(game, viewer) if not replay else None
    rated = known[0] if known is not None else None
    return (
        rule_text(game, viewer, rated=rated) if not replay else "",
        channel,
        chat_open(game, viewer, channel, known),
        channel is not None and viewer.seated and game.talk_mode != Game.Talk.OFF,
    )


def composer(
    game: Game,
    viewer: rules.Viewer,
    *,
    replay: bool = False,
    known: Known | None = None,
    state: tuple[str, str | None, bool, bool] | None = None,
) -> dict[str, Any]:
    """The rule line, the reaction buttons and the message box for `viewer` now (`known`:
    from the table basis, so that a socket's redraw of the table reads nothing; `state`:
    `composer_state`, when the caller has it)."""
    if state is None:
        state = composer_state(game, viewer, replay=replay, known=known)
    rule, channel, can_chat, can_react = state
    return {
        "talk_game": game,
        "talk_rule": rule,
        "talk_channel": channel,
        "talk_can_chat": can_chat,
        "talk_can_react": can_react,
        "talk_reactions": [
            {"code": code, "shown": str(shown), "label": str(label), "key": str(n)}
            for n, (code, (shown, label)) in enumerate(rules.REACTIONS.items(), start=1)
        ],
        "talk_max": MAX_TEXT,
        "talk_urls": urls(game.pk),
    }


def people(
    game: Game,
    viewer: rules.Viewer,
    muted: set[int],
    blocked: set[int],
    members: Iterable[Membership] | None = None,
) -> list[dict[str, Any]]:
    """The other people seated at the game, each with a mute toggle (somebody who has not
    talked yet can be muted too); those blocked either way are left out: they are hidden
    anyway (rules.hidden_senders). `members`: every membership with its user, when the
    caller has them."""
    if viewer.user_id is None or not viewer.may_see:
        return []
    if members is None:
        members = list(
            Membership.objects.filter(game=game, seat__isnull=False).select_related("user")
        )
    seated = sorted(
        (
            m
            for m in members
            if m.seat is not None
            and m.user is not None
            and m.user_id != viewer.user_id
            and m.user_id not in blocked
        ),
        key=lambda m: m.seat or 0,
    )
    return [
        {"id": m.user_id, "name": m.user.shown_name, "muted": m.user_id in muted}
        for m in seated
        if m.user is not None
    ]


@dataclass(frozen=True)
class AtTable:
    """What a table's drawing already knows that the chat panel needs (from the table basis,
    games/presenters/basis.py): every membership with its user, and `known` (whether the
    game is rated, whether a hand is being played). The panel then reads none of it again."""

    members: tuple[Membership, ...]
    known: Known

    @classmethod
    def of(cls, game: Game, basis: TableBasis) -> AtTable:
        return cls(basis.members, (rated(game, basis.seated.values()), basis.in_hand))


def panel(
    game: Game, user: User, *, upto: int | None = None, at_table: AtTable | None = None
) -> dict[str, Any]:
    """The chat panel's context for `user` (`upto`: a replay's step, read-only). Reads the
    user's mutes and blocks once each, and the lines; the members too without `at_table`."""
    if at_table is not None:
        viewer = rules.viewer_among(game, user, at_table.members)
    else:
        viewer = rules.viewer_of(game, user)
    replay = upto is not None
    mutes: list[ChatMute] = []
    blocked: set[int] = set()
    if viewer.user_id is not None:
        mutes = list(
            ChatMute.objects.filter(user_id=viewer.user_id).select_related("muted").order_by("pk")
        )
        blocked = blocking.blocked_either_way(viewer.user_id)
    muted = {m.muted_id for m in mutes}
    members = at_table.members if at_table is not None else None
    here = [] if replay else people(game, viewer, muted, blocked, members)
    listed = {p["id"] for p in here}
    known = at_table.known if at_table is not None else None
    return {
        **composer(game, viewer, replay=replay, known=known),
        "talk_lines": history(game, viewer, upto, hidden=muted | blocked),
        "talk_people": here,
        "talk_mutes": [  # muted people not listed above (met at other games)
            {"id": m.muted_id, "name": m.muted.shown_name}
            for m in mutes
            if m.muted_id not in listed
        ],
        "talk_organizer": not replay and game.organizer_id == viewer.user_id,
        "talk_modes": Game.Talk.choices,
        "talk_replay": replay,
    }


def urls(game_id: int) -> dict[str, str]:
    return {
        name: reverse(f"talk-{name}", args=[game_id])
        for name in ("say", "react", "mute", "mode", "log")
    }


# A line whose sender is hidden from more people than this is pushed by id alone, each
# socket deciding with queries (`pushed`): the event stays small.
MOST_HIDING = 200


def drawn(message: ChatMessage, game: Game) -> dict[str, Any] | None:
    """A new line drawn once for every socket of the game, in every process: the line as
    its sender sees it and as everybody else does (the only difference a reader makes),
    with what a socket needs to decide, without a query, whether its user reads it (as
    `pushed` decides). The members and who hides the sender are read once, after the
    message committed; whether the game is public and over comes from `game`, the row the
    message was accepted against. None when the sender is hidden from too many people to
    carry their ids.

    Drawn in the active language (the sender's): a socket reading another draws the line
    again from what it says (`said`), once per language and process (`frame_for`)."""
    hiding = rules.hiding(message.user_id)
    if len(hiding) > MOST_HIDING:
        return None
    members = list(
        Membership.objects.filter(game_id=game.pk, user__isnull=False).values_list(
            "user_id", "seat"
        )
    )
    context: dict[str, Any] = {"talk_urls": urls(game.pk)}
    raw = said(message)
    return {
        "game": game.pk,
        "said": raw,
        "language": translation.get_language(),
        "sender": message.user_id,
        "channel": message.channel,
        "over": game.status in rules.OVER,
        "public": game.public,
        "members": [user_id for user_id, _ in members],
        "seated": [user_id for user_id, seat in members if seat is not None],
        "hiding": sorted(hiding),
        "mine": render_to_string(
            "games/_chat.html#pushed", {**context, "l": line_of(raw, message.user_id)}
        ),
        "other": render_to_string("games/_chat.html#pushed", {**context, "l": line_of(raw, None)}),
    }


# A pushed line drawn again in another language than its sender's, by everything it is
# drawn from: once per process and language, whatever the number of its readers.
_REDRAWN: CommittedCache[str, str] = CommittedCache(size=512)


def drawn_in(line_drawn: dict[str, Any], mine: bool, language: str) -> str:
    """The line of `drawn` as its sender's copy (`mine`) or anybody else's, in `language`."""
    raw, game_id = line_drawn["said"], int(line_drawn["game"])
    key = repr((language, mine, game_id, sorted(raw.items())))
    html = _REDRAWN.get(key)
    if html is None:
        viewer = raw["user_id"] if mine else None
        context = {"talk_urls": urls(game_id), "l": line_of(raw, viewer)}
        with translation.override(language):
            html = render_to_string("games/_chat.html#pushed", context)
        _REDRAWN.put_now(key, html)
    return html


def frame_for(line_drawn: dict[str, Any], user_id: int | None, language: str | None = None) -> str:
    """The frame a socket of `user_id` sends for a line `drawn` once: "" when they may not
    read it (games/talk/rules.py decides, as for `pushed`). In `language` (the socket's;
    None: whichever the line was drawn in)."""
    if user_id is None or user_id in line_drawn["hiding"]:
        return ""
    member = user_id in line_drawn["members"]
    if not rules.reads(
        line_drawn["channel"],
        may_see=line_drawn["public"] or member,
        seated=user_id in line_drawn["seated"],
        over=line_drawn["over"],
    ):
        return ""
    mine = user_id == line_drawn["sender"]
    if language is None or language == line_drawn["language"]:
        return str(line_drawn["mine" if mine else "other"])
    return drawn_in(line_drawn, mine, language)


def pushed(game_id: int, user: User, message_id: int) -> str:
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


def seated_key(members: Iterable[Membership]) -> tuple[tuple[int, int], ...]:
    """Who sits where: the chat panel's list of people changes with it alone."""
    return tuple(sorted((m.seat, m.user_id) for m in members if m.seat is not None and m.user_id))


def people_context(game: Game, user: User, members: Iterable[Membership]) -> dict[str, Any]:
    """The chat panel's "At the table" list for `user`, redrawn out of band when somebody
    sits down or leaves (games/consumers/game.py `people_frame`): reads their mutes and
    blocks."""
    members = tuple(members)
    viewer = rules.viewer_among(game, user, members)
    muted: set[int] = set()
    blocked: set[int] = set()
    if viewer.user_id is not None:
        muted = set(
            ChatMute.objects.filter(user_id=viewer.user_id).values_list("muted_id", flat=True)
        )
        blocked = blocking.blocked_either_way(viewer.user_id)
    return {
        "talk_people": people(game, viewer, muted, blocked, members),
        "talk_urls": urls(game.pk),
        "oob": True,
    }
