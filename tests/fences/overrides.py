"""The overrides' record: every attribute a class of ours defines over a library class's, and
what fences it (a fence in records.py, or a test) or why it needs none (test_fences_hold.py
scans the modules below and fails on an override missing here)."""

from __future__ import annotations

# Every attribute that a class of ours below defines and a library class it inherits from also
# has: what fences it (a target above, or a test of this module), or why it needs no fence.
SCANNED_MODULES = [
    "hundredten.handlers",
    "hundredten.layers",
    "hundredten.origin",
    "hundredten.busy",
    "hundredten.redis_pool",
    "hundredten.drain",
    "games.consumers.live",
    "games.consumers.pool",
    "games.consumers.game",
    "games.consumers.tables",
    "games.consumers.user",
    "games.live.realtime",
    "accounts.sessions",
]
LIBRARY_PACKAGES = {"django", "channels", "channels_redis", "asgiref", "daphne", "concurrent"}
CALLS_SUPER = "documented: a subclass's __init__ that calls super().__init__ first"
OVERRIDES: dict[str, str] = {
    "hundredten.handlers.KeptThreadsASGIHandler.__init__": (
        "django.core.handlers.asgi:ASGIHandler.__init__"
    ),
    "hundredten.handlers.KeptThreadsASGIHandler.__call__": (
        "django.core.handlers.asgi:ASGIHandler.__call__"
    ),
    "hundredten.handlers.KeptThreadsASGIHandler.get_response_async": (
        "django.core.handlers.asgi:ASGIHandler.get_response_async"
    ),
    "hundredten.layers.SweepingInMemoryChannelLayer.__init__": (
        "channels.layers:InMemoryChannelLayer.__init__"
    ),
    "hundredten.layers.SweepingInMemoryChannelLayer._clean_expired": (
        "channels.layers:InMemoryChannelLayer._clean_expired"
    ),
    "hundredten.origin._OriginValidator.valid_origin": (
        "channels.security.websocket:OriginValidator.valid_origin"
    ),
    "games.consumers.live.LiveConsumer.__init__": CALLS_SUPER,
    "games.consumers.live.LiveConsumer.connect": "documented: AsyncWebsocketConsumer's hook",
    "games.consumers.live.LiveConsumer.disconnect": "documented: AsyncWebsocketConsumer's hook",
    "games.consumers.live.LiveConsumer.receive": "documented: AsyncWebsocketConsumer's hook",
    "games.consumers.game.GameConsumer.__init__": CALLS_SUPER,
    "games.consumers.tables.TableConsumer.__init__": CALLS_SUPER,
    "games.consumers.user.UserConsumer.__init__": CALLS_SUPER,
}
# Not overrides: what Python keeps on every class.
NOT_SCANNED = {"__module__", "__doc__", "__qualname__", "__annotations__", "__dict__"}
NOT_SCANNED |= {"__weakref__", "__parameters__", "__orig_bases__", "__slots__"}
NOT_SCANNED |= {"__firstlineno__", "__static_attributes__"}
