from __future__ import annotations

from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/mail/", views.mail_settings, name="mail-settings"),
]
