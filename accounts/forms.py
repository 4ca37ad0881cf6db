from __future__ import annotations

from functools import cache
from typing import Any
from zoneinfo import available_timezones

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.conf import settings
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from accounts.models import User


def language_choices() -> list[tuple[str, Any]]:
    """Each language in its own name ("Deutsch"): found by whoever cannot read the page's."""
    codes = [code for code, _name in settings.LANGUAGES]
    named = [(code, str(get_language_info(code)["name_local"])) for code in codes]
    return [("", _("As my browser asks")), *named]


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ["display_name", "language"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].label = _("Language")
        self.fields["language"].choices = language_choices()  # type: ignore[attr-defined]

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"].strip()
        if name and any(not ch.isprintable() for ch in name):
            raise forms.ValidationError(_("Use printable characters only."))
        return name


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA time zone this machine knows, sorted ("Europe/Paris" as is)."""
    return [(name, name.replace("_", " ")) for name in sorted(available_timezones())]


class MailSettingsForm(forms.ModelForm[User]):
    """Which emails a user wants, and quiet hours (both ends or neither) in their zone."""

    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        error_messages={"invalid_choice": _("Choose a time zone from the list.")},
    )

    class Meta:
        model = User
        fields = [
            "mail_turns",
            "mail_invites",
            "mail_endings",
            "mail_come_back",
            "quiet_from",
            "quiet_until",
            "time_zone",
        ]
        widgets = {
            "quiet_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_until": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("quiet_from"), cleaned.get("quiet_until")
        if "quiet_from" in cleaned and "quiet_until" in cleaned:
            if (start is None) != (end is None):
                raise forms.ValidationError(
                    _("Give quiet hours both a start and an end, or leave both empty.")
                )
            if start is not None and start == end:
                raise forms.ValidationError(
                    _("Quiet hours must end at another time than they start.")
                )
        return cleaned


class PrivacyForm(forms.ModelForm[User]):
    """What friends see of this person (docs/friends.md, "Privacy")."""

    class Meta:
        model = User
        fields = ["hide_presence"]


class TableSettingsForm(forms.ModelForm[User]):
    """How the tables look and behave for this person (docs/comforts.md)."""

    class Meta:
        model = User
        fields = ["four_colour_deck", "confirm_moves"]


class LoginForm(AllauthLoginForm):  # type: ignore[misc]  # allauth ships no types
    """allauth's login form, with a label that says what it accepts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")
        self.fields["login"].widget.attrs.update(
            {"placeholder": "", "autocomplete": "username", "autocapitalize": "none"}
        )
        self.fields["password"].widget.attrs["placeholder"] = ""
        self.fields["remember"].label = _("Keep me signed in")
