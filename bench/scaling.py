"""Parallel scaling: ``simulate`` on 1 and 2 workers, each in its own process, timed from outside
(wall time and peak memory).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gamelib.registry import GAMES


def scaling(n_games: int) -> dict[str, float]:
    """simulate() on standard Garner with random players, 1 worker against 2."""
    from gamelib.sim import simulate

    cfg = GAMES["garner"].config("standard")
    times = {}
    for workers in (1, 2):
        start = time.perf_counter()
        simulate(cfg, ["random", "random"], n_games, 1, workers=workers, progress=False)
        times[workers] = time.perf_counter() - start
    return {
        "games": n_games,
        "seconds_1_worker": round(times[1], 2),
        "seconds_2_workers": round(times[2], 2),
        "speedup": round(times[1] / times[2], 2),
    }


SCALE_SCRIPT = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(json.dumps({
    "seconds": round(time.perf_counter() - start, 1),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    "returncode": done.returncode,
    "stderr": done.stderr[-500:],
}))
"""


def scale_run(n_games: int, workers: int) -> dict[str, Any]:
    """The command line's ``gamelib simulate garner`` of ``n_games`` standard random games on
    ``workers`` processes, table written to Parquet: wall time and the peak resident memory of
    the largest process (the command or one of its workers), from a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "garner.parquet"
        command = [
            sys.executable, "-m", "gamelib", "simulate", "garner", "--setup", "standard",
            "--players", "random", "-n", str(n_games), "--seed", "1",
            "--workers", str(workers), "--out", str(out), "--no-progress",
        ]  # fmt: skip
        done = subprocess.run(
            [sys.executable, "-c", SCALE_SCRIPT, *command], capture_output=True, text=True
        )
        report: dict[str, Any] = json.loads(done.stdout)
        report.update(games=n_games, workers=workers, parquet_mb=None)
        if out.exists():
            report["parquet_mb"] = round(out.stat().st_size / 2**20, 1)
    if report["returncode"] != 0:
        print(f"scale run failed: {report['stderr']}")
    return report
