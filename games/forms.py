"""Forms for the lobby: they turn untrusted POST data into typed values or a clear message."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.addresses import refuse_unmailable_domain
from games import registry
from games.clocks import turns
from games.gamekind import GameKind
from games.models import DEFAULT_KIND, MAX_PLAYERS, Game


def first_error(form: forms.Form) -> str:
    """The first error of a bound, invalid form, as one sentence for the page."""
    for errors in form.errors.values():
        for error in errors:
            return str(error)
    return "That request could not be read."


def option_field_name(name: str) -> str:
    return f"option_{name}"


class NewGameForm(forms.Form):
    """Name, visibility, the game and its seats and rule options.

    The seat and option fields follow the game chosen (bound data, else `kind` in the
    query, else the default game): the page swaps them when the choice changes.
    """

    name = forms.CharField(
        max_length=60,
        label="Name",
        help_text="So your friends recognise it, e.g. “Friday cards”.",
        error_messages={"required": "Give the game a name."},
    )
    kind = forms.ChoiceField(
        label="Game",
        choices=registry.choices,
        initial=DEFAULT_KIND,
        required=False,  # a form posted without it (an old page, a script): the first game
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Choose one of the games on offer."},
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

    pace = forms.TypedChoiceField(
        label="Clock",
        choices=turns.PACES,
        coerce=int,
        initial=0,
        required=False,  # an old page or a script: no clock
        help_text="When a player's time for a move runs out, a bot plays it for them "
        "until they take their seat back.",
        error_messages={"invalid_choice": "Choose one of the clocks on offer."},
    )

    rated = forms.ChoiceField(
        label="Rating",
        choices=Game.Rated.choices,
        initial=Game.Rated.PEOPLE,
        required=False,  # an old page or a script: the default
        help_text="A rated game changes its players’ ratings in this game when it ends.",
        error_messages={"invalid_choice": "Choose one of the rating choices."},
    )

    def __init__(self, data: Any = None, *, kind: str = "") -> None:
        super().__init__(data)
        chosen = (data or {}).get("kind") or kind
        self.game_kind: GameKind = registry.REGISTRY.get(chosen) or registry.kind(DEFAULT_KIND)
        self.initial["kind"] = self.game_kind.slug
        counts = self.game_kind.seat_counts
        self.fields["max_players"] = forms.TypedChoiceField(
            label="Seats",
            choices=[(n, f"{n} players") for n in counts],
            coerce=int,
            initial=self.game_kind.table_size,
            error_messages={
                "invalid_choice": f"{self.game_kind.name} is played by {self.game_kind.seats_text}."
            },
        )
        for option in self.game_kind.options:
            self.fields[option_field_name(option.name)] = forms.TypedChoiceField(
                label=option.label,
                help_text=option.help,
                choices=[("" if v is None else v, label) for v, label in option.choices],
                coerce=int,
                empty_value=None,
                required=False,
                initial="" if option.default is None else option.default,
                error_messages={"invalid_choice": f"Choose one of the choices for {option.label}."},
            )

    def clean_pace(self) -> int:
        return int(self.cleaned_data.get("pace") or 0)

    def clean_rated(self) -> str:
        return str(self.cleaned_data.get("rated") or Game.Rated.PEOPLE)

    def clean_kind(self) -> str:
        return self.game_kind.slug

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

    @property
    def options(self) -> dict[str, Any]:
        """The rule options chosen (all of the game's; a form posted without one: its
        default)."""
        return {
            option.name: self.cleaned_data.get(option_field_name(option.name))
            if option_field_name(option.name) in self.data
            else option.default
            for option in self.game_kind.options
        }

    def option_fields(self) -> list[forms.BoundField]:
        return [self[option_field_name(option.name)] for option in self.game_kind.options]


class InviteForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label="Username",
        error_messages={"required": "Type the username of the person to invite."},
    )

    def clean_username(self) -> str:
        return str(self.cleaned_data["username"]).strip()


class EmailInviteForm(forms.Form):
    # Django's checks, then no IP literal, bare IP or local name (accounts/addresses.py);
    # sign-up refuses the same (accounts/adapter.py).
    email = forms.EmailField(
        max_length=254,
        label="Email address",
        validators=[refuse_unmailable_domain],
        error_messages={
            "required": "Type the email address to send the link to.",
            "invalid": "That does not look like an email address.",
        },
    )


class SeatForm(forms.Form):
    # The bot level "Add a bot" seats (a key of the game's seat levels; checked by the service).
    level = forms.SlugField(
        max_length=16,
        required=False,
        error_messages={
            "invalid": "This game has no bot of that level.",
            "max_length": "This game has no bot of that level.",
        },
    )
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

    def clean_seat(self) -> int:
        # Digits of other scripts ("１") are numbers to int(); a seat is written in ASCII.
        raw = str(self.data.get("seat", ""))
        if not (raw.strip().isascii() and raw.strip().isdigit()):
            raise forms.ValidationError("That seat does not exist.")
        return int(self.cleaned_data["seat"])


class UserSearchForm(forms.Form):
    q = forms.CharField(max_length=150, required=False, strip=True)
