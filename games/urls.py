from __future__ import annotations

from django.urls import path, register_converter

from games.talk import views as talk
from games.views import absence, analysis, history, lobby, mail, pages, players, replay, table, undo


class InviteTokenConverter:
    """An invite link's token: what secrets.token_urlsafe makes (games.models.new_token),
    at most as long as Invitation.token. Anything else is not a link (404) and never
    reaches a query: PostgreSQL refuses a NUL character in a string outright."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(InviteTokenConverter, "invite_token")


class UsernameConverter:
    """A username as Django's validator allows it (letters, digits and @ . + - _): anything
    else, a NUL character above all (PostgreSQL refuses it in a query), is a 404."""

    regex = r"[\w.@+-]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(UsernameConverter, "username")

urlpatterns = [
    # Lobby, new game, waiting room and invitations (games/views/lobby/).
    path("", lobby.lobby, name="lobby"),
    path("lobby/lists/", lobby.lobby_lists, name="lobby-lists"),
    path("games/new/", lobby.new_game, name="new-game"),
    path("games/<int:game_id>/", lobby.waiting_room, name="waiting-room"),
    path("games/<int:game_id>/users/", lobby.user_search, name="user-search"),
    path("games/<int:game_id>/invite/", lobby.invite, name="invite"),
    path("games/<int:game_id>/invite-link/", lobby.invite_link, name="invite-link"),
    path("games/<int:game_id>/invite-email/", lobby.email_invite_link, name="invite-email"),
    path(
        "games/<int:game_id>/invitations/<int:invitation_id>/revoke/",
        lobby.revoke_invitation,
        name="revoke-invitation",
    ),
    path("games/<int:game_id>/accept/", lobby.accept, name="accept"),
    path("games/<int:game_id>/decline/", lobby.decline, name="decline"),
    path("games/<int:game_id>/join/", lobby.join, name="join"),
    path("games/<int:game_id>/leave/", lobby.leave, name="leave"),
    path("games/<int:game_id>/bots/", lobby.add_bot, name="add-bot"),
    path("games/<int:game_id>/remove/<int:membership_id>/", lobby.remove, name="remove"),
    path("games/<int:game_id>/start/", lobby.start, name="start"),
    path("invite/<invite_token:token>/", lobby.follow_invite_link, name="invite-link-landing"),
    # Past games and player pages (games/views/players.py).
    path("games/past/", players.past_games, name="past-games"),
    path("players/<username:username>/", players.player, name="player"),
    path("leaderboards/<slug:slug>/", players.leaderboard, name="leaderboard"),
    # Public pages (games/views/pages.py): the rules of each game, how to play here.
    path("rules/", pages.rules_index, name="rules-index"),
    path("rules/<slug:slug>/", pages.rules, name="rules"),
    path("how-to-play/", pages.how_to_play, name="how-to-play"),
    # The table (games/views/table.py).
    path("games/<int:game_id>/table/", table.table, name="table"),
    path("games/<int:game_id>/replay/", replay.replay, name="replay"),
    path(
        "games/<int:game_id>/analysis/",
        analysis.request_analysis,
        name="analysis-request",
    ),
    path(
        "games/<int:game_id>/analysis/progress/",
        analysis.progress,
        name="analysis-progress",
    ),
    path("games/<int:game_id>/move/", table.move, name="move"),
    path("games/<int:game_id>/hint/", table.hint, name="hint"),
    path("games/<int:game_id>/undo/", undo.undo, name="undo"),
    path("games/<int:game_id>/automate/", table.automate, name="automate"),
    path("games/<int:game_id>/reclaim/", table.reclaim, name="reclaim"),
    path("games/<int:game_id>/rematch/", table.rematch, name="rematch"),
    # A finished game as its conformance trace (games/views/history.py).
    path("games/<int:game_id>/export.json", history.export, name="export"),
    # Getting past an absent player (games/views/absence.py).
    path("games/<int:game_id>/cover/", absence.cover, name="cover"),
    path("games/<int:game_id>/replace/", absence.replace, name="replace"),
    path("games/<int:game_id>/abandon/", absence.abandon, name="abandon"),
    path("games/<int:game_id>/stand-ins/invite/", absence.invite, name="stand-in-invite"),
    path("games/<int:game_id>/stand-ins/link/", absence.invite_link, name="stand-in-link"),
    # Table talk (games/talk/views.py): chat, reactions, mutes, the organizer's setting.
    path("games/<int:game_id>/talk/say/", talk.say, name="talk-say"),
    path("games/<int:game_id>/talk/react/", talk.react, name="talk-react"),
    path("games/<int:game_id>/talk/mute/", talk.mute, name="talk-mute"),
    path("games/<int:game_id>/talk/mode/", talk.mode, name="talk-mode"),
    path("games/<int:game_id>/talk/", talk.log, name="talk-log"),
    # Email (games/views/mail.py): ask an away player back; unsubscribe links (no sign-in).
    path("games/<int:game_id>/come-back/<int:seat>/", mail.come_back, name="come-back"),
    path("mail/unsubscribe/<str:token>/", mail.unsubscribe, name="unsubscribe"),
    path("mail/unsubscribe/<str:token>/undo/", mail.resubscribe, name="resubscribe"),
]
