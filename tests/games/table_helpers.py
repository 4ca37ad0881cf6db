"""What the per-game table tests (and the hidden-information tests) share: loading the
`#table` partial, posting a move at the version just read, and Fifty-Six's move form."""

from __future__ import annotations

from django.urls import reverse

from games.kinds.fifty_six.engine import AskTrump, Bid, ChooseTrump, Pass, card_code
from games.services import states
from tests.conftest import HX


def page(client, game):
    """The `#table` partial as `client` sees it (it must load)."""
    response = client.get(reverse("table", kwargs={"game_id": game.pk}), headers=HX)
    assert response.status_code == 200
    return response.content.decode()


def post(client, game, data, *, turn=None):
    """`client` posts the move `data` at the game's current version (and `turn`, if given)."""
    game.refresh_from_db()
    fields = {"version": game.version, **data}
    if turn is not None:
        fields["turn"] = turn
    return client.post(reverse("move", kwargs={"game_id": game.pk}), fields, headers=HX)


def state_of(game):
    """The game's state now (the row refreshed first)."""
    game.refresh_from_db()
    return states.load_state(game)


def fifty_six_form(action) -> dict[str, str]:
    """The move view's fields for a Fifty-Six action."""
    if isinstance(action, Bid):
        return {"kind": "bid", "amount": str(action.value)}
    if isinstance(action, Pass):
        return {"kind": "pass"}
    if isinstance(action, AskTrump):
        return {"kind": "ask"}
    kind = "trump" if isinstance(action, ChooseTrump) else "play"
    return {"kind": kind, "card": card_code(action.card)}
