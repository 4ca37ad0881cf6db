"""One Hundred and Four: the 6 nimmt! style game for 2-10 players (shared
rules/one-hundred-and-four.md): every seat secretly chooses a card, the cards are placed in
ascending order on four rows, and the sixth card of a row (or a card lower than every row)
takes a row of bullheads. The lowest total wins.

`engine/` is the pure rules engine behind the platform's rules protocol (`engine.seam.RULES`),
`bots.py` the machine players, `conformance.py` the trace replayer. Nothing here imports
Django, so the engine can be tested, benchmarked and simulated without it.
"""
