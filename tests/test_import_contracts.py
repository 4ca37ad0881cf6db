"""The import contracts (pyproject.toml, checked by `lint-imports` in `make check`): every
module right under games/kinds is protected, so a new game's folder is protected without a
line of its own; the parts the games share are let through by name, and a game's folder
must never be among them (it would then be importable from anywhere)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from games import registry

ROOT = Path(__file__).resolve().parents[1]
KINDS = ROOT / "games" / "kinds"


def contract(contract_id: str) -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == contract_id)


def test_the_registry_contract_lets_through_the_shared_parts_and_no_game():
    rules = contract("games-through-registry")
    assert rules["protected_modules"] == ["games.kinds.*"]
    let_through = {
        rule.removeprefix("** -> games.kinds.")
        for rule in rules["ignore_imports"]
        if rule.startswith("** -> ")
    }
    games = {path.parent.name for path in KINDS.glob("*/kind.py")}
    assert games == {
        m.removeprefix("games.kinds.").removesuffix(".kind") for m in registry.KIND_MODULES
    }
    shared = {path.stem for path in KINDS.glob("*.py")} - {"__init__"}
    assert let_through == shared
    assert not let_through & games
