"""What a daphne process does per move, counted (bench/realtime.py --count).

`bench/realtime.py --count` starts daphne with this folder on PYTHONPATH, so Python runs this
module at start-up, before Django or our code is imported. It wraps a few library functions
to count, per process:

- SQL statements, by verb and table (Django's `execute_wrappers`, on every new connection);
- Redis commands, by name (redis-py's `execute_command` and pipelines, sync and async), and
  Pub/Sub messages received;
- channel-layer events handled by consumers, by type (Channels' `get_handler_name`, which
  every consumer's dispatch calls);
- template renders, by template (`render_to_string`, the top-level renders);
- jobs the event loop hands to threads, by executor (asyncio's `run_in_executor`, which
  asgiref's `sync_to_async` calls: `ws-render` is the sockets' render threads, named by
  the executor's thread name prefix);
- websocket frames sent and their bytes (autobahn's `sendMessage`).

On SIGUSR1 it writes the counts since the last dump to `$BENCH_PROBE_FILE.<pid>.json` and
starts again from zero: the script signals each process before and after the measured moves.
Nothing here is loaded by the site itself; it is a benchmark's instrument only.
"""

from __future__ import annotations

import collections
import json
import os
import re
import signal
import threading
from typing import Any

_TARGET = os.environ.get("BENCH_PROBE_FILE", "")
_lock = threading.Lock()
_counts: collections.Counter[str] = collections.Counter()
_TABLE = re.compile(r'(?:FROM|INTO|UPDATE|JOIN)\s+"?(\w+)"?', re.IGNORECASE)


def count(key: str, n: int = 1) -> None:
    with _lock:
        _counts[key] += n


def _dump(signum: int, frame: Any) -> None:
    with _lock:
        data = dict(_counts)
        _counts.clear()
    with open(f"{_TARGET}.{os.getpid()}.json", "w", encoding="utf-8") as out:
        json.dump(data, out)


def _what(args: tuple[Any, ...]) -> str:
    """What a cache command reads or writes, by the kind of its key (Django's cache keys
    look like ":1:presence:12:7"): " presence", " django.contrib.sessions", ..."""
    if len(args) < 2 or str(args[0]).upper() not in {"GET", "MGET", "SET", "EXPIRE", "DEL"}:
        return ""
    key = args[1].decode() if isinstance(args[1], bytes) else str(args[1])
    parts = key.split(":")
    return f" {parts[2] if len(parts) > 2 and parts[0] == '' else parts[0]}"


def _sql_key(sql: str) -> str:
    verb = sql.split(None, 1)[0].upper() if sql.strip() else "?"
    table = _TABLE.search(sql)
    return f"sql {verb} {table.group(1) if table else ''}".rstrip()


def _install() -> None:
    from django.db.backends.signals import connection_created

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        count(_sql_key(sql))
        return execute(sql, params, many, context)

    def on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
        # Sent again whenever a pooled connection is taken (PostgreSQL): count once.
        if counted not in connection.execute_wrappers:
            connection.execute_wrappers.append(counted)

    connection_created.connect(on_connection, weak=False)

    import redis.asyncio.client as aredis
    import redis.client as sredis

    def wrap_command(cls: Any) -> None:
        original = cls.execute_command

        def execute_command(self: Any, *args: Any, **options: Any) -> Any:
            count(f"redis {str(args[0]).upper()}{_what(args)}")
            return original(self, *args, **options)

        cls.execute_command = execute_command

    for cls in (sredis.Redis, aredis.Redis, sredis.PubSub, aredis.PubSub):
        wrap_command(cls)

    for module in (sredis, aredis):
        pipeline = module.Pipeline
        original_execute = pipeline.execute

        def execute(self: Any, *args: Any, _original: Any = original_execute, **kw: Any) -> Any:
            for command, _ in getattr(self, "command_stack", []):
                count(f"redis {str(command[0]).upper()} (pipelined)")
            return _original(self, *args, **kw)

        pipeline.execute = execute

    original_get_message = aredis.PubSub.get_message

    async def get_message(self: Any, *args: Any, **kwargs: Any) -> Any:
        message = await original_get_message(self, *args, **kwargs)
        if message is not None:
            count("redis pubsub message received")
        return message

    aredis.PubSub.get_message = get_message

    import channels.consumer

    original_handler_name = channels.consumer.get_handler_name

    def get_handler_name(message: dict[str, Any]) -> str:
        count(f"event {message.get('type')}")
        return str(original_handler_name(message))

    channels.consumer.get_handler_name = get_handler_name

    import asyncio

    original_run_in_executor = asyncio.BaseEventLoop.run_in_executor

    def run_in_executor(self: Any, executor: Any, *args: Any) -> Any:
        # The render pool's executor is told apart by the prefix it names its threads with.
        prefix = str(getattr(executor, "_thread_name_prefix", ""))
        count(f"thread jobs {prefix if prefix == 'ws-render' else type(executor).__name__}")
        return original_run_in_executor(self, executor, *args)

    asyncio.BaseEventLoop.run_in_executor = run_in_executor  # type: ignore[method-assign]

    import django.template.loader as loader

    original_render = loader.render_to_string

    def render_to_string(template_name: Any, *args: Any, **kwargs: Any) -> str:
        count(f"render {template_name}")
        return str(original_render(template_name, *args, **kwargs))

    loader.render_to_string = render_to_string

    from autobahn.websocket.protocol import WebSocketProtocol

    original_send = WebSocketProtocol.sendMessage

    def send_message(self: Any, payload: bytes, *args: Any, **kwargs: Any) -> Any:
        count("ws frames sent")
        count("ws bytes sent", len(payload))
        return original_send(self, payload, *args, **kwargs)

    WebSocketProtocol.sendMessage = send_message

    signal.signal(signal.SIGUSR1, _dump)


if _TARGET:
    _install()
