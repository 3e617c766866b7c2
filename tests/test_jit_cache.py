"""A compiled module's on-disk cache is never stale (issue 33): numba keys a module's cache on
that file alone, so a jitted caller kept the old code of a callee edited in another file; every
compiled module of gamelib ends with ``jit_cache.guard(globals())``, which empties its cache
when a file it imports has changed.  The test edits a callee and sees the change."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from gamelib import jit_cache

CALLER = """
from numba import njit

from tinypkg.callee import value

@njit(cache=True)
def outer():
    return value() * 10
"""


def _run(root: Path, module: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(root / "numba")}
    code = f"from {module} import outer; print(outer())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_an_edited_callee_is_seen_through_the_guard_and_missed_without_it(tmp_path: Path) -> None:
    pkg = tmp_path / "tinypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    callee = pkg / "callee.py"
    callee.write_text("from numba import njit\n\n@njit(cache=True)\ndef value():\n    return 1\n")
    (pkg / "guarded.py").write_text(
        CALLER + "\nfrom gamelib.jit_cache import guard\n\nguard(globals())\n"
    )
    (pkg / "unguarded.py").write_text(CALLER)
    assert _run(tmp_path, "tinypkg.guarded") == "10"
    assert _run(tmp_path, "tinypkg.unguarded") == "10"
    time.sleep(0.01)
    callee.write_text("from numba import njit\n\n@njit(cache=True)\ndef value():\n    return 2\n")
    # numba alone keeps the caller's old machine code: the trap this guards against
    assert _run(tmp_path, "tinypkg.unguarded") == "10"
    # the guard sees that callee.py changed, empties the caller's cache, and it compiles again
    assert _run(tmp_path, "tinypkg.guarded") == "20"
    assert _run(tmp_path, "tinypkg.guarded") == "20"  # cached again, with the new stamp


def test_every_compiled_module_of_gamelib_is_guarded() -> None:
    root = Path(jit_cache.__file__).parent
    compiled = [p for p in sorted(root.rglob("*.py")) if "\n@njit" in p.read_text(encoding="utf-8")]
    assert compiled, "no compiled module found"
    for path in compiled:
        text = path.read_text(encoding="utf-8")
        assert text.rstrip().endswith("\nguard(globals())"), f"{path} does not end with the guard"


def test_a_kernels_dependencies_are_the_files_it_imports() -> None:
    import gamelib.garner.kernel_players as kp

    deps = {p.name for p in jit_cache.dependencies(kp.__name__, kp.__file__)}
    assert {"kernel.py", "heuristics.py", "kernel_rng.py"} <= deps
    assert "kernel_players.py" not in deps and "players.py" not in deps


@pytest.mark.parametrize("name", ["gamelib.garner.kernel", "gamelib.gargon.search"])
def test_a_warm_cache_is_not_flushed_again(name: str) -> None:
    import importlib

    module = importlib.import_module(name)
    assert jit_cache.guard(vars(module)) is False  # the stamp matches: nothing to redo


# --- functions compiled without numba's runtime (jit_cache.njit_borrowing) ----------------------


def _counting_callees(module: ModuleType, source: str) -> list[str]:
    """``caller -> callee`` for every call a borrowing function of ``module`` makes to a jitted
    function of its namespace that counts references (compiled with numba's runtime)."""
    from numba.core.dispatcher import Dispatcher

    found = []
    for fn in ast.parse(source).body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        if not any(isinstance(d, ast.Name) and d.id == "njit_borrowing" for d in fn.decorator_list):
            continue
        assert getattr(module, fn.name).targetoptions.get("_nrt") is False, fn.name
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                callee = module.__dict__.get(node.func.id)
                if isinstance(callee, Dispatcher) and callee.targetoptions.get("_nrt") is not False:
                    found.append(f"{fn.name} -> {node.func.id}")
    return found


def test_a_borrowing_function_calls_only_borrowing_functions() -> None:
    # numba compiles a callee in its caller's context: a callee that allocates would not compile
    # under a borrowing caller, and one that counts references would count them for nothing
    root = Path(jit_cache.__file__).parent
    borrowing = 0
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "\n@njit_borrowing" not in source:
            continue
        name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        assert _counting_callees(importlib.import_module(name), source) == [], name
        borrowing += source.count("\n@njit_borrowing")
    assert borrowing >= 60  # the three engines' hot loops, kernel_rng's streams


def test_the_borrowing_check_names_a_call_to_a_counting_function(tmp_path: Path) -> None:
    source = (
        "from numba import njit\n"
        "from gamelib.jit_cache import njit_borrowing\n\n"
        "@njit(cache=False)\ndef counting(a):\n    return a.copy()\n\n"
        "@njit_borrowing\ndef fine(a):\n    return a[0]\n\n"
        "@njit_borrowing\ndef wrong(a):\n    return fine(a) + counting(a)[0]\n"
    )
    (tmp_path / "borrowed_mod.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("borrowed_mod")
        assert _counting_callees(module, source) == ["wrong -> counting"]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("borrowed_mod", None)
