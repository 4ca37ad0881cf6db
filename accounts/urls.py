from __future__ import annotations

from django.urls import path

from accounts import friend_views, views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/mail/", views.mail_settings, name="mail-settings"),
    path("profile/privacy/", views.privacy_settings, name="privacy-settings"),
    path("profile/table/", views.table_settings, name="table-settings"),
    path("deck/", views.deck_choice, name="deck-choice"),
    path("language/", views.language_choice, name="language-choice"),
    # Friends and blocks (accounts/friend_views.py): POST, the other person's username.
    path("friends/request/", friend_views.send_request, name="friend-request"),
    path("friends/accept/", friend_views.accept_request, name="friend-accept"),
    path("friends/decline/", friend_views.decline_request, name="friend-decline"),
    path("friends/cancel/", friend_views.cancel_request, name="friend-cancel"),
    path("friends/remove/", friend_views.remove_friend, name="friend-remove"),
    path("blocks/add/", friend_views.block, name="block"),
    path("blocks/remove/", friend_views.unblock, name="unblock"),
]
