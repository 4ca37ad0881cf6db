"""Forms for the lobby: they turn untrusted POST data into typed values or a clear message."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

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
    return _("That request could not be read.")


def option_field_name(name: str) -> str:
    return f"option_{name}"


class NewGameForm(forms.Form):
    """Name, visibility, the game and its seats and rule options.

    The seat and option fields follow the game chosen (bound data, else `kind` in the
    query, else the default game): the page swaps them when the choice changes.
    """

    name = forms.CharField(
        max_length=60,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("So your friends recognise it, e.g. “Friday cards”."),
        error_messages={"required": gettext_lazy("Give the game a name.")},
    )
    kind = forms.ChoiceField(
        label=gettext_lazy("Game"),
        choices=registry.choices,
        initial=DEFAULT_KIND,
        required=False,  # a form posted without it (an old page, a script): the first game
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": gettext_lazy("Choose one of the games on offer.")},
    )
    visibility = forms.ChoiceField(
        label=gettext_lazy("Who may join"),
        choices=[
            ("private", gettext_lazy("Private: only people you invite")),
            ("public", gettext_lazy("Public: anyone signed in may join")),
        ],
        initial="private",
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": gettext_lazy("Choose private or public.")},
    )

    pace = forms.TypedChoiceField(
        label=gettext_lazy("Clock"),
        choices=turns.PACES,
        coerce=int,
        initial=0,
        required=False,  # an old page or a script: no clock
        help_text=gettext_lazy(
            "When a player's time for a move runs out, a bot plays it for them "
            "until they take their seat back."
        ),
        error_messages={"invalid_choice": gettext_lazy("Choose one of the clocks on offer.")},
    )

    rated = forms.ChoiceField(
        label=gettext_lazy("Rating"),
        choices=Game.Rated.choices,
        initial=Game.Rated.PEOPLE,
        required=False,  # an old page or a script: the default
        help_text=gettext_lazy(
            "A rated game changes its players’ ratings in this game when it ends."
        ),
        error_messages={"invalid_choice": gettext_lazy("Choose one of the rating choices.")},
    )

    def __init__(self, data: Any = None, *, kind: str = "") -> None:
        super().__init__(data)
        chosen = (data or {}).get("kind") or kind
        self.game_kind: GameKind = registry.REGISTRY.get(chosen) or registry.kind(DEFAULT_KIND)
        self.initial["kind"] = self.game_kind.slug
        counts = self.game_kind.seat_counts
        self.fields["max_players"] = forms.TypedChoiceField(
            label=_("Seats"),
            choices=[
                (n, ngettext("%(count)s player", "%(count)s players", n) % {"count": n})
                for n in counts
            ],
            coerce=int,
            initial=self.game_kind.table_size,
            error_messages={
                "invalid_choice": _("%(game)s is played by %(players)s.")
                % {"game": self.game_kind.name, "players": self.game_kind.seats_text}
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
                error_messages={
                    "invalid_choice": _("Choose one of the choices for %(option)s.")
                    % {"option": option.label}
                },
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
            raise forms.ValidationError(_("Give the game a name."))
        if any(not ch.isprintable() for ch in name):
            raise forms.ValidationError(_("Use printable characters only."))
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
        label=gettext_lazy("Username"),
        error_messages={"required": gettext_lazy("Type the username of the person to invite.")},
    )

    def clean_username(self) -> str:
        return str(self.cleaned_data["username"]).strip()


class EmailInviteForm(forms.Form):
    # Django's checks, then no IP literal, bare IP or local name (accounts/addresses.py);
    # sign-up refuses the same (accounts/adapter.py).
    email = forms.EmailField(
        max_length=254,
        label=gettext_lazy("Email address"),
        validators=[refuse_unmailable_domain],
        error_messages={
            "required": gettext_lazy("Type the email address to send the link to."),
            "invalid": gettext_lazy("That does not look like an email address."),
        },
    )


NO_SUCH_LEVEL = gettext_lazy("This game has no bot of that level.")
NO_SUCH_SEAT = gettext_lazy("That seat does not exist.")


class SeatForm(forms.Form):
    # The bot level "Add a bot" seats (a key of the game's seat levels; checked by the service).
    level = forms.SlugField(
        max_length=16,
        required=False,
        error_messages={
            "invalid": NO_SUCH_LEVEL,
            "max_length": NO_SUCH_LEVEL,
        },
    )
    seat = forms.IntegerField(
        min_value=0,
        max_value=MAX_PLAYERS - 1,
        error_messages={
            "required": gettext_lazy("Choose a seat."),
            "invalid": NO_SUCH_SEAT,
            "min_value": NO_SUCH_SEAT,
            "max_value": NO_SUCH_SEAT,
        },
    )

    def clean_seat(self) -> int:
        # Digits of other scripts ("１") are numbers to int(); a seat is written in ASCII.
        raw = str(self.data.get("seat", ""))
        if not (raw.strip().isascii() and raw.strip().isdigit()):
            raise forms.ValidationError(NO_SUCH_SEAT)
        return int(self.cleaned_data["seat"])


class UserSearchForm(forms.Form):
    q = forms.CharField(max_length=150, required=False, strip=True)
