"""allauth's account adapter, with two changes: the addresses it accepts (sign-up, adding one
on the email page) must be at an ordinary mail domain, as invitation addresses must; and its
letters are written in the recipient's language."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation

from accounts.addresses import refuse_unmailable_domain
from accounts.languages import profile_language


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth ships no types
    def clean_email(self, email: str) -> str:
        """allauth's documented hook for restricting which addresses may be chosen."""
        try:
            if email:  # optional at sign-up
                refuse_unmailable_domain(email)
        except ValidationError as error:
            raise forms.ValidationError(error.messages[0]) from error
        return str(super().clean_email(email))

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """In the language of the account the letter is about (a password reset asked for
        signed out, on another device), else the request's (accounts/languages.py)."""
        language = profile_language(context.get("user")) or translation.get_language()
        with translation.override(language):
            super().send_mail(template_prefix, email, context)
