"""How long a small command-line run takes from start to finish: cold and warm (issue 21).

For each game the small run ``gamelib simulate GAME … --players greedy -n 3 --seed 1
--no-progress`` runs in fresh processes: first with ``NUMBA_CACHE_DIR`` pointing at an empty
folder — a cold start, which compiles everything the run calls (as a fresh clone did before
``make install`` warmed the cache) and must say so on stderr first — then ``repeat`` times with
that folder filled by the cold run — a warm start, which only loads.  ``python -c "import
gamelib"`` is timed the same way.  Times are wall-clock seconds of the whole process; warm
figures are medians.  The machine is shared, so the load average before and after is kept with
the numbers.  Nothing is asserted; ``python -m bench.startup`` prints the rows (``--json FILE``
also writes them), and ``make bench`` stores them under the report's ``"startup"`` key.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: the small run of each game (issue 21: "a warm run of 3 games")
SMALL_RUNS = {
    "garner": ["simulate", "garner", "--setup", "A", "--players", "greedy"],
    "gargon": ["simulate", "gargon", "--setup", "4p", "--players", "greedy"],
    "deck_the_yard": ["simulate", "deck_the_yard", "--players", "greedy"],
}
SMALL_RUN_TAIL = ["-n", "3", "--seed", "1", "--no-progress"]

#: what a cold run must print before it compiles (gamelib.warm.note_if_cold)
NOTE = "gamelib: note: compiling the"


def _timed(args: Sequence[str], cache: str | None) -> tuple[float, float, str]:
    """Wall-clock and CPU seconds (user + system) of a fresh ``python ARGS``, and its stderr
    (with ``NUMBA_CACHE_DIR=cache``).  On a shared machine the CPU time moves less than the
    wall-clock time when other jobs compete for the cores."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({run.returncode}): {run.stderr[-2000:]}")
    return seconds, cpu, run.stderr


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def startup_rows(
    games: Sequence[str] | None = None, repeat: int = 5, cold: bool = True
) -> dict[str, Any]:
    """Cold and warm start of each game's small run (and of ``import gamelib``), in seconds."""
    out: dict[str, Any] = {
        "command": "python -m gamelib simulate GAME ... " + " ".join(SMALL_RUN_TAIL),
        "repeat": repeat,
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "cpus": os.cpu_count(),
        "load_before": _load(),
    }
    imports = [_timed(["-c", "import gamelib"], None) for _ in range(repeat)]
    runs = [round(s, 3) for s, _, _ in imports]
    out["import_gamelib_s"] = round(statistics.median(runs), 3)
    out["import_gamelib_cpu_s"] = round(statistics.median(c for _, c, _ in imports), 3)
    out["import_gamelib_runs"] = runs
    print(
        f"import gamelib: {out['import_gamelib_s']} s, CPU {out['import_gamelib_cpu_s']} s "
        f"(medians of {repeat}: {runs})",
        flush=True,
    )
    rows: dict[str, Any] = {}
    for game in games or list(SMALL_RUNS):
        args = ["-m", "gamelib", *SMALL_RUNS[game], *SMALL_RUN_TAIL]
        row: dict[str, Any] = {"args": " ".join(args[2:])}
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
            if cold:
                seconds, cpu, err = _timed(args, cache)
                row["cold_s"] = round(seconds, 2)
                row["cold_cpu_s"] = round(cpu, 2)
                row["cold_note"] = NOTE in err
                row["cold_cache_files"] = sum(len(f) for _, _, f in os.walk(cache))
            else:
                _timed(args, cache)  # fill the cache, untimed
            warm = [_timed(args, cache) for _ in range(repeat)]
        row["warm_s"] = round(statistics.median(s for s, _, _ in warm), 3)
        row["warm_cpu_s"] = round(statistics.median(c for _, c, _ in warm), 3)
        row["warm_runs"] = [round(s, 3) for s, _, _ in warm]
        row["warm_note"] = any(NOTE in err for _, _, err in warm)
        rows[game] = row
        cold_text = (
            f"cold {row['cold_s']} s, CPU {row['cold_cpu_s']} s "
            f"({'note printed' if row['cold_note'] else 'NO NOTE'}, "
            f"{row['cold_cache_files']} cache files written); "
            if cold
            else ""
        )
        print(
            f"{game}: {cold_text}warm {row['warm_s']} s, CPU {row['warm_cpu_s']} s (medians of "
            f"{repeat}: {row['warm_runs']}"
            f"{'; a warm run printed the note!' if row['warm_note'] else ''})",
            flush=True,
        )
    out["games"] = rows
    out["load_after"] = _load()
    print(f"load average before {out['load_before']}, after {out['load_after']}")
    return out


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m bench.startup [--repeat N] [--games G,…] [--no-cold] [--json FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per game (default 5)")
    parser.add_argument("--games", default=",".join(SMALL_RUNS), help="comma-separated games")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold starts")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = sorted(set(games) - set(SMALL_RUNS))
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(SMALL_RUNS)}")
    result = startup_rows(games, repeat=args.repeat, cold=not args.no_cold)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
        print(f"written: {args.json}")
    return result


if __name__ == "__main__":
    main()
