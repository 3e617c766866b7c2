"""Throughput of gamelib's games on one core: decisions/s and games/s, written as a table and JSON.

Run with ``make bench`` (or ``python -m bench [--seconds S]``).  Each line plays seeded games
back to back for about ``--seconds`` and reports what it managed; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamelib import __version__, play_game
from gamelib.core import game_seeds
from gamelib.registry import GAMES

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


def gamelib_cases() -> list[tuple[str, str, Callable[[int], int]]]:
    """(name, players, play-one-game) for every gamelib game, setup and player of interest."""
    garner = GAMES["garner"]
    cases: list[tuple[str, str, Callable[[int], int]]] = []
    for setup in garner.setups:
        cfg = garner.config(setup)
        cases.append(
            (
                f"garner {setup}",
                "random ×2",
                lambda seed, cfg=cfg: play_game(garner, cfg, ["random", "random"], seed).decisions,
            )
        )
    std = garner.config("standard")
    for pair in (["greedy", "greedy"], ["cautious", "cautious"], ["cautious", "random"]):
        label = f"{pair[0]} ×2" if pair[0] == pair[1] else " v ".join(pair)
        cases.append(
            (
                "garner standard",
                label,
                lambda seed, pair=pair: play_game(garner, std, pair, seed).decisions,
            )
        )
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per line (default 3)")
    parser.add_argument("--out", type=Path, default=RESULTS / "latest.json")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    print(f"{'case':<22} {'players':<14} {'games/s':>10} {'decisions/s':>12}")
    for name, players, fn in gamelib_cases():
        r = {"case": name, "players": players, **measure(fn, args.seconds)}
        rows.append(r)
        print(f"{name:<22} {players:<14} {r['games_per_s']:>10,.1f} {r['decisions_per_s']:>12,.0f}")
    report = {
        "gamelib_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
