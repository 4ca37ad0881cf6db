"""Words from the pure side (games/kinds/words.py) read as English where they are made and
are translated where they are shown (games/phrases.py): a refusal with a card's name in it,
a card's face, an option's label."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games import phrases
from games.kinds import cardfaces, protocol
from games.kinds.hearts.engine import IllegalMove, card_name, cards, parse_card
from games.kinds.lobby import LobbyError, describe_counts
from games.kinds.words import Phrase

# A pretend catalog: (context, message) -> translation.
GERMAN = {
    ("", "You don't hold the %(card)s."): "Du hast %(card)s nicht.",
    ("", "%(rank)s of %(suit)s"): "%(suit)s-%(rank)s",
    ("card rank", "Queen"): "Dame",
    ("card suit", "Spades"): "Pik",
    ("", "%(low)s to %(high)s"): "%(low)s bis %(high)s",
    ("", "This game is played by %(counts)s players, not %(count)s."): (
        "Dieses Spiel spielen %(counts)s Personen, nicht %(count)s."
    ),
    ("", "%(points)s points (the usual game)"): "%(points)s Punkte (das übliche Spiel)",
}


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(phrases, "gettext", lambda m: GERMAN.get(("", m), m))
    monkeypatch.setattr(phrases, "pgettext", lambda c, m: GERMAN.get((c, m), m))
    yield


def test_a_refusal_reads_as_english_and_keeps_its_message_and_values():
    queen = card_name(parse_card("QS"))
    error = IllegalMove("You don't hold the %(card)s.", "play_not_in_hand", params={"card": queen})
    assert str(error) == error.message == "You don't hold the Queen of Spades."
    assert error.template == "You don't hold the %(card)s."
    assert error.params == {"card": queen}
    assert isinstance(error, protocol.IllegalAction) and error.code == "play_not_in_hand"


def test_a_refusal_is_translated_when_shown_card_name_and_all(german):
    queen = card_name(parse_card("QS"))
    error = IllegalMove("You don't hold the %(card)s.", "play_not_in_hand", params={"card": queen})
    assert phrases.refusal_text(error) == "Du hast Pik-Dame nicht."


def test_a_lobby_refusal_is_translated_with_its_counts(german):
    error = LobbyError(
        "This game is played by %(counts)s players, not %(count)s.",
        {"counts": describe_counts((2, 3, 4)), "count": 5},
    )
    assert str(error) == "This game is played by 2 to 4 players, not 5."
    assert phrases.refusal_text(error) == "Dieses Spiel spielen 2 bis 4 Personen, nicht 5."


def test_plain_values_are_left_alone_and_an_empty_text_stays_empty(german):
    sentence = Phrase("You don't hold the %(card)s.", {"card": "Queen"})  # not a Phrase param
    assert phrases.translated(sentence) == "Du hast Queen nicht."
    assert phrases.translated("") == ""
    assert phrases.translated("Not in the catalog.") == "Not in the catalog."


def test_an_option_label_with_a_value_is_translated(german):
    option = protocol.target_option(100, 50, help="")
    label = dict(option.choices)[100]
    assert label == "100 points (the usual game)"
    assert phrases.translated(label) == "100 Punkte (das übliche Spiel)"


def test_a_card_face_names_the_card_in_the_active_language(german):
    cardfaces._face.cache_clear()  # faces are cached per language, and the catalog is pretend
    try:
        queen = cardfaces.face_of(cards, parse_card("QS"))
        assert queen.name == "Pik-Dame" and 'aria-label="Pik-Dame"' in queen.html
    finally:
        cardfaces._face.cache_clear()
