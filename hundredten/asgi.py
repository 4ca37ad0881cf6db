"""ASGI entry point: HTTP goes to Django, websockets through auth and an origin check."""

from __future__ import annotations

import gc
import os

import django
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")
# Django must be set up before anything imports models (consumers do).
django.setup(set_prefix=False)

from hundredten.handlers import KeptThreadsASGIHandler  # noqa: E402

django_asgi_app = KeptThreadsASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from hundredten import drain  # noqa: E402
from hundredten.origin import SameOriginValidator  # noqa: E402

# At SIGTERM, the requests inside Django finish and are answered before daphne closes their
# sockets; new ones are refused (hundredten/drain.py).
router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(
                URLRouter(
                    [
                        *websocket_urlpatterns,
                        # Any other path: refused (an HTTP 403 to the handshake), where
                        # URLRouter would raise, and daphne answer 500 and log a traceback.
                        re_path(r"", WebsocketDenier.as_asgi()),  # type: ignore[arg-type,list-item]
                    ]
                )
            )
        ),
    }
)
application = drain.install(router)

# The garbage collector, tuned for a long-lived server (bench/results/realtime.md, 100 games:
# push p99 117-119 ms against 363-648 ms untuned, CPU per move 24 against 29-33 ms). Every
# request and render leaves short-lived reference cycles, so Python's default (a young
# collection every 700 allocations, a full one after every hundred young ones) ran a full
# collection every 10 s, each stalling every thread for 200-480 ms. What exists at start-up
# (Django, the apps, the URL and template machinery) lives as long as the process: freeze it
# out of every collection, and collect the young generation every 10,000 allocations.
# A full collection walks every object, and every open socket keeps a couple of hundred
# (Twisted, autobahn, Channels, our consumer): at 2,400 sockets one took 360-400 ms, and it
# ran about once a minute while finding only 1-2% of the heap to free. Python runs one after
# ten middle-generation collections (once the old generation has also grown by a quarter);
# here after a hundred, about every eight minutes at 300 games. Off in the test process
# (settings.GC_TUNING), where collections stay as prompt as Python makes them.
# Written against CPython 3.11's generational collector (thresholds 700, 10, 10 by default);
# tests/fences/ fails on another Python: re-measure there (bench/realtime.py).
GC_YOUNG_THRESHOLD = 10_000
GC_OLD_THRESHOLD = 100


def tune_garbage_collector() -> None:
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, GC_OLD_THRESHOLD)


if settings.GC_TUNING:
    tune_garbage_collector()

# Each server process sweeps the database for due deadlines (turn clocks, overdue bot
# moves, queued mail): games/clocks/deadlines.py. Off under pytest, on in every server.
from games.bots import thinking  # noqa: E402
from games.clocks import deadlines  # noqa: E402

deadlines.start()
# The hard bots think in worker processes (games/bots/thinking.py): start them now.
thinking.warm_up()
