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
"strength" key.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.positions import mid_game
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


def _reference(game: Any, config: Any, players: list[str]) -> Callable[[int], int]:
    """One game on the reference (Python) engine, the baseline of every compiled row."""

    def play(seed: int) -> int:
        return play_game(game, config, players, seed, engine="python").decisions

    return play


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
                lambda seed, cfg=cfg: (
                    play_game(garner, cfg, ["random", "random"], seed, engine="python").decisions
                ),
            )
        )
    std = garner.config("standard")
    for pair in (["greedy", "greedy"], ["cautious", "cautious"], ["cautious", "random"]):
        label = f"{pair[0]} ×2" if pair[0] == pair[1] else " v ".join(pair)
        cases.append(
            (
                "garner standard",
                label,
                lambda seed, pair=pair: (
                    play_game(garner, std, pair, seed, engine="python").decisions
                ),
            )
        )
    gargon = GAMES["gargon"]
    for n in (3, 4, 5):
        cfg = gargon.config(f"{n}p")
        cases.append(
            (
                f"gargon {n}p",
                f"random ×{n}",
                lambda seed, cfg=cfg, n=n: (
                    play_game(gargon, cfg, ["random"] * n, seed, engine="python").decisions
                ),
            )
        )
    g4 = gargon.config("4p")
    cases.append(
        (
            "gargon 4p",
            "greedy ×4",
            _reference(gargon, g4, ["greedy"] * 4),
        )
    )
    dty = GAMES["deck_the_yard"]
    dcfg = dty.config(None)
    for player in ("random", "greedy"):
        cases.append(
            (
                "deck_the_yard",
                player,
                _reference(dty, dcfg, [player]),
            )
        )
    return cases


OPENSPIEL_GAMES = (
    "python_kuhn_poker",
    "python_tic_tac_toe",
    "python_liars_poker",
    "python_iterated_prisoners_dilemma",
    # C++ games, driven move by move from Python through pyspiel (the targets of issue 11)
    "hearts",
    "clobber",
    "dots_and_boxes(num_rows=5,num_cols=5)",
    # gamelib's own games driven through OpenSpiel (gamelib.openspiel, issue 13): random play
    # through the adapter, beside the same games' rows above
    "gamelib_garner",
    "gamelib_gargon",
    "gamelib_deck_the_yard",
)


def peer_cases() -> tuple[list[tuple[str, str, Callable[[int], int]]], list[str]]:
    """Peers that are installed, and a note for each one that is not."""
    cases: list[tuple[str, str, Callable[[int], int]]] = []
    missing = []
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  registers python_*

        import gamelib.openspiel  # noqa: F401  registers gamelib_*
    except ImportError as exc:
        missing.append(f"OpenSpiel not installed ({exc}); `make bench` installs it")
    else:
        for name in OPENSPIEL_GAMES:
            cases.append((f"openspiel {name}", "random", _openspiel_player(pyspiel, name)))
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as exc:
        missing.append(f"RLCard not installed ({exc}); `make bench` installs it")
    else:

        def uno(seed: int) -> int:
            env = rlcard.make("uno", config={"seed": seed % 2**31})
            env.set_agents([RandomAgent(num_actions=env.num_actions)] * env.num_players)
            trajectories, _ = env.run(is_training=False)
            return sum((len(t) - 1) // 2 for t in trajectories)

        cases.append(("rlcard uno", "random", uno))
    return cases, missing


def _openspiel_player(pyspiel: Any, name: str) -> Callable[[int], int]:
    game = pyspiel.load_game(name)
    n_players = game.num_players()

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n_players)])
                decisions += n_players
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play


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


TARGETS = {  # issue 11: random play, decisions/s, ÷ OpenSpiel's python tic-tac-toe
    "garner standard": 34.0,
    "gargon 4p": 24.0,
    "deck_the_yard": 21.0,
}
CPP_GAMES = ("openspiel hearts", "openspiel clobber", "openspiel dots_and_boxes")


def targets(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every compiled random-play row against issue 11's two ratio targets (same run)."""
    peers = {r["case"]: r for r in rows if r["kind"] == "peer"}
    ttt = peers.get("openspiel python_tic_tac_toe")
    cpp = [r for r in rows if r["kind"] == "peer" and r["case"].startswith(CPP_GAMES)]
    fastest = max(cpp, key=lambda r: r["decisions_per_s"], default=None)
    out = []
    for r in rows:
        if r["kind"] != "kernel" or not r["players"].startswith("random"):
            continue
        entry: dict[str, Any] = {"case": r["case"], "decisions_per_s": r["decisions_per_s"]}
        if ttt is not None:
            entry["vs_tic_tac_toe"] = round(r["decisions_per_s"] / ttt["decisions_per_s"], 1)
            entry["tic_tac_toe_target"] = TARGETS.get(r["case"])
        if fastest is not None:
            entry["fastest_cpp"] = fastest["case"]
            entry["vs_fastest_cpp"] = round(r["decisions_per_s"] / fastest["decisions_per_s"], 2)
        out.append(entry)
    return out


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
