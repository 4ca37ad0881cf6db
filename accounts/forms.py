from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ["display_name"]

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"].strip()
        if name and any(not ch.isprintable() for ch in name):
            raise forms.ValidationError("Use printable characters only.")
        return name


class LoginForm(AllauthLoginForm):  # type: ignore[misc]  # allauth ships no types
    """allauth's login form, with a label that says what it accepts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Username or email"
        self.fields["login"].widget.attrs.update(
            {"placeholder": "", "autocomplete": "username", "autocapitalize": "none"}
        )
        self.fields["password"].widget.attrs["placeholder"] = ""
        self.fields["remember"].label = "Keep me signed in"
