"""How a bench row is timed: seeded games back to back for about a given number of seconds, one
at a time (:func:`measure`) or in compiled batches (:func:`measure_batches`); nothing is asserted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from gamelib.core import game_seeds

RESULTS = Path(__file__).parent / "results"


def measure(play_one: Callable[[int], int], seconds: float) -> dict[str, float]:
    """Play games until ``seconds`` have passed; ``play_one(seed)`` returns its decisions."""
    seeds = iter(game_seeds(12345, 10**6))
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games < 3:
        decisions += play_one(next(seeds))
        games += 1
        elapsed = time.perf_counter() - start
    return {
        "games": games,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 0),
    }


def measure_batches(play_batch: Callable[[int, int], int], seconds: float) -> dict[str, float]:
    """Play batches of games until ``seconds`` have passed; ``play_batch(start, n)`` plays games
    ``start … start + n - 1`` of one seeded run and returns their decisions."""
    batch = 200
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games < 3:
        decisions += play_batch(games, batch)
        games += batch
        elapsed = time.perf_counter() - start
        batch = min(batch * 2, 5000)
    return {
        "games": games,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 0),
    }
