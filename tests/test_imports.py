"""No import circles in our code: data flows one way (view → service → engine; after commit,
signals and pushes), and a module never imports, even late inside a function, one that
imports it back. `games/apps.py` wires the listeners and is the only module allowed to name
modules that build on each other."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "accounts", "hundredten")
WIRING = {"games.apps"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """Our modules that `path` imports anywhere (top level, functions, TYPE_CHECKING aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = (
        module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else module_name(path)
    )
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            node.body = []  # annotations only: no import at run time
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    return found


def graph() -> dict[str, set[str]]:
    files = [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]
    known = {module_name(path) for path in files}
    edges = {}
    for path in files:
        name = module_name(path)
        if name not in WIRING:
            edges[name] = imports_of(path, known) - {name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle reachable by depth-first search (one per back edge)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            # A package's __init__ importing its own submodules is not a circle of ours.
            if nxt.startswith(node + "."):
                continue
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_our_modules_import_in_one_direction():
    assert cycles(graph()) == []


def test_the_check_sees_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    edges = graph()
    assert "games.services.bot_moves" in edges["games.clocks.deadlines"]  # the sweep builds on it
    assert "games.services.announce" in edges["games.services.bot_moves"]
    assert "games.services.states" in edges["games.presenters.basis"]
    assert "games.presenters.basis" in edges["games.presenters.context"]
