from __future__ import annotations

from django.urls import path, register_converter

from games.views import lobby, table


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

urlpatterns = [
    # Lobby, new game, waiting room and invitations (games/views/lobby.py).
    path("", lobby.lobby, name="lobby"),
    path("lobby/lists/", lobby.lobby_lists, name="lobby-lists"),
    path("games/new/", lobby.new_game, name="new-game"),
    path("games/<int:game_id>/", lobby.waiting_room, name="waiting-room"),
    path("games/<int:game_id>/users/", lobby.user_search, name="user-search"),
    path("games/<int:game_id>/invite/", lobby.invite, name="invite"),
    path("games/<int:game_id>/invite-link/", lobby.invite_link, name="invite-link"),
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
    # The table (games/views/table.py).
    path("games/<int:game_id>/table/", table.table, name="table"),
    path("games/<int:game_id>/move/", table.move, name="move"),
    path("games/<int:game_id>/hint/", table.hint, name="hint"),
    path("games/<int:game_id>/automate/", table.automate, name="automate"),
    path("games/<int:game_id>/rematch/", table.rematch, name="rematch"),
]
