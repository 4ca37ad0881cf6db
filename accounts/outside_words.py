"""Words of django-allauth's and Django's own that our sign-in, sign-up and password-reset
pages show, marked here so that our catalogues carry them: allauth has no Malayalam
catalogue, and a catalogue of ours is the one our pseudo-locale test checks
(docs/languages.md). Nothing reads these names: `makemessages` reads the marks, and
allauth's and Django's own gettext calls find our translations (LOCALE_PATHS first)."""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

ALLAUTH = (
    gettext_noop("Password"),
    gettext_noop("Forgot your password?"),
    gettext_noop("Email (optional)"),
    gettext_noop("Password (again)"),
    gettext_noop("Password Reset"),
    gettext_noop(
        "Forgotten your password? Enter your email address below, and we'll send you an "
        "email allowing you to reset it."
    ),
    gettext_noop("Reset My Password"),
    gettext_noop("Please contact us if you have any trouble resetting your password."),
)
# The password validators' help on the sign-up form (django.contrib.auth).
DJANGO = (
    gettext_noop("Your password can’t be too similar to your other personal information."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        8,
    ),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
)
