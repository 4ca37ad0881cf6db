"""Undo by consent, from the table (games/services/undo.py): a player asks to take back their
last move, and the others answer. As the other table posts (games/views/table.py): the
`#table` partial for htmx, with the refusal's message and status when the service says no
(400 unreadable, 403 not a player, 409 a stale table, 422 refused); a plain post gets a
redirect to the table, or the whole page with the message."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthedRequest
from games.services import undo as service
from games.services.errors import UnreadableMove
from games.views.table import act_at_table, seen


@login_required
@require_POST
def undo(request: AuthedRequest, game_id: int) -> HttpResponse:
    """POST `answer` ("yes" or "no"): a player asked answers another's asking. Without it:
    the player asks to take back their own last move (`version`: the table they saw)."""

    def run() -> None:
        said = request.POST.get("answer")
        if said is None:
            version, _turn = seen(request.POST)
            service.ask(game_id=game_id, user=request.user, seen_version=version)
        elif said in ("yes", "no"):
            service.answer(game_id=game_id, user=request.user, accept=said == "yes")
        else:
            raise UnreadableMove(_("Answer yes or no."))

    return act_at_table(request, game_id, run)
