"""How long a small command-line run takes from start to finish, cold and warm, beside
OpenSpiel's tiny tic-tac-toe run (issues 21 and 33).

For each game the small run ``gamelib simulate GAME … --players greedy -n 3 --seed 1
--no-progress`` runs in fresh processes.  Cold: with ``NUMBA_CACHE_DIR`` pointing at an empty
folder, so it compiles everything the run calls (as a fresh clone did before ``make install``
warmed the cache) and must say so on stderr first.  Warm: ``repeat`` rounds, each starting every
game's run once (with the cache the cold run filled, or with ``--no-cold`` the installed cache
``make install`` warmed, after one untimed run) and, in the same round, OpenSpiel's tiny run:
three seeded random games of tic-tac-toe in a fresh ``python`` — its pure-Python
``python_tic_tac_toe`` (the project's bar, as in ``bench/openspiel_speed.py``) and its C++
``tic_tac_toe``.  The runs of a round follow each other, so a busy spell of the shared machine
falls on all of them: each game's warm figure is the median over the rounds, and its ratio is
that median ÷ the OpenSpiel run's median (``vs_*``), beside the median of the rounds' own
ratios (``paired_vs_*``).  ``python -c "import gamelib"`` is timed the same way.  Times are
wall-clock seconds of the whole process; the load average before and after is kept with the
numbers.  Nothing is asserted; ``python -m bench.startup`` prints the rows and writes them to
``bench/results/startup.json`` (``--json FILE`` elsewhere), and ``make bench`` stores them under
the report's ``"startup"`` key.
"""

from __future__ import annotations

import argparse
import contextlib
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

#: OpenSpiel's tiny run: three seeded random games of tic-tac-toe in a fresh process, printed
OPENSPIEL_RUN = """
import random
import pyspiel
{register}
game = pyspiel.load_game({name!r})
for seed in (1, 2, 3):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    print(seed, state.returns())
"""
OPENSPIEL_RUNS = {
    # the pure-Python game (its module registers it; the project's bar since issue 23)
    "python_tic_tac_toe": OPENSPIEL_RUN.format(
        register="from open_spiel.python.games import tic_tac_toe  # noqa: F401",
        name="python_tic_tac_toe",
    ),
    "tic_tac_toe": OPENSPIEL_RUN.format(register="", name="tic_tac_toe"),  # C++
}
#: the OpenSpiel run issue 33's goal (≤ 3× in one script) is measured against
BAR = "python_tic_tac_toe"

#: what a cold run must print before it compiles (gamelib.warm.note_if_cold)
NOTE = "gamelib: note: compiling the"

DEFAULT_JSON = Path(__file__).parent / "results" / "startup.json"


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


def _has_openspiel() -> bool:
    probe = subprocess.run(
        [sys.executable, "-c", "import pyspiel"], capture_output=True, check=False
    )
    return probe.returncode == 0


def _median(xs: Sequence[float]) -> float:
    return round(statistics.median(xs), 3)


def _without_bytecode() -> int:
    """How many of gamelib's modules have no bytecode file next to them."""
    import importlib.util

    package = Path(__file__).resolve().parents[1] / "gamelib"
    return sum(
        not Path(importlib.util.cache_from_source(str(source))).is_file()
        for source in package.rglob("*.py")
    )


def startup_rows(
    games: Sequence[str] | None = None,
    repeat: int = 15,
    cold: bool = True,
    openspiel: bool = True,
) -> dict[str, Any]:
    """Cold and warm start of each game's small run, of ``import gamelib`` and of OpenSpiel's
    tiny runs (interleaved, ``repeat`` rounds), in seconds, with each game's warm ratios."""
    games = list(games or SMALL_RUNS)
    out: dict[str, Any] = {
        "command": "python -m gamelib simulate GAME ... " + " ".join(SMALL_RUN_TAIL),
        "repeat": repeat,
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "cpus": os.cpu_count(),
        "load_before": _load(),
        # an editable install's bytecode is written by gamelib.warm; without it every run
        # compiles gamelib's modules from source (PYTHONDONTWRITEBYTECODE stops Python writing it)
        "pythondontwritebytecode": bool(os.environ.get("PYTHONDONTWRITEBYTECODE")),
        "gamelib_modules_without_bytecode": _without_bytecode(),
    }
    peers = dict(OPENSPIEL_RUNS) if openspiel and _has_openspiel() else {}
    if openspiel and not peers:
        print("OpenSpiel is not installed (make bench installs it): no ratios", flush=True)
    rows: dict[str, Any] = {g: {"args": " ".join(SMALL_RUNS[g] + SMALL_RUN_TAIL)} for g in games}
    with contextlib.ExitStack() as stack:
        caches: dict[str, str | None] = {}
        for game in games:
            args = ["-m", "gamelib", *SMALL_RUNS[game], *SMALL_RUN_TAIL]
            row = rows[game]
            if cold:
                cache = stack.enter_context(tempfile.TemporaryDirectory(prefix="numba-cache-"))
                seconds, cpu, err = _timed(args, cache)
                row["cold_s"] = round(seconds, 2)
                row["cold_cpu_s"] = round(cpu, 2)
                row["cold_note"] = NOTE in err
                row["cold_cache_files"] = sum(len(f) for _, _, f in os.walk(cache))
                print(
                    f"{game}: cold {row['cold_s']} s, CPU {row['cold_cpu_s']} s "
                    f"({'note printed' if row['cold_note'] else 'NO NOTE'}, "
                    f"{row['cold_cache_files']} cache files written)",
                    flush=True,
                )
                caches[game] = cache
            else:
                caches[game] = None  # the installed cache (make install warmed it)
                _timed(args, None)  # untimed: the page cache and a stale index settle here
        for script in peers.values():
            _timed(["-c", script], None)  # untimed, as the games' first runs
        # one round: every case once, back to back, so a busy spell falls on all of them
        cases: dict[str, tuple[list[str], str | None]] = {
            "import gamelib": (["-c", "import gamelib"], None),
            **{f"openspiel {name}": (["-c", script], None) for name, script in peers.items()},
            **{
                game: (["-m", "gamelib", *SMALL_RUNS[game], *SMALL_RUN_TAIL], caches[game])
                for game in games
            },
        }
        times: dict[str, list[tuple[float, float, str]]] = {case: [] for case in cases}
        for _ in range(repeat):
            for case, (args, cache) in cases.items():
                times[case].append(_timed(args, cache))
    wall = {case: [round(s, 3) for s, _, _ in runs] for case, runs in times.items()}
    imports = times["import gamelib"]
    out["import_gamelib_s"] = _median(wall["import gamelib"])
    out["import_gamelib_cpu_s"] = _median([c for _, c, _ in imports])
    out["import_gamelib_runs"] = wall["import gamelib"]
    print(
        f"import gamelib: {out['import_gamelib_s']} s, CPU {out['import_gamelib_cpu_s']} s "
        f"(medians of {repeat})",
        flush=True,
    )
    out["openspiel"] = {}
    for name in peers:
        runs = times[f"openspiel {name}"]
        out["openspiel"][name] = {
            "warm_s": _median(wall[f"openspiel {name}"]),
            "warm_cpu_s": _median([c for _, c, _ in runs]),
            "warm_runs": wall[f"openspiel {name}"],
        }
        print(
            f"OpenSpiel {name} (3 random games): {out['openspiel'][name]['warm_s']} s, "
            f"CPU {out['openspiel'][name]['warm_cpu_s']} s (medians of {repeat})",
            flush=True,
        )
    for game in games:
        row, runs = rows[game], times[game]
        row["warm_s"] = _median(wall[game])
        row["warm_cpu_s"] = _median([c for _, c, _ in runs])
        row["warm_runs"] = wall[game]
        row["warm_note"] = any(NOTE in err for _, _, err in runs)
        ratios = []
        for name in peers:
            theirs = wall[f"openspiel {name}"]
            row[f"vs_{name}"] = round(row["warm_s"] / statistics.median(theirs), 2)
            paired = [a / b for a, b in zip(wall[game], theirs, strict=True)]
            row[f"paired_vs_{name}"] = round(statistics.median(paired), 2)
            ratios.append(f"{row[f'vs_{name}']}× {name} (paired {row[f'paired_vs_{name}']}×)")
        print(
            f"{game}: warm {row['warm_s']} s, CPU {row['warm_cpu_s']} s (medians of {repeat})"
            + (f"; {', '.join(ratios)}" if ratios else "")
            + ("; a warm run printed the note!" if row["warm_note"] else ""),
            flush=True,
        )
    out["bar"] = BAR if peers else None
    out["games"] = rows
    out["load_after"] = _load()
    print(f"load average before {out['load_before']}, after {out['load_after']}")
    return out


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m bench.startup [--repeat N] [--games G,…] [--no-cold] [--no-openspiel]
    [--json FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__)
    parser.add_argument("--repeat", type=int, default=15, help="warm rounds (default 15)")
    parser.add_argument("--games", default=",".join(SMALL_RUNS), help="comma-separated games")
    parser.add_argument(
        "--no-cold", action="store_true", help="skip the cold starts (warm: the installed cache)"
    )
    parser.add_argument("--no-openspiel", action="store_true", help="no OpenSpiel runs")
    parser.add_argument(
        "--json", type=Path, default=DEFAULT_JSON, help=f"write the rows here ({DEFAULT_JSON})"
    )
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = sorted(set(games) - set(SMALL_RUNS))
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(SMALL_RUNS)}")
    result = startup_rows(
        games, repeat=args.repeat, cold=not args.no_cold, openspiel=not args.no_openspiel
    )
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"written: {args.json}")
    return result


if __name__ == "__main__":
    main()
