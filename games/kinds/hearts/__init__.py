"""Hearts: the four-player trick-avoidance game (pass three, no points on trick one, moon).

`engine/` is the pure rules engine behind the platform's rules protocol (`engine.seam.RULES`),
`bots.py` the machine players, `conformance.py` the trace replayer. Nothing here imports
Django, so the engine can be tested, benchmarked and simulated without it.
"""
