"""The games the platform hosts, one package each (pure engine, bots, table, templates).

Kept empty on purpose: importing a game's engine must not import Django. The registry that
ties each game to the platform is `games/registry.py`; the protocol its engine meets is
`games/kinds/protocol.py`.
"""
