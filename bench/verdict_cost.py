"""What a sequential verdict costs: the deals it plays against a fixed-size test's, same α and β.

``verdict_rows()`` runs :func:`gamelib.verdict.sequential.decide_many` (the verdict's own
procedure, on the looks a verdict takes) on synthetic two-seat streams — seat 0's points per
deal, a win worth 1, with seat 0's true share 0.5 + edge — for edges from 0 to 4δ, and reports
per edge the average deals used, the share of holds / fails / undecided, and the deals a
fixed-size test with the same α and β needs at that edge
(:func:`gamelib.verdict.sequential.fixed_deals`: TOST inside the margin, a one-sided test beyond
it; none decides on the margin) — a size only an oracle knowing the edge could choose — and
the size a fixed design planned for an even game plays on every rule set.  ``garner_row()``
adds one real verdict: fairness on Garner setup A under greedy play.  ``strong_row()`` prices
the issue-21 goal — a fairness verdict at ``mcts:400`` on the standard setup at δ = 0.03 in 3
minutes on 2 cores — from measured seconds per ``mcts:400`` self-play game (2 workers) times
the deals the sequential verdict uses on an even game (the synthetic edge-0 row), without
playing the verdict itself (over an hour).  Nothing is asserted;
``python -m bench.verdict_cost`` prints the rows.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from gamelib.verdict.sequential import (
    FAILS,
    HOLDS,
    UNDECIDED,
    Band,
    decide_many,
    fixed_deals,
    look_schedule,
)

MARGIN = 0.03
ALPHA = BETA = 0.05
MAX_DEALS = 40_000
EDGES = (0.0, 0.5, 1.0, 1.5, 2.0, 4.0)  # in units of the margin δ


def verdict_rows(reps: int = 400, seed: int = 2026, chunk: int = 50) -> list[dict[str, Any]]:
    """One row per edge: sequential deals (mean, median, 90th percentile), decision shares,
    and the fixed-size test's deals."""
    looks = look_schedule(MAX_DEALS)
    band = Band(0.5 - MARGIN, 0.5 + MARGIN)
    rng = np.random.default_rng(seed)
    rows = []
    # a fixed design must pick its size before it plays: sized for an even game (edge 0)
    planned = fixed_deals(0.5, MARGIN, ALPHA, BETA, 0.0)
    for k in EDGES:
        edge = k * MARGIN
        p = 0.5 + edge
        deals: list[np.ndarray] = []
        words: list[np.ndarray] = []
        for start in range(0, reps, chunk):
            n = min(chunk, reps - start)
            x = (rng.random((1, n, MAX_DEALS)) < p).astype(float)
            res = decide_many(x, [band], ALPHA, BETA, looks)
            deals.append(res["deals"])
            words.append(res["decision"])
        d = np.concatenate(deals)
        w = np.concatenate(words)
        sd = math.sqrt(p * (1 - p))
        fixed = None if k == 1.0 else fixed_deals(sd, MARGIN, ALPHA, BETA, edge)
        rows.append(
            {
                "edge": round(edge, 4),
                "edge_in_margins": k,
                "reps": reps,
                "mean_deals": round(float(d.mean()), 1),
                "median_deals": int(np.median(d)),
                "p90_deals": int(np.quantile(d, 0.9)),
                "holds": round(float((w == HOLDS).mean()), 4),
                "fails": round(float((w == FAILS).mean()), 4),
                "undecided": round(float((w == UNDECIDED).mean()), 4),
                "fixed_deals": fixed,
                "ratio": None if fixed is None else round(float(d.mean()) / fixed, 2),
                "planned_fixed_deals": planned,
                "ratio_to_planned": round(float(d.mean()) / planned, 2),
            }
        )
    return rows


def garner_row(seed: int = 1) -> dict[str, Any]:
    """The verdict on a real game: Garner setup A, greedy in both seats, fair within ±δ."""
    from gamelib.registry import get_game
    from gamelib.verdict import Fair, verdict

    t0 = time.perf_counter()
    v = verdict(
        get_game("garner").config("A"),
        ["greedy"],
        [Fair(MARGIN)],
        alpha=ALPHA,
        beta=BETA,
        seed=seed,
        workers=1,
        progress=False,
    )
    r = v.iloc[0]
    sd = math.sqrt(r["estimate"] * (1 - r["estimate"]))
    edge = float(r["estimate"]) - 0.5
    fixed = None if abs(abs(edge) - MARGIN) < 1e-9 else fixed_deals(sd, MARGIN, ALPHA, BETA, edge)
    return {
        "case": "garner A, greedy, fair ±0.03",
        "decision": r["decision"],
        "estimate": round(float(r["estimate"]), 3),
        "lo": round(float(r["lo"]), 3),
        "hi": round(float(r["hi"]), 3),
        "deals": int(r["deals"]),
        "fixed_deals_at_estimate": fixed,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def strong_row(
    rows: list[dict[str, Any]], games: int = 8, player: str = "mcts:400", setup: str = "standard"
) -> dict[str, Any]:
    """Seconds per ``player`` self-play game on ``setup`` (``games`` games on 2 workers, wall
    clock) and the minutes an even game's sequential fairness verdict would take at that rate."""
    from gamelib.garner import GARNER
    from gamelib.sim import simulate

    config = GARNER.config(setup)
    simulate(config, [player, player], 1, 1, workers=1, progress=False)  # load the compiled code
    t0 = time.perf_counter()
    simulate(config, [player, player], games, 2026, workers=2, progress=False)
    per_game = (time.perf_counter() - t0) / games
    even = next(r for r in rows if r["edge"] == 0.0)
    return {
        "case": f"garner {setup}, {player} self-play, fair ±{MARGIN} on an even game",
        "games_timed": games,
        "seconds_per_game_2_workers": round(per_game, 3),
        "expected_deals": even["mean_deals"],
        "expected_minutes": round(even["mean_deals"] * per_game / 60, 1),
        "goal_minutes": 3,
    }


def show(rows: list[dict[str, Any]], garner: dict[str, Any] | None) -> None:
    """The rows as a table on stdout."""
    print(
        f"\nverdict cost: fair within ±{MARGIN} (two seats, a win worth 1), "
        f"α = β = {ALPHA}, budget {MAX_DEALS:,} deals, {rows[0]['reps']} runs an edge"
    )
    print(
        f"{'edge':>8} {'holds':>6} {'fails':>6} {'undec.':>6} {'mean deals':>11} "
        f"{'median':>7} {'p90':>7} {'oracle fixed':>13} {'seq ÷ oracle':>13} "
        f"{'seq ÷ planned':>14}"
    )
    for r in rows:
        fixed = "—" if r["fixed_deals"] is None else f"{r['fixed_deals']:,}"
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}"
        print(
            f"{r['edge']:>8.3f} {r['holds']:>6.3f} {r['fails']:>6.3f} {r['undecided']:>6.3f} "
            f"{r['mean_deals']:>11,.0f} {r['median_deals']:>7,} {r['p90_deals']:>7,} "
            f"{fixed:>13} {ratio:>13} {r['ratio_to_planned']:>14.2f}"
        )
    print(
        f"(oracle fixed: a fixed-size test sized for the true edge; planned: one sized for an "
        f"even game, {rows[0]['planned_fixed_deals']:,} deals on every rule set)"
    )
    if garner is not None:
        g = garner
        print(
            f"{g['case']}: {g['decision']}, seat 0 {g['estimate']:.3f} "
            f"[{g['lo']:.3f}, {g['hi']:.3f}] after {g['deals']} deals "
            f"(a fixed test at that edge: {g['fixed_deals_at_estimate']}; {g['seconds']} s)"
        )


def main() -> dict[str, Any]:
    """Measure, print, and return the rows as the bench report stores them."""
    rows, garner = verdict_rows(), garner_row()
    show(rows, garner)
    strong = strong_row(rows)
    print(
        f"{strong['case']}: {strong['seconds_per_game_2_workers']:.2f} s a game on 2 workers "
        f"× {strong['expected_deals']:,.0f} deals ≈ {strong['expected_minutes']} min "
        f"(goal {strong['goal_minutes']} min)"
    )
    return {
        "synthetic": rows,
        "garner": garner,
        "strong": strong,
        "margin": MARGIN,
        "alpha": ALPHA,
        "beta": BETA,
    }


if __name__ == "__main__":
    main()
