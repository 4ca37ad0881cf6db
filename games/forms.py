"""Forms for the lobby: they turn untrusted POST data into typed values or a clear message."""

from __future__ import annotations

from django import forms

from games.models import MAX_PLAYERS, MIN_PLAYERS


def first_error(form: forms.Form) -> str:
    """The first error of a bound, invalid form, as one sentence for the page."""
    for errors in form.errors.values():
        for error in errors:
            return str(error)
    return "That request could not be read."


class NewGameForm(forms.Form):
    name = forms.CharField(
        max_length=60,
        label="Name",
        help_text="So your friends recognise it, e.g. “Friday cards”.",
        error_messages={"required": "Give the game a name."},
    )
    visibility = forms.ChoiceField(
        label="Who may join",
        choices=[
            ("private", "Private: only people you invite"),
            ("public", "Public: anyone signed in may join"),
        ],
        initial="private",
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Choose private or public."},
    )
    max_players = forms.TypedChoiceField(
        label="Seats",
        choices=[(n, f"{n} players") for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        initial=MAX_PLAYERS,
        error_messages={"invalid_choice": "A game has 2 to 4 seats."},
    )

    def clean_name(self) -> str:
        name: str = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Give the game a name.")
        if any(not ch.isprintable() for ch in name):
            raise forms.ValidationError("Use printable characters only.")
        return name

    @property
    def public(self) -> bool:
        return bool(self.cleaned_data["visibility"] == "public")


class InviteForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label="Username",
        error_messages={"required": "Type the username of the person to invite."},
    )

    def clean_username(self) -> str:
        return str(self.cleaned_data["username"]).strip()


class SeatForm(forms.Form):
    seat = forms.IntegerField(
        min_value=0,
        max_value=MAX_PLAYERS - 1,
        error_messages={
            "required": "Choose a seat.",
            "invalid": "That seat does not exist.",
            "min_value": "That seat does not exist.",
            "max_value": "That seat does not exist.",
        },
    )


class UserSearchForm(forms.Form):
    q = forms.CharField(max_length=150, required=False, strip=True)
