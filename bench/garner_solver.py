"""Garner's exact solver (``gamelib.garner.solver``): how far it reaches, how often players keep
the value, and who wins setup A under perfect play.

Three parts, one core, nothing asserted:

1. **Reach.** For setup A and standard, at ``cards_left`` = 6, 9, 12, … (cards not yet
   collected), ``--positions-per-step`` positions are sampled: seeded greedy-vs-greedy games
   (compiled, as ``simulate`` plays them), the first turn's lift with at most that many cards
   left, *contested* ones only — positions the suits already won decide need no search (the
   ``decided`` column counts those passed over; in standard most are). Each is solved from a
   cold table (``Solver.clear``) with a node budget; the row gives the median and maximum
   seconds and nodes. A setup stops growing once a solve passes ``--budget-s`` seconds or the
   node budget (it is then recorded as unsolved).
2. **Keeping the value** (``keeps.keeps_value``): ``--keeps-positions`` decisions sampled from
   greedy games at the largest comfortable ``cards_left`` of each setup (every solve there within
   ``--comfort-s`` seconds) and at the ``--keeps-cards`` below it (18 and 12), solved within
   ``--keeps-max-nodes`` (positions past it are counted as unsolved), the critical ones kept,
   and the share at which random, greedy, cautious, mcts:50, mcts:200 and mcts:800 keep the
   value, with Wilson intervals. The same positions judge every player; the decisions the
   strongest player lost are listed with the move it preferred.
3. **Whole deals of setup A**, when the reach table shows them solvable: seat 0's result under
   perfect play for ``--deals`` deals seeded as gamelib seeds games (game ``i`` of seed
   ``--seed`` deals from ``game_seeds(seed, n)[i]``), with the win share's Wilson interval.

``python -m bench.garner_solver`` prints the tables and writes
``bench/results/garner-solver.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from gamelib import __version__
from gamelib.core import game_rngs, game_seeds
from gamelib.garner import GARNER, GarnerConfig, GarnerState
from gamelib.garner import keeps as K
from gamelib.garner import solver as S
from gamelib.garner.kernel import N_LEFT, PHASE, apply, new_work, state_from_deal, tables
from gamelib.garner.kernel_players import play_seeds, player_tables
from gamelib.garner.rules import LIFT

RESULTS = Path(__file__).resolve().parent / "results" / "garner-solver.json"
PLAYERS = ["random", "greedy", "cautious", "mcts:50", "mcts:200", "mcts:800"]
STEPS = {"A": [6, 9, 12, 15, 18, 21, 24, 27], "standard": [6, 9, 12, 15, 18, 21, 24, 27, 36]}
TT_BITS = 22
GAMES_PER_POSITION = 20


def turn_starts(config: GarnerConfig, cards_left: int, n: int, seed: int) -> tuple[list[Any], int]:
    """Kernel states of ``n`` contested positions and how many decided ones were passed over:
    seeded greedy-vs-greedy games (at most ``GAMES_PER_POSITION · n``), each giving its first
    lift with at most ``cards_left`` cards left, kept when the suits already won do not settle
    the result (``solver.static_bounds``: those need no search)."""
    seeds = game_seeds(seed, GAMES_PER_POSITION * n)
    games = play_seeds(config, ["greedy", "greedy"], np.array(seeds, np.int64), record=True)
    t = tables(config)
    pt = player_tables(config)
    work = new_work(t)
    out: list[Any] = []
    decided = 0
    for g in range(len(seeds)):
        st = state_from_deal(t, games.deals[g])
        for d in games.game_decisions(g):
            if st[PHASE] == LIFT and st[N_LEFT] <= cards_left:
                lo, hi = S.static_bounds(t, pt.suit_total, st)
                if lo == hi:
                    decided += 1
                else:
                    out.append(st.copy())
                break
            apply(t, st, int(d), work)
        if len(out) == n:
            break
    return out, decided


def reach_rows(
    setup: str, per_step: int, budget_s: float, max_nodes: int, seed: int
) -> list[dict[str, Any]]:
    """One row per cards_left step of ``setup``: seconds and nodes per cold solve."""
    config = GARNER.config(setup)
    solver = S.Solver(config, tt_bits=TT_BITS)
    rows = []
    for cards in STEPS[setup]:
        seconds, nodes, values = [], [], []
        unsolved = 0
        positions, decided = turn_starts(config, cards, per_step, seed)
        if not positions:
            continue
        for st in positions:
            solver.clear()
            start = time.perf_counter()
            try:
                values.append(solver.value_of(st, max_nodes) / 2)
            except S.SolverBudgetError:
                unsolved += 1
            seconds.append(time.perf_counter() - start)
            nodes.append(solver.nodes)
            if seconds[-1] > budget_s or unsolved:
                break
        rows.append(
            {
                "setup": setup,
                "cards_left": cards,
                "positions": len(seconds),
                "decided_skipped": decided,
                "unsolved": unsolved,
                "median_s": statistics.median(seconds),
                "max_s": max(seconds),
                "median_nodes": int(statistics.median(nodes)),
                "max_nodes": max(nodes),
                "nodes_per_s": round(sum(nodes) / max(sum(seconds), 1e-9)),
                "seat0_wins": sum(v == 1.0 for v in values),
            }
        )
        print(_reach_line(rows[-1]), flush=True)
        if unsolved or max(seconds) > budget_s:
            break
    return rows


def _reach_line(r: dict[str, Any]) -> str:
    return (
        f"{r['setup']:<9} {r['cards_left']:>5} {r['positions']:>4} {r['decided_skipped']:>7} "
        f"{r['unsolved']:>4} "
        f"{r['median_s']:>9.3f} {r['max_s']:>9.3f} {r['median_nodes']:>12,} {r['max_nodes']:>12,} "
        f"{r['nodes_per_s']:>10,}"
    )


def keeps_rows(
    setup: str, cards_left: int, n: int, seed: int, max_nodes: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The keeps-the-value table of every player at one ``cards_left``, and the decisions the
    last (strongest) player lost."""
    config = GARNER.config(setup)
    solver = S.Solver(config, tt_bits=TT_BITS)
    start = time.perf_counter()
    positions, unsolved = K.sample_positions(
        config, cards_left, n, seed, solver=solver, max_nodes=max_nodes
    )
    solve_s = time.perf_counter() - start
    rows, lost = [], []
    critical = [p for p in positions if p.critical]
    for spec in PLAYERS:
        start = time.perf_counter()
        judged = K.judge(positions, spec, solver=solver, max_nodes=max_nodes)
        row = {
            "setup": setup,
            "cards_left": cards_left,
            "player": spec,
            "sampled": len(positions) + unsolved,
            "unsolved": unsolved,
            **K.share_row(judged),
            "judge_s": round(time.perf_counter() - start, 1),
            "solve_s": round(solve_s, 1),
        }
        rows.append(row)
        print(_keeps_line(row), flush=True)
        if spec == PLAYERS[-1]:
            by_game = {p.game: p for p in critical}
            for rec in judged[~judged["kept"]].to_dict("records"):
                r = {str(k): v for k, v in rec.items()}
                pos = by_game[r["game"]]
                legal = pos.state.legal_moves()
                r["keeping_moves"] = [repr(legal[k]) for k in pos.keeping]
                r["layout"] = [[list(c) for c in stack] for stack in pos.state.layout()]
                r["piles"] = pos.state.piles
                lost.append({"setup": setup, "cards_left": cards_left, **r})
    return rows, lost


def _keeps_line(r: dict[str, Any]) -> str:
    return (
        f"{r['setup']:<9} {r['cards_left']:>5} {r['player']:>9} {r['sampled']:>7} "
        f"{r['critical']:>8} {r['kept']:>5} {r['share']:>6.3f}  "
        f"[{r['share_lo']:.3f}, {r['share_hi']:.3f}] {r['own_line']:>8}"
    )


def whole_deals(n: int, seed: int, max_nodes: int) -> dict[str, Any]:
    """Seat 0's result under perfect play for ``n`` seeded setup-A deals."""
    config = GARNER.config("A")
    solver = S.Solver(config, tt_bits=TT_BITS)
    values, seconds, nodes = [], [], []
    unsolved = 0
    for gs in game_seeds(seed, n):
        state = GARNER.new_state(config, game_rngs(gs, 2)[0])
        assert isinstance(state, GarnerState)
        solver.clear()
        start = time.perf_counter()
        try:
            values.append(solver.solve(state, max_nodes))
        except S.SolverBudgetError:
            unsolved += 1
        seconds.append(time.perf_counter() - start)
        nodes.append(solver.nodes)
    wins = sum(v == 1.0 for v in values)
    draws = sum(v == 0.5 for v in values)
    solved = len(values)
    lo, hi = proportion_confint(wins, solved, alpha=0.05, method="wilson") if solved else (0, 1)
    return {
        "setup": "A",
        "seed": seed,
        "deals": n,
        "solved": solved,
        "unsolved": unsolved,
        "seat0_wins": wins,
        "draws": draws,
        "seat1_wins": solved - wins - draws,
        "seat0_win_share": wins / solved if solved else float("nan"),
        "share_lo": max(0.0, float(lo)),
        "share_hi": min(1.0, float(hi)),
        "median_s": statistics.median(seconds),
        "max_s": max(seconds),
        "median_nodes": int(statistics.median(nodes)),
        "max_nodes": max(nodes),
        "total_s": round(sum(seconds), 1),
    }


def comfortable(rows: list[dict[str, Any]], comfort_s: float) -> int | None:
    """The largest cards_left whose every solve was within ``comfort_s`` seconds."""
    ok = [r["cards_left"] for r in rows if not r["unsolved"] and r["max_s"] <= comfort_s]
    return max(ok) if ok else None


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the three parts, print their tables and write the JSON report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setups", nargs="+", default=["A", "standard"])
    ap.add_argument("--positions-per-step", type=int, default=8)
    ap.add_argument("--budget-s", type=float, default=60.0)
    ap.add_argument("--max-nodes", type=int, default=10_000_000)
    ap.add_argument("--comfort-s", type=float, default=3.0)
    ap.add_argument("--keeps-positions", type=int, default=300)
    ap.add_argument("--keeps-cards", nargs="+", type=int, default=[18, 12])
    ap.add_argument("--keeps-max-nodes", type=int, default=3_000_000)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    began = time.perf_counter()

    print(
        f"{'setup':<9} {'cards':>5} {'pos':>4} {'decided':>7} {'miss':>4} {'median s':>9} "
        f"{'max s':>9} "
        f"{'median nodes':>12} {'max nodes':>12} {'nodes/s':>10}"
    )
    reach = []
    for setup in args.setups:
        reach += reach_rows(
            setup, args.positions_per_step, args.budget_s, args.max_nodes, args.seed
        )

    print(
        f"\n{'setup':<9} {'cards':>5} {'player':>9} {'sampled':>7} {'critical':>8} {'kept':>5} "
        f"{'share':>6}  {'95% Wilson':<16} {'own line':>8}"
    )
    keeps: list[dict[str, Any]] = []
    lost: list[dict[str, Any]] = []
    for setup in args.setups:
        top = comfortable([r for r in reach if r["setup"] == setup], args.comfort_s)
        if top is None:
            continue
        steps = {top, *(c for c in args.keeps_cards if c <= top)}
        for cards in sorted(steps, reverse=True):
            k, lo = keeps_rows(setup, cards, args.keeps_positions, args.seed, args.keeps_max_nodes)
            keeps += k
            lost += lo

    deals = None
    a_rows = [r for r in reach if r["setup"] == "A"]
    if any(r["cards_left"] == 27 and not r["unsolved"] for r in a_rows) and args.deals > 0:
        deals = whole_deals(args.deals, args.seed, args.max_nodes)
        print(
            f"\nsetup A whole deals under perfect play: seat 0 wins {deals['seat0_wins']} of "
            f"{deals['solved']} solved ({deals['unsolved']} over budget), share "
            f"{deals['seat0_win_share']:.3f} [{deals['share_lo']:.3f}, {deals['share_hi']:.3f}]; "
            f"median {deals['median_s']:.2f} s, max {deals['max_s']:.2f} s a deal"
        )

    if lost:
        print(f"\ndecisions {PLAYERS[-1]} lost (mover's result under perfect play → after it):")
        frame = pd.DataFrame(lost)
        cols = ["setup", "cards_left", "game", "decision", "options", "keeping", "value"]
        print(frame[[*cols, "choice_value", "move", "keeping_moves"]].to_string(index=False))

    report = {
        "gamelib_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "reach": reach,
        "keeps_value": keeps,
        "lost_by_" + PLAYERS[-1].replace(":", ""): lost,
        "whole_deals_A": deals,
        "seconds": round(time.perf_counter() - began, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, default=_plain) + "\n")
    print(f"\nwrote {args.out} ({report['seconds']} s)")
    return report


def _plain(x: Any) -> Any:
    """numpy scalars as Python numbers for JSON."""
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"cannot write {type(x).__name__} as JSON")


if __name__ == "__main__":
    main()
