"""Side-by-side throughput: gamelib's games and their peers, on one core, plus parallel scaling.

Run with ``make bench`` (or ``python -m bench [--seconds S]``).  In one run it measures random
play of every gamelib game (decisions/s and games/s), the same figures for OpenSpiel's
pure-Python games, gamelib's own games driven through OpenSpiel (``gamelib.openspiel``) and
RLCard's UNO with random agents (installed by the ``bench`` extra), the
ratios between them, and ``simulate`` on 1 and 2 workers.  Each line plays seeded games back to
back for about ``--seconds``; nothing is asserted.  Results: a table on stdout and
``bench/results/latest.json``.

Garner's compiled core (``gamelib.garner.kernel``) is timed beside the Python engine: random
play in batches of games that never return to Python per decision, its speed-up over the Python
engine's row of the same run, and its first-call cost — compiling from scratch (a fresh numba
cache in a subprocess) and loading the on-disk cache.  ``--only garner`` runs just the Garner
rows (no peers, no scaling run).  The compiled greedy and cautious players
(``gamelib.garner.kernel_players``) are timed the same way on the standard setup, beside the
Python rows of the same pairs.

Gargon's compiled core (``gamelib.gargon.kernel``) gets the same rows for 3, 4 and 5 players
(random play on every seat; greedy on every seat for 4 players, beside the Python engine's
greedy ×4 row), Deck the Yard's (``gamelib.deck_the_yard.kernel``) for random and
greedy play; each has its own first-call cost and ``--only gargon`` / ``--only deck_the_yard``.

Every run (``--only GAME`` too: that game's row) also times clones of a mid-game position
(seeded random play to half the game's length): the reference engine's ``clone()``, one random
move on it (legal moves and apply, clone cost subtracted), and a ``.copy()`` of the compiled
core's state vector built by ``from_reference`` — the "clones" key of the report.

A full run also measures gamelib's games through its OpenSpiel adapters beside OpenSpiel's own
pure-Python tic-tac-toe and C++ games (``bench/openspiel_speed.py``: decisions and actions per
second, as ratios) — the "openspiel_adapters" key; ``--openspiel-only`` runs just those rows
into ``bench/results/openspiel.json``.

A full run also reports what a balance verdict costs (``bench/verdict_cost.py``): the deals a
sequential fairness verdict plays against a fixed-size test with the same α and β, on synthetic
streams at edges 0 to 4δ and on Garner setup A under greedy play — the "verdict_cost" key;
``--verdict-only`` runs just those rows into ``bench/results/verdict-cost.json``.

Every run ends with the start-up of a small command-line run of each game wanted, cold (an
empty numba cache) and warm (``bench/startup.py``) — the "startup" key — and the stored
strength curves (``bench/results/strength.json``, made by ``python -m bench.strength``, about an
hour of play on 2 cores, so a bench run shows the last one instead of playing it again) — the
"strength" key — and what Gargon's card worth table costs (``bench/worth_cost.py``: the
16-value table at greedy timed now, the search-level row as stored) — the "worth" key.

This file is the run (its flags, which rows a run wants, the table and the JSON); the rows are
timed in the rooms beside it: :mod:`bench.timing` (how a row is timed), :mod:`bench.kernels`
(the compiled engines and their first-call cost), :mod:`bench.clones`, :mod:`bench.peers`
(OpenSpiel's and RLCard's games, ratios and targets) and :mod:`bench.scaling`.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.clones import clone_rows
from bench.kernels import (
    DTY_KERNEL_FIRST_CALL,
    GARGON_KERNEL_FIRST_CALL,
    dty_kernel_cases,
    gargon_kernel_cases,
    kernel_cases,
    kernel_first_call,
)
from bench.peers import gamelib_cases, peer_cases, targets
from bench.scaling import scale_run, scaling
from bench.timing import RESULTS, measure, measure_batches
from gamelib import __version__


def search_rows(wanted: list[str]) -> list[dict[str, Any]]:
    """The search players' cost per decision (issue 12's targets: ``mcts:1000`` and
    ``ismcts:1000`` ≤ 50 ms), from each game's ``bench/<game>_search.py``, printed as they come."""
    out: list[dict[str, Any]] = []
    print("\nsearch players: ms per decision (iterations/s; random play's decisions/s)")
    if "garner" in wanted:
        from bench import garner_search

        for r in garner_search.search_rows():
            out.append({"game": "garner", **r})
            print(
                f"  garner standard {r['position']:<24} {r['player']:<18} "
                f"{r['ms_per_decision']:>7.1f} ms ({r['iterations_per_s']:,.0f} it/s; "
                f"{r['kernel_random_decisions_per_s']:,.0f})"
            )
    if "gargon" in wanted:
        from bench import gargon_search

        for r in gargon_search.search_rows(games=1):
            out.append({"game": "gargon", **r})
            print(
                f"  {r['case']:<40} {r['players']:<18} {r['ms_per_decision']:>7.1f} ms "
                f"({r['iterations_per_s']:,.0f} it/s)"
            )
    if "deck_the_yard" in wanted:
        from bench import dty_search

        for r in dty_search.cost_rows(dty_search.DeckTheYardConfig()):
            out.append({"game": "deck_the_yard", **r})
            cost = (
                f"{r['ms_per_decision_mean']:.1f} ms a decision"
                if "ms_per_decision_mean" in r
                else f"{r['s_per_game']:.2f} s a game"
            )
            print(f"  deck_the_yard {r['players']:<62} {cost}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per line (default 3)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="results file (default bench/results/latest.json; with --only GAME, GAME-kernel.json)",
    )
    parser.add_argument(
        "--scaling-games", type=int, default=1_000_000, help="games for the 1-vs-2 worker run"
    )
    parser.add_argument(
        "--scale-games",
        default="100000,1000000",
        help="comma-separated game counts for the command-line run to Parquet on 2 workers "
        "(time and peak memory); empty to skip",
    )
    parser.add_argument(
        "--only",
        choices=["garner", "gargon", "deck_the_yard"],
        help="only one game's rows (Python engine and kernel): no peers, no scaling run",
    )
    parser.add_argument("--no-search", action="store_true", help="skip the search players' rows")
    parser.add_argument(
        "--openspiel-only",
        action="store_true",
        help="only the OpenSpiel adapters' random-play rows (bench/openspiel_speed.py), into "
        "bench/results/openspiel.json",
    )
    parser.add_argument(
        "--verdict-only",
        action="store_true",
        help="only the verdict-cost rows (sequential vs fixed-size deals), into "
        "bench/results/verdict-cost.json",
    )
    args = parser.parse_args(argv)
    if args.openspiel_only:
        from bench import openspiel_speed

        out = args.out or RESULTS / "openspiel.json"
        found = {
            "when": time.strftime("%Y-%m-%d %H:%M:%S"),
            "rows": openspiel_speed.rows(args.seconds),
        }
        out.write_text(json.dumps(found, indent=2) + "\n")
        print(f"written: {out}")
        return 0
    if args.verdict_only:
        from bench import verdict_cost

        out = args.out or RESULTS / "verdict-cost.json"
        out.write_text(json.dumps(verdict_cost.main(), indent=2) + "\n")
        print(f"written: {out}")
        return 0
    rows: list[dict[str, Any]] = []
    if args.only:
        peers: list[tuple[str, str, Callable[[int], int]]] = []
        missing: list[str] = []
        ours_cases = [c for c in gamelib_cases() if c[0].startswith(args.only)]
    else:
        peers, missing = peer_cases()
        ours_cases = gamelib_cases()
    wanted = [args.only] if args.only else ["garner", "gargon", "deck_the_yard"]
    first_call = kernel_first_call() if "garner" in wanted else None
    gargon_first_call = kernel_first_call(GARGON_KERNEL_FIRST_CALL) if "gargon" in wanted else None
    dty_first_call = kernel_first_call(DTY_KERNEL_FIRST_CALL) if "deck_the_yard" in wanted else None
    print(f"{'case':<44} {'players':<26} {'games/s':>10} {'decisions/s':>12}")

    def show(r: dict[str, Any]) -> None:
        print(
            f"{r['case']:<44} {r['players']:<26} {r['games_per_s']:>10,.1f} "
            f"{r['decisions_per_s']:>12,.0f}"
        )

    for kind, cases in (("gamelib", ours_cases), ("peer", peers)):
        for name, players, fn in cases:
            r = {"kind": kind, "case": name, "players": players, **measure(fn, args.seconds)}
            rows.append(r)
            show(r)
    batch_cases = kernel_cases() if "garner" in wanted else []
    batch_cases += gargon_kernel_cases() if "gargon" in wanted else []
    batch_cases += dty_kernel_cases() if "deck_the_yard" in wanted else []
    for name, players, batch_fn in batch_cases:
        r = {"kind": "kernel", "case": name, "players": players}
        r.update(measure_batches(batch_fn, args.seconds))
        rows.append(r)
        show(r)
    for note in missing:
        print(f"skipped: {note}")
    calls = (
        ("Garner", first_call),
        ("Gargon", gargon_first_call),
        ("Deck the Yard", dty_first_call),
    )
    for label, call in calls:
        if call is None:
            continue
        print(
            f"\n{label} kernel, first call in a new process: {call['compile_s']} s compiling "
            f"(empty cache), {call['cached_s']} s from the on-disk cache "
            f"(import {call['import_s']} s)"
        )
    speedups = []
    python_rows = {(r["case"], r["players"]): r for r in rows if r["kind"] == "gamelib"}
    print(f"\n{'kernel vs Python engine':<40} {'Python engine':>14} {'kernel':>12} {'speed-up':>9}")
    for r in rows:
        base = python_rows.get((r["case"], r["players"].removesuffix(" kernel")))
        if r["kind"] != "kernel" or base is None:
            continue
        for unit in ("decisions_per_s", "games_per_s"):
            up = r[unit] / base[unit]
            speedups.append(
                {
                    "case": r["case"],
                    "players": base["players"],
                    "unit": unit,
                    "baseline": base[unit],
                    "now": r[unit],
                    "speedup": round(up, 1),
                }
            )
            label = f"{r['case']} {base['players']} {unit.removesuffix('_per_s')}/s"
            print(f"{label:<40} {base[unit]:>14,.1f} {r[unit]:>12,.1f} {up:>8.1f}×")
    ratios = []
    ours = [
        r for r in rows if r["kind"] in ("gamelib", "kernel") and r["players"].startswith("random")
    ]
    theirs = [r for r in rows if r["kind"] == "peer"]
    if theirs:
        print("\ndecisions/s ratio (gamelib random play ÷ peer)")
        print(f"{'':<30}" + "".join(f"{p['case'].split()[-1][:16]:>18}" for p in theirs))
        for r in ours:
            label = f"{r['case']}{' kernel' if r['kind'] == 'kernel' else ''}"
            line = f"{label:<30}"
            for p in theirs:
                ratio = r["decisions_per_s"] / p["decisions_per_s"]
                ratios.append({"gamelib": label, "peer": p["case"], "ratio": round(ratio, 2)})
                line += f"{ratio:>18.2f}"
            print(line)
    clones = clone_rows(wanted)
    scale = None
    if not args.only:
        scale = scaling(args.scaling_games)
        print(
            f"\nsimulate(), {scale['games']} standard Garner games, random play: "
            f"1 worker {scale['seconds_1_worker']} s, 2 workers {scale['seconds_2_workers']} s, "
            f"speed-up {scale['speedup']}×"
        )
    search = search_rows(wanted) if not args.no_search else []
    adapters = []
    if not args.only:
        from bench import openspiel_speed

        adapters = openspiel_speed.rows(args.seconds)
    from bench.startup import startup_rows

    print("\nstart-up of a small command-line run (bench/startup.py), cold and warm:")
    startup = startup_rows(wanted)
    cost = None
    if not args.only:
        from bench import verdict_cost

        cost = verdict_cost.main()
    from bench.strength import show_stored

    strength = show_stored()
    worth = None
    if not args.only:
        from bench import worth_cost

        worth = {"heuristic": worth_cost.heuristic_row(), "search": worth_cost.show_stored()}
    goals = targets(rows)
    if goals:
        print(f"\n{'random play, compiled':<28} {'÷ tic-tac-toe':>14} {'target':>7} "
              f"{'÷ fastest C++':>14} (target 1.5)")  # fmt: skip
        for g in goals:
            nan = float("nan")
            print(
                f"{g['case']:<28} {g.get('vs_tic_tac_toe', nan):>14.1f} "
                f"{g.get('tic_tac_toe_target') or '':>7} {g.get('vs_fastest_cpp', nan):>14.2f}"
            )
    scale_runs = []
    if not args.only and args.scale_games:
        for n in (int(x) for x in args.scale_games.split(",")):
            run = scale_run(n, 2)
            scale_runs.append(run)
            print(
                f"gamelib simulate garner -n {n:,} --workers 2 --out …parquet: "
                f"{run['seconds']} s, peak RSS {run['peak_rss_mb']} MB, "
                f"Parquet {run['parquet_mb']} MB"
            )
    report = {
        "gamelib_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "rows": rows,
        "kernel_first_call": first_call,
        "gargon_kernel_first_call": gargon_first_call,
        "dty_kernel_first_call": dty_first_call,
        "kernel_speedups": speedups,
        "ratios": ratios,
        "clones": clones,
        "scaling": scale,
        "targets": goals,
        "search": search,
        "openspiel_adapters": adapters,
        "verdict_cost": cost,
        "scale_runs": scale_runs,
        "startup": startup,
        "strength": strength,
        "worth": worth,
        "skipped": missing,
    }
    if args.out is None:  # a partial run never overwrites the full run's results
        name = f"{args.only.replace('_', '-')}-kernel.json" if args.only else "latest.json"
        args.out = RESULTS / name
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
