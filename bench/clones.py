"""The cost of copying a mid-game position: the reference engine's ``clone()``, one random move on
it, and a ``.copy()`` of the compiled state vector (the report's "clones" key).
"""

from __future__ import annotations

import random
import timeit
from collections.abc import Callable
from typing import Any

from bench.positions import mid_game

CLONE_CASES = (
    ("garner", "standard", "gamelib.garner.kernel"),
    ("gargon", "4p", "gamelib.gargon.kernel"),
    ("deck_the_yard", None, "gamelib.deck_the_yard.kernel"),
)


def _best_us(fn: Callable[[], object]) -> float:
    """Microseconds per call of ``fn``: the best of 5 timeit runs of about 0.2 s each."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=number)) / number * 1e6


def clone_row(name: str, setup: str | None, kernel_module: str) -> dict[str, Any]:
    """Clone cost of a mid-game position: the reference engine's ``clone()``, one random move on
    it (legal moves computed afresh and applied, the clone it is made on subtracted), and a copy
    of the compiled core's state vector (``from_reference``) of the same position."""
    import importlib

    state, made, length = mid_game(name, setup)
    rng = random.Random(1)
    clone_us = _best_us(state.clone)

    def clone_and_move() -> None:
        s = state.clone()
        s._legal = None  # the move pays for its legal-move list, as in play
        s.apply(rng.choice(s.legal_moves()))

    move_us = max(_best_us(clone_and_move) - clone_us, 0.0)
    _, vector = importlib.import_module(kernel_module).from_reference(state)
    copy_us = _best_us(vector.copy)
    return {
        "case": name if setup is None else f"{name} {setup}",
        "moves_made": made,
        "game_length": length,
        "reference_clone_us": round(clone_us, 3),
        "reference_random_move_us": round(move_us, 3),
        "kernel_copy_us": round(copy_us, 3),
        "kernel_state_len": int(vector.size),
        "clone_speedup": round(clone_us / copy_us, 1),
    }


def clone_rows(wanted: list[str]) -> list[dict[str, Any]]:
    """One clone-cost row per wanted game, printed as a table."""
    rows = [clone_row(*case) for case in CLONE_CASES if case[0] in wanted]
    print(
        f"\n{'clone of a mid-game position':<30} {'ref clone µs':>13} {'ref move µs':>12} "
        f"{'kernel copy µs':>15} {'speed-up':>9}"
    )
    for r in rows:
        print(
            f"{r['case']:<30} {r['reference_clone_us']:>13.2f} "
            f"{r['reference_random_move_us']:>12.2f} {r['kernel_copy_us']:>15.3f} "
            f"{r['clone_speedup']:>8.1f}×"
        )
    return rows
