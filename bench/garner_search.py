"""Garner's search player ``mcts:N`` on one core: time per decision and iterations per second.

``search_rows()`` times ``mcts:1000`` decisions (greedy playouts cut off after two turns, the
default; greedy playouts to the end, ``greedy:0``; random ones)
on the Garner standard mid-game position every clone row uses (``bench.positions.mid_game``: seeded
random play to half the game's length, a placement decision) and on the next lift decision of
the same game, beside the compiled core's random play (decisions per second, from whole games).
Each timing is the best of a few calls after a warm-up call (which compiles); nothing is
asserted. ``python -m bench.garner_search`` prints the rows.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.positions import mid_game
from gamelib.garner import GARNER, GarnerState
from gamelib.garner import kernel as K
from gamelib.garner import search as S
from gamelib.garner.rules import LIFT, PHASE_NAMES

TARGET_MS = 50.0
BUDGET = 1000


def _best_ms(player: S.MCTSPlayer, state: GarnerState, repeat: int) -> float:
    """Milliseconds per decision: the best of ``repeat`` calls, each with its own seed."""
    legal = state.legal_moves()
    player(state, legal, random.Random(0))  # compiles on a first run
    best = float("inf")
    for i in range(repeat):
        rng = random.Random(i + 1)
        start = time.perf_counter()
        player(state, legal, rng)
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def random_decisions_per_s(seconds: float = 1.0) -> float:
    """The compiled core's random play on Garner standard: decisions per second."""
    cfg = GARNER.config("standard")
    K.play_random(cfg, 10, 0)  # compiles on a first run
    decisions = 0
    start = time.perf_counter()
    batch = 0
    while time.perf_counter() - start < seconds:
        games = K.play_random(cfg, 200, 1, start=200 * batch)
        decisions += int(games.table["decisions"].sum())
        batch += 1
    return decisions / (time.perf_counter() - start)


def search_rows(repeat: int = 3) -> list[dict[str, Any]]:
    """One row per (position, playout policy): ms per ``mcts:1000`` decision, iterations/s, and
    the kernel's random-play decisions/s beside them."""
    state, made, length = mid_game("garner", None)
    positions: list[tuple[str, GarnerState]] = [(f"decision {made} of {length}", state)]
    nxt = state.clone()
    while nxt.phase != LIFT:
        nxt.apply(nxt.legal_moves()[0])
    positions.append((f"next lift, turn {nxt.turns}", nxt))  # type: ignore[arg-type]
    random_rate = random_decisions_per_s()
    rows = []
    for where, pos in positions:
        # the default (greedy playouts cut off after 2 turns), uncut greedy playouts, random ones
        for policy in ("greedy", "greedy:0", "random"):
            spec = f"{BUDGET}:{policy}"
            ms = _best_ms(S.mcts(spec), pos, repeat)
            rows.append(
                {
                    "case": "garner standard",
                    "position": where,
                    "decision": PHASE_NAMES[pos.phase],
                    "options": len(pos.legal_moves()),
                    "player": f"mcts:{spec}",
                    "ms_per_decision": round(ms, 2),
                    "target_ms": TARGET_MS,
                    "iterations_per_s": round(BUDGET / ms * 1e3),
                    "kernel_random_decisions_per_s": round(random_rate),
                }
            )
    return rows


def main() -> None:
    """Print the rows as a table."""
    rows = search_rows()
    print(
        f"{'mcts on garner standard':<28} {'decision':>9} {'options':>8} {'player':>18} "
        f"{'ms':>8} {'iterations/s':>13} {'random dec/s':>13}"
    )
    for r in rows:
        print(
            f"{r['position']:<28} {r['decision']:>9} {r['options']:>8} {r['player']:>18} "
            f"{r['ms_per_decision']:>8.1f} {r['iterations_per_s']:>13,} "
            f"{r['kernel_random_decisions_per_s']:>13,}"
        )


if __name__ == "__main__":
    main()
