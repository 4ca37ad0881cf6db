from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.views import healthz

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
