"""allauth's account adapter, with one change: the addresses it accepts (sign-up, adding one
on the email page) must be at an ordinary mail domain, as invitation addresses must."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.core.exceptions import ValidationError

from accounts.addresses import refuse_unmailable_domain


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth ships no types
    def clean_email(self, email: str) -> str:
        """allauth's documented hook for restricting which addresses may be chosen."""
        try:
            if email:  # optional at sign-up
                refuse_unmailable_domain(email)
        except ValidationError as error:
            raise forms.ValidationError(error.messages[0]) from error
        return str(super().clean_email(email))
