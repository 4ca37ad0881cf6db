"""Finished games as files: download a game as its game's conformance trace (JSON).

Status codes: 404 a private game the user is not in (never a hint), 409 a game that is not
finished (a plain sentence, nothing changes), 422 a game its trace format cannot express.
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_GET

from accounts.http import AuthedRequest
from games.access import visible_game_or_404
from games.services import history as service


@require_GET
@login_required
def export(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The finished game as a JSON trace, as an attachment named "<kind>-<id>.json".

    Anyone who may see the game may export it: once it is over, every hand is open.
    """
    game = visible_game_or_404(request.user, game_id)
    try:
        trace = service.export(game)
    except service.ExportRefused as error:
        return HttpResponse(
            error.message, status=error.status, content_type="text/plain; charset=utf-8"
        )
    response = HttpResponse(
        json.dumps(trace, separators=(",", ":")), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{service.file_name(game)}"'
    return response
