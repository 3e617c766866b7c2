"""The compiled engines' rows: random and heuristic play in batches for Garner, Gargon and Deck the
Yard, and each kernel's first-call cost (compiling from an empty numba cache in a subprocess, and
loading the on-disk cache).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from gamelib.registry import GAMES

KERNEL_FIRST_CALL = """
import time
t0 = time.perf_counter()
from gamelib.garner import SETUPS
from gamelib.garner.kernel import play_random
from gamelib.garner.kernel_players import play_batch
t1 = time.perf_counter()
play_random(SETUPS["A"], 1, 0, record=True)
play_batch(SETUPS["A"], ("greedy", "cautious"), 1, 0, record=True)
print(t1 - t0, time.perf_counter() - t1)
"""


def kernel_first_call(script: str = KERNEL_FIRST_CALL) -> dict[str, float]:
    """Seconds for the Garner kernel's first call in a new process (or another kernel's, by its
    ``script``): compiling everything (a fresh, empty numba cache) and loading the on-disk cache
    that the first run wrote."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("compile_s", "cached_s"):
            run = subprocess.run(
                [sys.executable, "-c", script],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            import_s, call_s = map(float, run.stdout.split())
            out[label] = round(call_s, 2)
            out["import_s"] = round(import_s, 2)
    return out


def kernel_cases() -> list[tuple[str, str, Callable[[int, int], int]]]:
    """(name, players, play-a-batch) for Garner's compiled core, every setup."""
    from gamelib.garner.kernel import play_random
    from gamelib.garner.kernel_players import play_batch

    garner = GAMES["garner"]
    cases: list[tuple[str, str, Callable[[int, int], int]]] = []
    for setup in garner.setups:
        cfg = garner.config(setup)
        play_random(cfg, 1, 0)  # load (or compile) outside the timing

        def play(start: int, n: int, cfg: Any = cfg) -> int:
            return int(play_random(cfg, n, 12345, start=start).table["decisions"].sum())

        cases.append((f"garner {setup}", "random ×2 kernel", play))
    std = garner.config("standard")
    for pair in (("greedy", "greedy"), ("cautious", "cautious"), ("cautious", "random")):
        play_batch(std, pair, 1, 0)

        def play_pair(start: int, n: int, pair: tuple[str, str] = pair) -> int:
            games = play_batch(std, pair, n, 12345, start=start)
            return int(games.table["decisions"].sum())

        label = f"{pair[0]} ×2" if pair[0] == pair[1] else " v ".join(pair)
        cases.append(("garner standard", f"{label} kernel", play_pair))
    return cases


GARGON_KERNEL_FIRST_CALL = """
import time
t0 = time.perf_counter()
from gamelib.gargon.rules import GargonConfig
from gamelib.gargon.kernel import play_random
t1 = time.perf_counter()
play_random(GargonConfig(), 1, 0, record=True)
print(t1 - t0, time.perf_counter() - t1)
"""


def gargon_kernel_cases() -> list[tuple[str, str, Callable[[int, int], int]]]:
    """(name, players, play-a-batch) for Gargon's compiled core: random play for 3, 4 and 5
    players, and greedy on every seat for 4."""
    from gamelib.gargon.kernel import play_random

    gargon = GAMES["gargon"]
    cases: list[tuple[str, str, Callable[[int, int], int]]] = []
    for n in (3, 4, 5):
        cfg = gargon.config(f"{n}p")
        play_random(cfg, 1, 0)  # load (or compile) outside the timing

        def play(start: int, n_games: int, cfg: Any = cfg) -> int:
            return int(play_random(cfg, n_games, 12345, start=start).table["decisions"].sum())

        cases.append((f"gargon {n}p", f"random ×{n} kernel", play))
    from gamelib.gargon.kernel import play as gargon_play

    g4 = gargon.config("4p")

    def play_greedy(start: int, n_games: int) -> int:
        return int(gargon_play(g4, "greedy", n_games, 12345, start=start).table["decisions"].sum())

    cases.append(("gargon 4p", "greedy ×4 kernel", play_greedy))
    return cases


DTY_KERNEL_FIRST_CALL = """
import time
t0 = time.perf_counter()
from gamelib.deck_the_yard import DeckTheYardConfig
from gamelib.deck_the_yard.kernel import play_random
t1 = time.perf_counter()
play_random(DeckTheYardConfig(), 1, 0, record=True)
print(t1 - t0, time.perf_counter() - t1)
"""


def dty_kernel_cases() -> list[tuple[str, str, Callable[[int, int], int]]]:
    """(name, players, play-a-batch) for Deck the Yard's compiled core, standard setup: random
    and greedy (its default plug policy)."""
    from gamelib.deck_the_yard.kernel import play as dty_play
    from gamelib.deck_the_yard.kernel import play_random as dty_play_random

    cfg = GAMES["deck_the_yard"].config(None)
    dty_play_random(cfg, 1, 0)  # load (or compile) outside the timing

    def play(start: int, n: int) -> int:
        return int(dty_play_random(cfg, n, 12345, start=start).table["decisions"].sum())

    def play_greedy(start: int, n: int) -> int:
        return int(dty_play(cfg, "greedy", n, 12345, start=start).table["decisions"].sum())

    return [
        ("deck_the_yard", "random kernel", play),
        ("deck_the_yard", "greedy kernel", play_greedy),
    ]
