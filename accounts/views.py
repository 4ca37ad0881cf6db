from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import last_modified, require_POST, require_safe
from django.views.i18n import JavaScriptCatalog, set_language

from accounts.addresses import verified_address
from accounts.comforts import DECK_COOKIE, DECK_COOKIE_AGE
from accounts.forms import MailSettingsForm, PrivacyForm, ProfileForm, TableSettingsForm
from accounts.http import AuthedRequest
from accounts.languages import supported
from accounts.models import User
from accounts.signals import shown_name_changed


def _profile_page(
    request: AuthedRequest,
    *,
    form: ProfileForm | None = None,
    mail_form: MailSettingsForm | None = None,
    privacy_form: PrivacyForm | None = None,
    table_form: TableSettingsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    context = {
        "form": form or ProfileForm(instance=user),
        "mail_form": mail_form or MailSettingsForm(instance=user),
        "verified_email": verified_address(user.pk),
        "privacy_form": privacy_form or PrivacyForm(instance=user),
        "table_form": table_form or TableSettingsForm(instance=user),
    }
    return render(request, "accounts/profile.html", context, status=status)


@login_required
def profile(request: AuthedRequest) -> HttpResponse:
    shown_before = request.user.shown_name
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user.shown_name != shown_before:
            shown_name_changed.send(sender=User, user=user)
        messages.success(request, _("Your display name is saved."))
        return redirect("profile")
    return _profile_page(request, form=form)


@require_POST
@login_required
def mail_settings(request: AuthedRequest) -> HttpResponse:
    """The emails a user wants, their quiet hours and time zone (the profile's second form)."""
    form = MailSettingsForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _profile_page(request, mail_form=form, status=400)
    form.save()
    messages.success(request, _("Your email choices are saved."))
    return redirect("profile")


@require_POST
@login_required
def privacy_settings(request: AuthedRequest) -> HttpResponse:
    """What friends see of the user: online and at a table, or neither (the third form)."""
    form = PrivacyForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _profile_page(request, privacy_form=form, status=400)
    form.save()
    messages.success(request, _("Your privacy choice is saved."))
    return redirect("profile")


@require_POST
@login_required
def table_settings(request: AuthedRequest) -> HttpResponse:
    """The four-colour deck and "confirm before playing" (the fourth form)."""
    form = TableSettingsForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _profile_page(request, table_form=form, status=400)
    form.save()
    messages.success(request, _("Your table choices are saved."))
    return redirect("profile")


@require_POST
def deck_choice(request: HttpRequest) -> HttpResponse:
    """The four-colour deck for a visitor (a cookie; a signed-in person's profile keeps it
    instead): `deck` is "four" or anything else for two colours. Back to the page it came
    from when that is on this site."""
    four = request.POST.get("deck") == "four"
    user = request.user
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    response = redirect(back or "/")
    if user.is_authenticated:
        User.objects.filter(pk=user.pk).update(four_colour_deck=four)
    elif four:
        response.set_cookie(
            DECK_COOKIE, "four", max_age=DECK_COOKIE_AGE, samesite="Lax", httponly=True
        )
    else:
        response.delete_cookie(DECK_COOKIE, samesite="Lax")
    return response


@require_POST
def language_choice(request: HttpRequest) -> HttpResponse:
    """The footer's language chooser: Django's `set_language` (the cookie, and back to
    `next` on this site), and for a signed-in person their profile's language too, which
    beats the cookie on every device (accounts/languages.py)."""
    response = set_language(request)
    chosen = supported(request.POST.get("language"))
    if chosen is not None and request.user.is_authenticated:
        User.objects.filter(pk=request.user.pk).update(language=chosen)
    return response


# The JavaScript catalogue changes only with a deploy, that is a new process.
_STARTED = timezone.now()
_catalogue = JavaScriptCatalog.as_view()


@require_safe
@cache_control(max_age=3600)
@last_modified(lambda request, lang: _STARTED)
def javascript_catalogue(request: HttpRequest, lang: str) -> HttpResponseBase:
    """Django's JavaScriptCatalog (gettext() and friends for static/js/) in `lang`. The
    language is in the address, not taken from the request, so a browser's cached copy is
    never another language's (base.html asks for the page's)."""
    if supported(lang) != lang:
        raise Http404
    with translation.override(lang):
        return _catalogue(request)


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness and database check for load balancers and the test harness (GET, or HEAD
    as health checks and `curl -I` send it)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any database failure means "not healthy"
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
