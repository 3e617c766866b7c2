"""What each sequential design costs, and whether it keeps its error rates: the deals it plays
and its measured false holds / false fails on cases with a known truth.

Every design of :mod:`gamelib.verdict.designs` (``"cs"``, today's confidence sequences; a
fixed TOST; fishtest-style SPRTs; group-sequential TOSTs with O'Brien–Fleming- and Pocock-type
spending) decides "every seat within ±δ of its fair share" on the same synthetic runs (common
random numbers: each design sees the same deals), at α = β = 0.05, looking at the verdict's
look schedule (:func:`gamelib.verdict.sequential.look_schedule`) up to a budget of about ten
times the fixed TOST's deals.  Cases: two seats, seat 0's points per deal a Bernoulli draw
with mean 0.5 + edge (the verdict's mirror games, one game a deal); four seats, one winner a
deal (the shares of a deal sum to 1), seat 0 at 0.25 + edge and the others 0.25 − edge / 3
(every seat tested, as ``fair`` does at 3–5 seats); edges 0, δ/2, δ (on the margin), 2δ and 4δ;
δ = 0.03 and 0.05.

Per design and case: the mean and 90th-percentile deals, the share of holds / fails /
undecided, and the measured false-holds rate (edge ≥ δ: any *holds* is false) or false-fails
rate (edge < δ) with its Wilson interval.  The "paired" rows do the same for compare's
``effect`` on paired deals, whose spread is far below a lone game's (:func:`draw_paired`);
``--paired-only`` measures just them.  Nothing is asserted here (``tests/
test_verdict_designs.py`` checks the error rates); ``python -m bench.sequential_designs``
prints the table and writes ``bench/results/sequential-designs.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from gamelib.stats import wilson
from gamelib.verdict.designs import DESIGNS, decide_design, design_looks, planned_deals
from gamelib.verdict.sequential import (
    FAILS,
    HOLDS,
    UNDECIDED,
    Band,
    decide_many,
    look_schedule,
)

ALPHA = BETA = 0.05
MARGINS = (0.03, 0.05)
EDGES = (0.0, 0.5, 1.0, 2.0, 4.0)  # in units of δ
SEATS = (2, 4)
#: the budget: about ten times the fixed TOST's deals at two seats
BUDGET = {0.03: 40_000, 0.05: 15_000}
RESULTS = Path(__file__).parent / "results" / "sequential-designs.json"


def draw(seats: int, edge: float, runs: int, deals: int, rng: np.random.Generator) -> np.ndarray:
    """Per-deal values of shape (stream, run, deal): two seats, seat 0's points (one stream);
    more, every seat's points with one winner a deal (the streams sum to 1)."""
    u = rng.random((runs, deals))
    if seats == 2:
        return (u < 0.5 + edge)[None].astype(float)
    p = np.full(seats, 1 / seats - edge / (seats - 1))
    p[0] = 1 / seats + edge
    winner = np.searchsorted(np.cumsum(p)[:-1], u, side="right")
    return np.stack([(winner == s).astype(float) for s in range(seats)])


def draw_paired(
    effect: float, runs: int, deals: int, rng: np.random.Generator, change: float = 0.2
) -> np.ndarray:
    """A comparison's stream (compare's ``effect``): per deal the variant's win less the base's,
    d in {−1, 0, 1}, on the scale (d + 1) / 2; the winner changes in ``change`` of the deals
    (so the spread is far below a lone game's), the mean of d is ``effect``."""
    u = rng.random((runs, deals))
    up = u < (change + effect) / 2
    down = (u >= (change + effect) / 2) & (u < change)
    return ((up.astype(float) - down.astype(float) + 1) / 2)[None]


def cs_decide(
    x: np.ndarray, bands: list[Band], looks: list[int], first: int
) -> dict[str, np.ndarray]:
    """The confidence sequences' decisions, computed on a growing window: a look's bounds use
    only the deals before it, so a run decided inside the first L deals is decided the same on
    all of them, and only the undecided runs are carried to a window twice as long."""
    runs = x.shape[1]
    decision = np.full(runs, UNDECIDED, dtype=object)
    deals = np.full(runs, looks[-1])
    todo = np.arange(runs)
    window = first
    while len(todo):
        window = min(window, looks[-1])
        at = [n for n in looks if n <= window]
        res = decide_many(x[:, todo, : at[-1]], bands, ALPHA, BETA, at)
        done = (res["decision"] != UNDECIDED) | (at[-1] == looks[-1])
        decision[todo[done]] = res["decision"][done]
        deals[todo[done]] = res["deals"][done]
        todo = todo[~done]
        window *= 2
    return {"decision": decision, "deals": deals}


def case_rows(
    seats: int, margin: float, k: float, runs: int, seed: int, chunk: int
) -> list[dict[str, Any]]:
    """One row per design for a case (seats, δ, edge k·δ)."""
    edge = k * margin
    band = Band(1 / seats - margin, 1 / seats + margin)
    bands = [band] if seats == 2 else [band] * seats
    looks = look_schedule(BUDGET[margin])
    rng = np.random.default_rng(seed)
    words: dict[str, list[np.ndarray]] = {d: [] for d in DESIGNS}
    deals: dict[str, list[np.ndarray]] = {d: [] for d in DESIGNS}
    seconds = dict.fromkeys(DESIGNS, 0.0)
    fixed = planned_deals("fixed", bands, ALPHA, BETA)
    assert fixed is not None
    for start in range(0, runs, chunk):
        x = draw(seats, edge, min(chunk, runs - start), looks[-1], rng)
        for d in DESIGNS:
            t0 = time.process_time()
            res = cs_decide(x, bands, looks, 2 * fixed) if d == "cs" else None
            if res is None:
                res = decide_design(x, bands, ALPHA, BETA, looks, d)
            seconds[d] += time.process_time() - t0
            words[d].append(res["decision"])
            deals[d].append(res["deals"])
    rows = []
    for d in DESIGNS:
        w, n = np.concatenate(words[d]), np.concatenate(deals[d])
        wrong = HOLDS if k >= 1 else FAILS
        bad = int((w == wrong).sum())
        lo, hi = wilson(bad, len(w))
        own = design_looks(d, bands, ALPHA, BETA, looks)
        rows.append(
            {
                "seats": seats,
                "margin": margin,
                "edge_in_margins": k,
                "edge": round(edge, 4),
                "design": d,
                "runs": len(w),
                "budget": looks[-1],
                "planned_deals": own[-1] if d in ("fixed", "gst", "gst-pocock") else None,
                "mean_deals": round(float(n.mean()), 1),
                "p90_deals": int(np.quantile(n, 0.9)),
                "holds": round(float((w == HOLDS).mean()), 4),
                "fails": round(float((w == FAILS).mean()), 4),
                "undecided": round(float((w == UNDECIDED).mean()), 4),
                "error": "false holds" if k >= 1 else "false fails",
                "error_target": ALPHA if k >= 1 else BETA,
                "error_rate": round(bad / len(w), 4),
                "error_lo": round(lo, 4),
                "error_hi": round(hi, 4),
                "cpu_seconds": round(seconds[d], 1),
            }
        )
    return rows


def paired_rows(runs: int, seed: int, margin: float = 0.03) -> list[dict[str, Any]]:
    """compare's ``effect`` on paired deals (:func:`draw_paired`): one row per design and true
    effect (0, δ/2, δ, 2δ, 4δ), band ±δ on the effect (±δ/2 on the stream's scale)."""
    band = Band(0.5 - margin / 2, 0.5 + margin / 2)
    looks = look_schedule(BUDGET[margin])
    fixed = planned_deals("fixed", [band], ALPHA, BETA)
    assert fixed is not None
    rows = []
    for i, k in enumerate(EDGES):
        rng = np.random.default_rng(seed + i)
        words: dict[str, list[np.ndarray]] = {d: [] for d in DESIGNS}
        deals: dict[str, list[np.ndarray]] = {d: [] for d in DESIGNS}
        for start in range(0, runs, 100):
            x = draw_paired(k * margin, min(100, runs - start), looks[-1], rng)
            for d in DESIGNS:
                if d == "cs":
                    res = cs_decide(x, [band], looks, fixed)
                else:
                    res = decide_design(x, [band], ALPHA, BETA, looks, d)
                words[d].append(res["decision"])
                deals[d].append(res["deals"])
        for d in DESIGNS:
            w, n = np.concatenate(words[d]), np.concatenate(deals[d])
            wrong = HOLDS if k >= 1 else FAILS
            bad = int((w == wrong).sum())
            lo, hi = wilson(bad, len(w))
            rows.append(
                {
                    "case": "compare effect, paired deals, winner changes in 0.2 of deals",
                    "margin": margin,
                    "edge_in_margins": k,
                    "design": d,
                    "runs": len(w),
                    "mean_deals": round(float(n.mean()), 1),
                    "p90_deals": int(np.quantile(n, 0.9)),
                    "holds": round(float((w == HOLDS).mean()), 4),
                    "fails": round(float((w == FAILS).mean()), 4),
                    "undecided": round(float((w == UNDECIDED).mean()), 4),
                    "error": "false holds" if k >= 1 else "false fails",
                    "error_rate": round(bad / len(w), 4),
                    "error_lo": round(lo, 4),
                    "error_hi": round(hi, 4),
                }
            )
    return rows


def show(rows: list[dict[str, Any]]) -> None:
    """The rows as a table on stdout."""
    print(
        f"\nsequential designs: fair within ±δ, α = β = {ALPHA}, {rows[0]['runs']} runs a case "
        "(error: false holds at edges ≥ δ, false fails inside; Wilson 95 % interval)"
    )
    head = (
        f"{'seats':>5} {'δ':>5} {'edge':>5} {'design':>10} {'mean':>7} {'p90':>7} "
        f"{'holds':>6} {'fails':>6} {'undec':>6} {'error':>12} {'rate [95 %]':>22}"
    )
    print(head)
    for r in rows:
        print(
            f"{r.get('seats', 'pair'):>5} {r['margin']:>5.2f} {r['edge_in_margins']:>4g}δ "
            f"{r['design']:>10} "
            f"{r['mean_deals']:>7,.0f} {r['p90_deals']:>7,} {r['holds']:>6.3f} {r['fails']:>6.3f} "
            f"{r['undecided']:>6.3f} {r['error']:>12} "
            f"{r['error_rate']:>6.3f} [{r['error_lo']:.3f}, {r['error_hi']:.3f}]"
        )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Measure every case, print the table and write the JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.sequential_designs")
    parser.add_argument("--runs", type=int, default=2000, help="runs a case (2000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--paired-only",
        action="store_true",
        help="only compare's paired-deal rows, into the JSON's 'paired' key (the rest kept)",
    )
    args = parser.parse_args(argv)
    if args.paired_only:
        paired = paired_rows(args.runs, args.seed + 100)
        show(paired)
        old = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        old["paired"] = paired
        args.out.write_text(json.dumps(old, indent=1) + "\n", encoding="utf-8")
        print(f"json: {args.out}")
        return dict(old)
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for i, (seats, margin, k) in enumerate(
        (s, m, k) for s in SEATS for m in MARGINS for k in EDGES
    ):
        chunk = 100 if seats == 2 else 40
        rows += case_rows(seats, margin, k, args.runs, args.seed + i, chunk)
        print(f"  case {i + 1}: {seats} seats, δ {margin}, edge {k}δ done", flush=True)
    show(rows)
    paired = paired_rows(args.runs, args.seed + 100)
    show(paired)
    out = {
        "rows": rows,
        "paired": paired,
        "alpha": ALPHA,
        "beta": BETA,
        "runs": args.runs,
        "seed": args.seed,
        "budget": {str(k): v for k, v in BUDGET.items()},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"json: {args.out}")
    return out


if __name__ == "__main__":
    main()
