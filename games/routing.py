"""Websocket routes (see games/consumers/ for what each socket sends)."""

from __future__ import annotations

from typing import Any

from django.urls import path

from games.consumers import RoomConsumer, TableConsumer, UserConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/user/", UserConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/games/<int:game_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/games/<int:game_id>/room/", RoomConsumer.as_asgi()),  # type: ignore[arg-type]
]
