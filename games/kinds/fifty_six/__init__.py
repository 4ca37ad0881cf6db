"""Fifty-Six (56): the South Indian team trick-taking game with a concealed trump card.

`engine/` is the pure rules engine behind the platform's rules protocol (`engine.seam.RULES`),
`bots.py` the machine players, `conformance.py` the trace replayer. Nothing here imports
Django, so the engine can be tested, benchmarked and simulated without it.
"""
