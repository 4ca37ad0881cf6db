"""The import contracts (pyproject.toml, checked by `lint-imports` in `make check`) name
every game: a new game's folder that the "only through the registry" contract forgot would
be importable from anywhere."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from games import registry

ROOT = Path(__file__).resolve().parents[1]


def contract(contract_id: str) -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == contract_id)


def test_every_game_is_protected_by_the_registry_contract():
    games = {path.parent.name for path in (ROOT / "games" / "kinds").glob("*/kind.py")}
    protected = contract("games-through-registry")["protected_modules"]
    assert sorted(protected) == sorted(f"games.kinds.{game}" for game in games)
    assert sorted(protected) == sorted(m.removesuffix(".kind") for m in registry.KIND_MODULES)
