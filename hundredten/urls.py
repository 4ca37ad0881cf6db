from __future__ import annotations

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic.base import RedirectView

from accounts.views import healthz, javascript_catalogue

# The admin signs in through the site's sign-in page, whose failed sign-ins are throttled
# (its own form is not): signed out, /admin/login/ redirects there; signed in, staff go on
# to the admin and anybody else is refused (allauth's documented recipe).
admin.autodiscover()
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("healthz", healthz, name="healthz"),
    # gettext() for static/js/ in each language (docs/languages.md).
    path("jsi18n/<str:lang>/", javascript_catalogue, name="javascript-catalog"),
    # Browsers ask for /favicon.ico wherever a page names no icon (base.html does): the
    # site's icon. Not a permanent redirect: its static URL changes with its content.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("img/favicon.svg"))),
    path("admin/", admin.site.urls),
]
