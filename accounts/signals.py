"""What the accounts app announces, for the parts that show people (the games).

accounts knows nothing about cards: it says a user's shown name changed, and whoever draws
that name (games.services.people, connected in GamesConfig.ready) redraws it.
"""

from __future__ import annotations

from django.dispatch import Signal

# A user's shown name (display name, or username when that is empty) changed; sent after
# the change is saved. Argument: user.
shown_name_changed = Signal()
