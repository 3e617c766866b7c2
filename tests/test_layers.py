"""The layering of the guide, checked on the import graph (every import, including those made
inside functions and for type checking): data flows one way, rules → kernel → players/search →
generic search → registry → sim → … → the tools, and no two modules import each other."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gamelib"
GAME_PACKAGES = ("gamelib.garner", "gamelib.gargon", "gamelib.deck_the_yard")
#: what sits above the games: a game package never imports any of it
ABOVE_GAMES = (
    "gamelib.search",
    "gamelib.registry",
    "gamelib.records",
    "gamelib.sim",
    "gamelib.stats",
    "gamelib.verdict",
    "gamelib.ladder",
    "gamelib.tune",
    "gamelib.report",
    "gamelib.widgets",
    "gamelib.openspiel",
    "gamelib.cli",
)
#: mutual imports that predate this check (issue 24 reshapes them); none may be added
KNOWN_PAIRS = {
    ("gamelib", "gamelib.records"),
    ("gamelib.deck_the_yard.kernel", "gamelib.deck_the_yard.players"),
}
#: upward imports that predate this check (a kernel writing records' format name)
KNOWN_UPWARD = {("gamelib.deck_the_yard.kernel", "gamelib.records")}


def _modules() -> dict[str, set[str]]:
    mods: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # "from package import module" imports the module, not the package
                found.update(f"{node.module}.{a.name}" for a in node.names)
                found.add(node.module)
        mods[name] = {m for m in found if m == "gamelib" or m.startswith("gamelib.")}
    return mods


@functools.cache
def _graph() -> dict[str, set[str]]:
    mods = _modules()

    def resolve(name: str) -> str:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {}
    for mod, imports in mods.items():
        targets = set()
        for imp in imports:
            target = resolve(imp)
            # "from gamelib.x import y" where y is a name, not a module, imports gamelib.x
            if target and target != mod:
                targets.add(target)
        graph[mod] = targets
    for mod, targets in graph.items():
        # a package's own __init__ is reached through its submodules' "from pkg import mod"
        graph[mod] = {t for t in targets if not (mod.startswith(t + ".") and t != "gamelib")}
    return graph


def test_no_two_modules_import_each_other() -> None:
    graph = _graph()
    pairs = {
        tuple(sorted((a, b))) for a, targets in graph.items() for b in targets if a in graph[b]
    }
    assert pairs <= KNOWN_PAIRS, sorted(pairs - KNOWN_PAIRS)


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_a_game_package_never_imports_what_sits_above_the_games(package: str) -> None:
    graph = _graph()
    bad = {
        (mod, t)
        for mod, targets in graph.items()
        if mod == package or mod.startswith(package + ".")
        for t in targets
        if t.startswith(ABOVE_GAMES)
    }
    assert bad <= KNOWN_UPWARD, sorted(bad - KNOWN_UPWARD)


def test_generic_search_sits_above_the_games_on_the_core_alone() -> None:
    graph = _graph()
    for mod, targets in graph.items():
        if mod.startswith("gamelib.search"):
            assert targets <= {"gamelib.core"} | {
                m for m in graph if m.startswith("gamelib.search")
            }, (
                mod,
                targets,
            )
