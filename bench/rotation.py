"""Seat-rotated deals (issue 33): does playing one deal's hands through every seat cut the games a
fairness verdict needs?

For each Gargon player count and level, one mirror run with ``rotate_deals=True``: every deal
played n times, rotation r giving seat i the hand dealt to seat (i + r) mod n (the piles and
seat 0's lead as dealt). Rotation 0 of each deal is exactly the plain run's game, so both
designs are measured on the same deals:

* **one game a deal** — a seat's points (its win share; a game nobody won gives 1/n each, as
  ``gamelib.verdict.questions.credit``) in rotation 0;
* **rotated deal** — the mean of the seat's points over the deal's n games.

Per seat: the variance of each, the *deal ratio* var(rotated) / var(one) (the deals a decision
needs scale with the per-deal variance) and the *game ratio* n · var(rotated) / var(one) (a
rotated deal costs n games: below 1, rotation needs fewer games than fresh deals for the same
precision; 1 + (n − 1)ρ, ρ the correlation of a seat's points between two rotations of a deal).
Pooled over seats, with a 95% bootstrap interval over deals. The deals and games a fixed-size
fairness test (±δ, α = β = 0.05, :func:`gamelib.verdict.sequential.fixed_deals`) needs at the
worst seat's spread, on an even game (edge 0) and at the seats' measured shares.

Garner deals a shared grid and nothing to a seat alone: ``rotate_deals`` is refused there, and
the only rotation a mirror line-up has (``rotate_seats``: the seats' players swapped) replays
the same game; the Garner row measures that, so its ratio is a number, not a claim.

``--verdicts SEEDS`` also runs the sequential fairness verdict itself at greedy (±0.05, the
4p shares' spread decides in a few thousand deals) on that many seeds, one game a deal and on
rotated deals, and reports the mean games each played.

``python -m bench.rotation [--levels greedy ismcts:50] [--players 3 4 5] [--deals 4000]
[--search-deals 300] [--seed 33] [--verdicts 20] [--garner]`` prints the rows and merges them,
keyed by game, player count and level, into ``bench/results/rotation.json`` (a search level
takes minutes per player count: run one at a time; ``--levels`` with no level runs none).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from gamelib.gargon import GARGON
from gamelib.sim import simulate
from gamelib.verdict.questions import credit
from gamelib.verdict.sequential import fixed_deals

MARGIN = 0.03
ALPHA = BETA = 0.05
BOOT = 2000
OUT = Path(__file__).parent / "results" / "rotation.json"


def _need(sd: np.ndarray, edges: np.ndarray) -> int:
    """Deals a fixed-size fairness test needs: every seat inside the margin (holds) needs the
    slowest seat; else the first seat found outside (fails) is the quickest."""
    inside = np.abs(edges) < MARGIN
    sizes = [
        fixed_deals(float(s), MARGIN, ALPHA, BETA, float(e))
        for s, e in zip(sd, edges, strict=True)
        if abs(abs(e) - MARGIN) > 1e-9
    ]
    if not sizes:
        return -1
    if inside.all():
        return max(sizes)
    return min(
        fixed_deals(float(s), MARGIN, ALPHA, BETA, float(e))
        for s, e in zip(sd, edges, strict=True)
        if abs(e) > MARGIN
    )


def gargon_row(n: int, level: str, deals: int, seed: int) -> dict[str, Any]:
    """One player count and level: the two designs on the same deals."""
    cfg = GARGON.config(f"{n}p")
    t0 = time.perf_counter()
    table = simulate(cfg, [level] * n, deals, seed, rotate_deals=True, workers=1, progress=False)
    seconds = time.perf_counter() - t0
    points = np.stack([credit(table, s) for s in range(n)], axis=1).reshape(deals, n, n)
    one = points[:, 0, :]  # (deal, seat): rotation 0, the plain run's game
    rot = points.mean(axis=1)  # (deal, seat): the mean over the deal's n rotations
    v1, vr = one.var(axis=0, ddof=1), rot.var(axis=0, ddof=1)
    pooled = float(n * vr.sum() / v1.sum())
    rng = np.random.default_rng(seed)
    boot = np.empty(BOOT)
    for b in range(BOOT):
        k = rng.integers(0, deals, deals)
        boot[b] = n * rot[k].var(axis=0, ddof=1).sum() / one[k].var(axis=0, ddof=1).sum()
    lo, hi = np.quantile(boot, [0.025, 0.975])
    share = rot.mean(axis=0)  # the better estimate of each seat's share: n games a deal
    edges = share - 1 / n
    sd1, sdr = np.sqrt(v1), np.sqrt(vr)
    even1 = fixed_deals(float(sd1.max()), MARGIN, ALPHA, BETA, 0.0)
    evenr = fixed_deals(float(sdr.max()), MARGIN, ALPHA, BETA, 0.0)
    at1, atr = _need(sd1, edges), _need(sdr, edges)
    return {
        "game": "gargon",
        "players": n,
        "level": level,
        "deals": deals,
        "games": deals * n,
        "seed": seed,
        "seconds": round(seconds, 1),
        "seat_share": [round(float(x), 4) for x in share],
        "var_one_game": [round(float(x), 5) for x in v1],
        "var_rotated_deal": [round(float(x), 5) for x in vr],
        "deal_ratio": [round(float(x), 3) for x in vr / v1],
        "game_ratio": [round(float(x), 3) for x in n * vr / v1],
        "game_ratio_pooled": round(pooled, 3),
        "game_ratio_95": [round(float(lo), 3), round(float(hi), 3)],
        "rho": round((pooled - 1) / (n - 1), 4),
        "even_game": {
            "deals_one_game": even1,
            "games_one_game": even1,
            "deals_rotated": evenr,
            "games_rotated": evenr * n,
        },
        "at_measured_shares": {
            "deals_one_game": at1,
            "games_one_game": at1,
            "deals_rotated": atr,
            "games_rotated": atr * n if atr > 0 else -1,
        },
    }


def verdict_row(n: int, level: str, margin: float, seeds: int, max_games: int) -> dict[str, Any]:
    """The sequential fairness verdict itself, one game a deal and on rotated deals, over
    ``seeds`` seeds each: the deals and games it played and what it decided."""
    from gamelib.verdict import Fair, verdict

    cfg = GARGON.config(f"{n}p")
    out: dict[str, Any] = {"game": "gargon", "players": n, "level": level, "margin": margin}
    out.update({"seeds": seeds, "max_games": max_games})
    for key, rotate in (("one_game", False), ("rotated", True)):
        rows = [
            verdict(cfg, [level], [Fair(margin)], seed=s, max_games=max_games, workers=1,
                    progress=False, rotate_deals=rotate).iloc[0]
            for s in range(seeds)
        ]  # fmt: skip
        deals = np.array([r["deals"] for r in rows])
        games = np.array([r["games"] for r in rows])
        words = [str(r["decision"]) for r in rows]
        out[key] = {
            "mean_deals": round(float(deals.mean()), 1),
            "mean_games": round(float(games.mean()), 1),
            "median_games": float(np.median(games)),
            "decisions": {w: words.count(w) for w in sorted(set(words))},
        }
    out["games_rotated_over_one_game"] = round(
        out["rotated"]["mean_games"] / out["one_game"]["mean_games"], 3
    )
    return out


def garner_row(deals: int, seed: int, setup: str = "A") -> dict[str, Any]:
    """Garner: nothing dealt to a seat alone. The one rotation a mirror has (the seats' players
    swapped) replays the deal; measured: how many deals' two games differ, and the game ratio."""
    from gamelib.garner import GARNER

    cfg = GARNER.config(setup)
    t0 = time.perf_counter()
    table = simulate(cfg, ["greedy"] * 2, deals, seed, rotate_seats=True, workers=1, progress=False)
    seconds = time.perf_counter() - t0
    points = credit(table, 0).reshape(deals, 2)
    one, rot = points[:, 0], points.mean(axis=1)
    scores = table[["score_0", "score_1"]].to_numpy().reshape(deals, 2, 2)
    differ = int((scores[:, 0] != scores[:, 1]).any(axis=1).sum())
    v1, vr = float(one.var(ddof=1)), float(rot.var(ddof=1))
    return {
        "game": "garner",
        "setup": setup,
        "players": 2,
        "level": "greedy",
        "deals": deals,
        "games": 2 * deals,
        "seed": seed,
        "seconds": round(seconds, 1),
        "rotate_deals": "refused: every seat shares the dealt grid, no hand to rotate",
        "deals_whose_two_games_differ": differ,
        "seat_0_share": round(float(one.mean()), 4),
        "var_one_game": round(v1, 5),
        "var_replayed_deal": round(vr, 5),
        "game_ratio": round(2 * vr / v1, 3) if v1 > 0 else math.nan,
    }


def show(row: dict[str, Any]) -> None:
    """One row on stdout."""
    if "one_game" in row:
        o, r = row["one_game"], row["rotated"]
        print(
            f"verdict gargon {row['players']}p {row['level']} fair ±{row['margin']}, "
            f"{row['seeds']} seeds: one game a deal {o['mean_deals']:,.0f} deals = "
            f"{o['mean_games']:,.0f} games {o['decisions']}; rotated {r['mean_deals']:,.0f} deals "
            f"= {r['mean_games']:,.0f} games {r['decisions']}; ratio "
            f"{row['games_rotated_over_one_game']}"
        )
        return
    if row["game"] == "garner":
        print(
            f"garner {row['setup']} greedy, {row['deals']} deals: the two games differ in "
            f"{row['deals_whose_two_games_differ']} deals; game ratio {row['game_ratio']}"
        )
        return
    e, m = row["even_game"], row["at_measured_shares"]
    print(
        f"gargon {row['players']}p {row['level']:<10} {row['deals']:>5} deals "
        f"({row['seconds']:.0f} s): game ratio {row['game_ratio_pooled']:.3f} "
        f"[{row['game_ratio_95'][0]:.3f}, {row['game_ratio_95'][1]:.3f}], per seat "
        f"{row['game_ratio']}; deal ratio {row['deal_ratio']}; even game ±{MARGIN}: "
        f"{e['deals_one_game']:,} deals/games one game a deal vs {e['deals_rotated']:,} deals = "
        f"{e['games_rotated']:,} games rotated; at the measured shares {m['games_one_game']:,} "
        f"vs {m['games_rotated']:,} games"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Measure the rows asked for, print them and merge them into the stored report."""
    ap = argparse.ArgumentParser(prog="python -m bench.rotation", description=__doc__)
    ap.add_argument("--levels", nargs="*", default=["greedy"])
    ap.add_argument("--players", nargs="+", type=int, default=[3, 4, 5])
    ap.add_argument("--deals", type=int, default=4000, help="deals a compiled level plays")
    ap.add_argument("--search-deals", type=int, default=300, help="deals a search level plays")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--garner", action="store_true", help="the Garner row too")
    ap.add_argument(
        "--verdicts",
        type=int,
        default=0,
        metavar="SEEDS",
        help="also run the greedy fairness verdict (±0.05) this many seeds a design, each "
        "player count",
    )
    args = ap.parse_args(argv)
    rows: dict[str, Any] = {}
    for level in args.levels:
        deals = args.deals if level.split(":")[0] in ("greedy", "random") else args.search_deals
        for n in args.players:
            row = gargon_row(n, level, deals, args.seed)
            show(row)
            rows[f"gargon {n}p {level}"] = row
    for n in args.players if args.verdicts else []:
        row = verdict_row(n, "greedy", 0.05, args.verdicts, 200_000)
        show(row)
        rows[f"verdict gargon {n}p greedy"] = row
    if args.garner:
        row = garner_row(args.deals, args.seed)
        show(row)
        rows["garner A greedy"] = row
    # merged when written, so runs of other rows in the meantime are kept
    report: dict[str, Any] = json.loads(OUT.read_text()) if OUT.exists() else {}
    report.setdefault("rows", {}).update(rows)
    report.update(
        {
            "margin": MARGIN,
            "alpha": ALPHA,
            "beta": BETA,
            "bootstrap": BOOT,
            "machine": platform.machine(),
            "python": platform.python_version(),
        }
    )
    OUT.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    return report


if __name__ == "__main__":
    main()
