"""A compiled module's on-disk cache can never be stale: its entries are removed when any file its
jitted functions depend on has changed since they were cached.

numba's cache (``@njit(cache=True)``) keys a module's entries on that module's own file.  A
jitted function that calls one defined in another file (``kernel_players`` calling ``kernel``,
every kernel calling ``kernel_rng``), or that reads a constant imported from one
(``heuristics.DECIDED_SUIT_FACTOR`` is frozen into the machine code), keeps the old code of that
other file after it is edited; numba's documentation (*Notes on caching*) leaves it to the user
to delete the cache files then.  So each compiled module ends with ``guard(globals())``: it
hashes the sources of every gamelib module the module imports, directly or through those
modules (found by reading their ``import`` statements, not by running them), and when the hash
differs from the one recorded beside the cache, it deletes the module's index files from its
cache folder (each jitted function's public ``stats.cache_path``) before any of them is loaded —
they compile afresh and are cached with the new hash.  An edit is then slow once, never wrong.

Reading the import statements means parsing every file (a tenth of a second on each start of a
compiled game, issue 33), so the stamp also lists the files the module reached and a hash of each
one's bytes, the module itself included: when every one of them still hashes as recorded, the
imports read from them are the same, so are the dependencies and their hash, and nothing is
parsed.
"""

from __future__ import annotations

import ast
import hashlib
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

from gamelib.core import atomic_write_text

_F = TypeVar("_F", bound=Callable[..., Any])


@cache
def _imports(path: Path, package: str, root: Path) -> tuple[Path, ...]:
    """The files of ``package`` (its folder: ``root``) that ``path`` imports, at module level
    or inside functions."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return ()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    files = []
    for name in names:
        top, _, rest = name.partition(".")
        if top != package:
            continue
        rel = Path(*rest.split(".")) if rest else Path("__init__")
        for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
            if candidate.is_file():
                files.append(candidate)
                break
    return tuple(sorted(set(files)))


def _package(module: str, path: str | os.PathLike[str]) -> tuple[str, Path]:
    """A module's top package and that package's folder."""
    parts = module.split(".")
    file = Path(path).resolve()
    return parts[0], file.parents[len(parts) - 2] if len(parts) > 1 else file.parent


def dependencies(module: str, path: str | os.PathLike[str]) -> list[Path]:
    """Every source file of its own package that the module ``module`` (at ``path``) reaches
    through its imports, itself excluded (numba already watches it)."""
    package, root = _package(module, path)
    start = Path(path).resolve()
    seen: set[Path] = set()
    todo = [start]
    while todo:
        for dep in _imports(todo.pop(), package, root):
            if dep not in seen and dep != start:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def source_hash(module: str, path: str | os.PathLike[str]) -> str:
    """A SHA-256 of the sources the module depends on (their names and bytes)."""
    _, root = _package(module, path)
    h = hashlib.sha256()
    for dep in dependencies(module, path):
        h.update(str(dep.relative_to(root)).encode())
        h.update(b"\0")
        h.update(dep.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def cache_folder(namespace: dict[str, Any]) -> Path | None:
    """The folder numba caches the jitted functions of a module (its ``globals()``) in: the
    public ``stats.cache_path`` of one of them; None when none is cached on disk."""
    name = namespace["__name__"]
    for v in list(namespace.values()):
        if getattr(getattr(v, "py_func", None), "__module__", None) != name:
            continue
        path = getattr(getattr(v, "stats", None), "cache_path", None)
        if path:
            return Path(path)
    return None


def guard(namespace: dict[str, Any]) -> bool:
    """Remove the cache entries of the jitted functions defined in this module (its
    ``globals()``) when a file they depend on changed since they were cached; returns whether
    it removed them."""
    name, path = namespace["__name__"], namespace.get("__file__")
    folder = cache_folder(namespace) if path is not None else None
    if path is None or folder is None:
        return False
    stamp = folder / f"{name}.deps-sha256"
    try:
        recorded = stamp.read_text(encoding="utf-8").split("\n")
    except OSError:
        recorded = []
    _, root = _package(name, path)
    if _unchanged(recorded[1:], root):
        return False  # the files the hash was made from are as they were: so is the hash
    digest = source_hash(name, path)
    removed = not recorded or recorded[0].strip() != digest
    if removed:  # an index gone is an empty cache: the next call compiles and caches again
        for index in folder.glob(f"{Path(path).stem}.*.nbi"):
            index.unlink(missing_ok=True)
    files = [Path(path).resolve(), *dependencies(name, path)]
    lines = [digest, *(f"{_file_hash(f)} {f.relative_to(root).as_posix()}" for f in files)]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(stamp, "\n".join(lines) + "\n")
    except OSError:  # a read-only cache folder: numba will not write there either
        pass
    return removed


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _unchanged(listed: list[str], root: Path) -> bool:
    """Whether every file a stamp lists (``HASH PATH`` lines after the digest; the module's
    own file first) still hashes as recorded.  An old stamp lists none: not known."""
    entries = [line.split(" ", 1) for line in listed if line.strip()]
    if not entries:
        return False
    try:
        return all(len(e) == 2 and _file_hash(root / e[1]) == e[0] for e in entries)
    except OSError:  # a file gone: its importer changed too, or will fail on import
        return False


def njit_borrowing(fn: _F) -> _F:
    """``@njit(cache=True)`` without numba's runtime (NRT): the compiled function counts no
    references, so it borrows the arrays it is given and the views it takes of them.

    Under the runtime every jitted call increments, and at its return decrements, an atomic
    reference count for each array argument (each of the arrays of a tables tuple) and for each
    row view it takes. The engines' hot loops call small functions per site, per lift and per
    playout move, so those counts were most of their time: 64–76 % of a Garner ``mcts:400``
    game's CPU samples, 62 % of Gargon 4p ``ismcts:200``'s, 79 % of Deck the Yard
    ``rollout:50``'s (perf and gdb samples, issue 33; ``docs/performance.md``, *Reference
    counts*). A borrowing function may not allocate (numba refuses to compile ``np.zeros``,
    ``.copy()`` or a slice assignment without the runtime, loudly), must not return an array,
    and calls only borrowing functions (``tests/test_jit_cache.py`` checks the last over every
    compiled module): numba compiles a callee in its caller's context, so a callee that
    allocates would not compile there. Its callers keep their arrays alive for the call, so
    nothing it borrows can be freed under it.
    """
    from numba import njit

    options: dict[str, Any] = {"cache": True, "_nrt": False}  # _nrt: numba's own jit option
    return cast(_F, njit(**options)(fn))
