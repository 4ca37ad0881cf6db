"""Hundred and Ten rules engine (pure Python; see the README of this package)."""

from __future__ import annotations
