"""The pure parts of every game kind import neither Django nor Channels.

Covered: every module under `games/kinds/*/engine/` (future games too), each game's
`bots.py`, `search.py`, `conformance.py` and `export.py`, and the shared `protocol.py`,
`conformance.py`, `simulation.py`, `search.py` and `levels.py`. Checked twice: the import
statements themselves (AST, so a lazy import inside a function is caught too), and a fresh
interpreter that imports every module and then finds no `django` or `channels` module
loaded (so an indirect import is caught too).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = ROOT / "games" / "kinds"
FORBIDDEN = ("django", "channels")


def pure_files() -> list[Path]:
    files = sorted(KINDS.glob("*/engine/**/*.py"))
    shared = ("protocol.py", "conformance.py", "simulation.py", "search.py", "levels.py")
    files += [KINDS / name for name in shared]
    files += sorted(KINDS.glob("*/bots.py")) + sorted(KINDS.glob("*/conformance.py"))
    files += sorted(KINDS.glob("*/search.py"))
    files += sorted(KINDS.glob("*/export.py"))
    return files


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path) -> list[str]:
    """Every absolute module name `path` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.append(module)
            names += [f"{module}.{alias.name}" for alias in node.names]
    return names


def test_there_are_pure_files_of_at_least_two_games():
    engines = {p.relative_to(KINDS).parts[0] for p in KINDS.glob("*/engine/__init__.py")}
    assert {"hundred_and_ten", "hearts"} <= engines


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(KINDS)))
def test_no_pure_module_imports_django_or_channels(path):
    bad = [n for n in imported_names(path) if n.split(".")[0] in FORBIDDEN]
    assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


def test_importing_every_pure_module_loads_neither_django_nor_channels():
    modules = [module_name(p) for p in pure_files()]
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
