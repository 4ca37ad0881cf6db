"""A player's HTTP side: the one connection their browser keeps to daphne, for the POSTs of
their moves and the loads of the table page."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any


class Browser:
    """One player's HTTP/1.1 connection to daphne, kept alive between moves as a browser
    keeps it (opened on first use, opened anew if the server closed it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(
        self, path: str, session: str, fields: dict[str, Any], side: str
    ) -> tuple[int, bytes]:
        """One POST as htmx (and table.js) send it; (status, headers + body)."""
        from urllib.parse import urlencode

        csrf = secrets.token_hex(16)  # a 32-character secret: cookie and header agree
        body = urlencode(fields, doseq=True).encode()
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Cookie: sessionid={session}; csrftoken={csrf}\r\nX-CSRFToken: {csrf}\r\n"
            f"HX-Request: true\r\nX-Table-Side: {side}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        return await self._send(request)

    async def get(self, path: str, session: str) -> tuple[int, bytes]:
        """The page a browser loads (a full page, not a partial); (status, headers + body)."""
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Cookie: sessionid={session}\r\n\r\n"
        ).encode()
        return await self._send(request)

    async def _send(self, request: bytes) -> tuple[int, bytes]:
        reused = self.stream is not None
        try:
            return await self._exchange(request)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
            return await self._exchange(request)  # the kept connection had gone: once anew

    async def _exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.stream is None:
            self.stream = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.stream
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(b":") for line in head.split(b"\r\n")[1:])
        }
        if headers.get(b"transfer-encoding") == b"chunked":
            body = b""
            while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
                body += (await reader.readexactly(size + 2))[:-2]
            await reader.readuntil(b"\r\n")
        else:
            body = await reader.readexactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"connection") == b"close":
            self.close()
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
        return status, head + body

    def close(self) -> None:
        if self.stream is not None:
            self.stream[1].close()
            self.stream = None
