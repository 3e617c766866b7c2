"""Compile every game's engines once, at install, and say so when a run still has to compile.

The compiled cores are numba functions cached on disk (``@njit(cache=True)``: next to their
source in ``__pycache__``, or under ``NUMBA_CACHE_DIR``).  A process that finds its functions
there loads them in well under a second; one that does not compiles them first, silently, for
tens of seconds a game.  ``make install`` therefore runs ``python -m gamelib.warm``, which plays
a tiny game of every game through every compiled path a run can take — the compiled players
(the ``simulate`` path, with and without records), the compiled random play, and each search
player — and prints one line per game with the seconds it took.  With the cache already warm
it only loads, in a few seconds.

It also writes the bytecode of gamelib's own modules (:func:`write_bytecode`, the standard
library's :mod:`compileall`), as pip does for a package it installs.  An editable install
leaves that to Python's first import, which skips it when ``PYTHONDONTWRITEBYTECODE`` is set
(many CI images and containers set it), and every run then compiled about 50 modules from
source: a small warm Garner run took 0.96 s without the bytecode and 0.81 s with it (medians of
10 interleaved runs, 2026-12-06).  Python still checks each file's bytecode against its
source, so an edited module is compiled afresh in memory until the next warm-up.

:func:`note_if_cold` is what a run asks before its first game: when a function it is about to
call has not been compiled for this machine (a fresh clone that skipped the warm-up, a new
``NUMBA_CACHE_DIR``, an edited kernel, another numba or CPU), it says so in one line — a
:class:`~gamelib.core.GamelibWarning`, printed by the command line as ``gamelib: note: …`` —
once per game and process.  numba offers no public way to ask whether its cache holds a
function, so gamelib keeps its own record (:func:`mark_warm`): beside numba's cache, for each
module it compiled, the numba version and CPU it compiled for and a hash of the module's sources
with every gamelib file they import.  The warm-up writes it, and so does a run that announced a
compile (numba caches what that run compiles); the check reads it, in milliseconds.
"""

from __future__ import annotations

import compileall
import contextlib
import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
import time
import warnings
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from gamelib.core import GamelibWarning, Player, atomic_write_text

#: how a note names each game's engine, and how long a small run compiles it on a 2-core VM
#: (``python -m bench.startup``: 92 / 42 / 43 s)
ENGINE_NAMES = {
    "garner": ("Garner", "one to two minutes"),
    "gargon": ("Gargon", "under a minute"),
    "deck_the_yard": ("Deck the Yard", "under a minute"),
}

#: the compiled functions Python calls when a run plays in a game's compiled core: numba looks
#: these up in its cache (their callees are linked into them), so they decide cold or warm
COMPILED_ENTRIES = {
    "garner": (
        "gamelib.kernel_rng:_seed_words",
        "gamelib.garner.kernel_players:play_batch_kernel",
    ),
    "gargon": ("gamelib.kernel_rng:_seed_words", "gamelib.gargon.kernel:play_batch"),
    "deck_the_yard": ("gamelib.kernel_rng:_seed_words", "gamelib.deck_the_yard.kernel:play_batch"),
}

#: the search players (reference engine, compiled search) and the compiled functions they call
SEARCH_ENTRIES: dict[str, dict[str, tuple[str, ...]]] = {
    "garner": {
        "mcts": ("gamelib.garner.search:search",),
        "solver": (
            "gamelib.garner.search:search",
            "gamelib.garner.search:search_tree",
            "gamelib.garner.solver:alphabeta",
            "gamelib.garner.solver:static_bounds",
            "gamelib.garner.solver:greedy_guess",
        ),
    },
    "gargon": {"ismcts": ("gamelib.gargon.search:search",)},
    "deck_the_yard": {
        "rollout": ("gamelib.deck_the_yard.search:rollout_decide",),
        "oracle": ("gamelib.deck_the_yard.search:oracle_plan",),
    },
}

#: a tiny game of each search player (few iterations: the compiled code is the same)
SEARCH_SPECS = {
    "garner": ("mcts:8", "mcts:8:random", "solver:8:6"),
    "gargon": ("ismcts:8", "ismcts:8:random"),
    "deck_the_yard": ("rollout:2", "oracle:2"),
}

#: each game's kernel module (its compiled random play, ``play_random``, and the state
#: conversion ``from_reference`` the library calls below start from)
KERNELS = {
    "garner": "gamelib.garner.kernel",
    "gargon": "gamelib.gargon.kernel",
    "deck_the_yard": "gamelib.deck_the_yard.kernel",
}

_noted: set[str] = set()


def _function(entry: str) -> Any:
    module, name = entry.split(":")
    return getattr(importlib.import_module(module), name)


def entries_for(game: str, players: Sequence[str | Player], engine: str) -> tuple[str, ...]:
    """The compiled functions a run of ``players`` on ``engine`` (``"compiled"`` or
    ``"python"``, as :func:`gamelib.records.engine_for` decides) calls from Python."""
    if engine == "compiled":
        return COMPILED_ENTRIES.get(game, ())
    searches = SEARCH_ENTRIES.get(game, {})
    out: dict[str, None] = {}
    for p in players:
        if isinstance(p, str):
            out.update(dict.fromkeys(searches.get(p.partition(":")[0], ())))
    return tuple(out)


@cache
def machine() -> dict[str, str]:
    """What numba's compiled code is made for: numba's version and this CPU (llvmlite's public
    host queries)."""
    import numba
    from llvmlite import binding  # type: ignore[import-untyped]

    return {
        "numba": numba.__version__,
        "cpu": binding.get_host_cpu_name(),
        "features": binding.get_host_cpu_features().flatten(),
    }


@cache
def _record(module_name: str) -> tuple[Path | None, str]:
    """Where the warm-up record of a module is kept (beside numba's cache of it), and a hash of
    the module's sources with those it imports (read once a process: its code in memory is what
    it imported)."""
    from gamelib.jit_cache import cache_folder, source_hash

    module = importlib.import_module(module_name)
    file = Path(module.__file__ or "").resolve()
    sources = hashlib.sha256(file.read_bytes())
    sources.update(source_hash(module_name, file).encode())
    folder = cache_folder(vars(module))
    return (folder / f"{module_name}.warm.json" if folder else None), sources.hexdigest()


def is_cached(entry: str) -> bool:
    """Whether ``entry``'s ("module:function") module was compiled on this machine, by this
    numba, from its current sources and those it imports (:func:`mark_warm` recorded it)."""
    path, sources = _record(entry.split(":")[0])
    want = {**machine(), "sources": sources}
    try:
        return path is not None and bool(json.loads(path.read_text(encoding="utf-8")) == want)
    except (OSError, ValueError):
        return False


def mark_warm(entries: Sequence[str]) -> None:
    """Record that the modules of ``entries`` are compiled (and cached by numba) for this
    machine and their current sources; a folder that cannot be written keeps no record."""
    for entry in dict.fromkeys(entries):
        path, sources = _record(entry.split(":")[0])
        want = {**machine(), "sources": sources}
        if path is not None:
            with contextlib.suppress(OSError):
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_text(path, json.dumps(want, indent=1, sort_keys=True))


def is_cold(game: str, players: Sequence[str | Player], engine: str) -> bool:
    """Whether a run of ``players`` on ``engine`` must compile part of ``game``'s engine first."""
    return not all(is_cached(e) for e in entries_for(game, players, engine))


def note_if_cold(game: str, players: Sequence[str | Player], engine: str) -> None:
    """Say in one line (a :class:`GamelibWarning`), once per game and process, that the run is
    about to compile ``game``'s engine, when it is."""
    if game in _noted or not is_cold(game, players, engine):
        return
    _noted.add(game)
    mark_warm(entries_for(game, players, engine))  # numba caches what this run compiles
    name, how_long = ENGINE_NAMES.get(game, (game, "a while"))
    warnings.warn(
        f"compiling the {name} engine for this machine (first run only, {how_long}; cached "
        "afterwards)",
        GamelibWarning,
        stacklevel=2,
    )


def warm_game(game_name: str) -> list[str]:
    """Play a tiny game of ``game_name`` through each compiled path, compiling (or loading)
    every function it calls; the paths taken, for the report line."""
    from gamelib.kernel_rng import seeds_for
    from gamelib.records import compiled_core, play_game
    from gamelib.registry import get_game

    game = get_game(game_name)
    core = compiled_core(game)
    config = game.config(None)
    seats = _seats(game, config)
    done = []
    if core is not None:
        compiled = [p for p in game.players if core.supports(p)]
        for player in compiled:
            for record in (False, True):
                core.play_seeds(config, [player] * seats, seeds_for(0, 2), record=record)
        done.append("compiled " + ", ".join(compiled))
    if game_name in KERNELS:
        kernel = importlib.import_module(KERNELS[game_name])
        kernel.play_random(config, 2, 0)
        _library_calls(game_name, kernel, game.new_state(config, random.Random(0)))
        done.append("random play")
    for spec in SEARCH_SPECS.get(game_name, ()):
        play_game(game, config, [spec] * seats, 0, engine="python")
    if game_name in SEARCH_SPECS:
        done.append(", ".join(SEARCH_SPECS[game_name]))
    if game_name in KERNELS and _openspiel_calls(game_name):
        done.append("OpenSpiel adapter")
    return done


def _openspiel_calls(game_name: str) -> bool:
    """The OpenSpiel adapter's compiled helpers (legal actions, resampling, information-state
    keys, rollouts), when OpenSpiel is installed: one random game, resampled and rolled out."""
    try:
        import pyspiel

        import gamelib.openspiel as ours
    except ImportError:
        return False
    game = pyspiel.load_game(f"gamelib_{game_name}")
    state = game.new_initial_state()
    rng = random.Random(0)
    evaluator = ours.CompiledRolloutEvaluator(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seat = state.current_player()
        state.resample_from_infostate(seat, rng.random).information_state_string(seat)
        evaluator.evaluate(state)
        state.apply_action(rng.choice(state.legal_actions()))
        break
    return True


def _library_calls(game_name: str, kernel: Any, state: Any) -> None:
    """The compiled functions no game path calls but the library and its tests call from
    Python on a kernel state (``is_over``, and one or two per game)."""
    import numpy as np

    t, st = kernel.from_reference(state)
    kernel.is_over(st)
    if game_name == "garner":
        from gamelib.garner.kernel_players import player_tables
        from gamelib.garner.search import parse_spec, root_children
        from gamelib.garner.solver import greedy_guess

        greedy_guess(t, player_tables(state.config), st, 0)
        # the solver player's choice among keeping moves (a tiny game at few cards left never
        # reaches it: without this, a first solver:N run compiled search_tree for ~12 s)
        root_children(state, parse_spec("8"), 0)
    elif game_name == "gargon":
        kernel.play_random_batch(t, np.zeros(1, np.int64), False)
    elif game_name == "deck_the_yard":
        from gamelib.deck_the_yard.search import belief

        belief(t, st)


def _seats(game: Any, config: Any) -> int:
    return int(game.new_state(config, random.Random(0)).n_players)


def write_bytecode(package: Path | None = None) -> bool:
    """Write the bytecode (``__pycache__/*.pyc``) of every module under ``package`` (default:
    gamelib's own folder) that has none or an outdated one, whatever ``PYTHONDONTWRITEBYTECODE``
    says; returns whether every module compiled."""
    folder = Path(__file__).resolve().parent if package is None else package
    return bool(compileall.compile_dir(folder, quiet=1))


def _warm_here(names: Sequence[str]) -> list[str]:
    """Warm ``names`` one after another in this process, one line each; the games that failed."""
    failed = []
    for name in names:
        t0 = time.perf_counter()
        cold = is_cold(name, [], "compiled") or is_cold(name, SEARCH_SPECS.get(name, ()), "python")
        try:
            paths = warm_game(name)
        except Exception as exc:  # one broken engine must not keep the others cold
            failed.append(name)
            print(f"{name}: FAILED after {time.perf_counter() - t0:.1f} s: {exc!r}", flush=True)
            continue
        searches = SEARCH_SPECS.get(name, ())
        mark_warm(entries_for(name, [], "compiled") + entries_for(name, searches, "python"))
        if not paths:  # a game gamelib knows through the protocol alone
            print(f"{name}: nothing to compile (no compiled core)", flush=True)
            continue
        how = "compiled" if cold else "already cached, loaded"
        print(f"{name}: {how} in {time.perf_counter() - t0:.1f} s ({'; '.join(paths)})", flush=True)
    return failed


def _warm_side_by_side(names: Sequence[str], at_once: int) -> list[str]:
    """Warm each game in a process of its own (``python -m gamelib.warm GAME``), ``at_once``
    at a time, and print their lines in the order named; the games that failed.  Each game's
    kernels are its own modules and numba writes its cache files atomically, so a fresh
    install waits for the slowest game rather than for the sum."""
    running: dict[str, subprocess.Popen[str]] = {}
    waiting = list(names)
    failed = []
    for name in names:
        while waiting and len(running) < at_once:
            nxt = waiting.pop(0)
            running[nxt] = subprocess.Popen(
                [sys.executable, "-m", "gamelib.warm", "--one", nxt],
                stdout=subprocess.PIPE,
                text=True,
            )
        out, _ = running[name].communicate()
        print(out, end="", flush=True)
        if running.pop(name).returncode != 0:
            failed.append(name)
    return failed


def main(argv: Sequence[str] | None = None) -> int:
    """Warm numba's cache for every game (or the games named), one line per game; write
    gamelib's bytecode first.  With more than one core the games compile side by side."""
    from gamelib.registry import GAMES

    args = list(argv if argv is not None else sys.argv[1:])
    if args[:1] == ["--one"]:  # one game, in this process (a worker of _warm_side_by_side)
        return 1 if _warm_here(args[1:]) else 0
    if not write_bytecode():
        print("gamelib.warm: some of gamelib's modules did not compile to bytecode (above)")
    names = args or list(GAMES)
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        print(f"gamelib.warm: unknown game(s) {', '.join(unknown)}; known: {', '.join(GAMES)}")
        return 2
    total = time.perf_counter()
    at_once = min(len(names), os.cpu_count() or 1)
    failed = _warm_here(names) if at_once < 2 else _warm_side_by_side(names, at_once)
    seconds = time.perf_counter() - total
    if failed:
        print(f"gamelib.warm: {', '.join(failed)} could not be compiled ({seconds:.1f} s)")
        return 1
    print(f"gamelib.warm: every game's engines are cached ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
