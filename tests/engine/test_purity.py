"""The engine is pure Python: no Django, no Channels, nothing else from `games`."""

from __future__ import annotations

import ast
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).resolve().parent
FORBIDDEN = ("django", "channels", "daphne", "asgiref", "games")


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            found.append("games." + "." * (node.level - 1) + (node.module or ""))
    return found


def forbidden_imports(path: Path) -> list[str]:
    return [
        name
        for name in imported_modules(path)
        if name.split(".")[0] in FORBIDDEN and not name.startswith("games.engine")
    ]


def test_no_engine_module_imports_django_channels_or_the_rest_of_games():
    modules = sorted(ENGINE.rglob("*.py"))
    assert len(modules) >= 10
    offenders = {str(p.relative_to(ENGINE)): forbidden_imports(p) for p in modules}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_checker_catches_forbidden_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import django\nfrom channels.layers import get_channel_layer\n"
        "from games.models import Game\nfrom .. import views\nfrom games.engine import cards\n"
    )
    assert forbidden_imports(bad) == ["django", "channels.layers", "games.models", "games.."]


def test_games_package_init_stays_empty():
    assert (ENGINE.parent / "__init__.py").read_text(encoding="utf-8").strip() == ""
