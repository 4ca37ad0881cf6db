"""The parts of the real-time benchmark (bench/realtime.py): the daphnes under test
(`servers`), the games they serve (`tables`), and the players' side: their HTTP connections
(`browser`), their sockets and what their pages show (`sockets`), their moves and what those
measured (`clients`)."""

from __future__ import annotations
