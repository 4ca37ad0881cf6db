"""What the table service announces after a commit, for the parts that build on it.

The service (`games.services.table`) imports neither the table's rendering (`games.basis`,
`games.context`) nor the bot runner (`games.bots`): both build on the service, so it tells
them through these signals, connected in `GamesConfig.ready`. Each is sent after commit.
"""

from __future__ import annotations

from django.dispatch import Signal

# A game's new version is committed; sent before its pushes go out, so the process can
# prepare what every redraw of that version shares. Arguments: game, members.
version_committed = Signal()

# A committed change leaves a seat to act whose move the server chooses (a bot's, or a
# seat handed to the bot). Argument: game_id.
bot_turn = Signal()
