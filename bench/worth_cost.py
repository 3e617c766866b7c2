"""What a card worth table costs: Gargon's 16-value table at 4 players, timed.

``heuristic_row()`` decides the table at ``greedy`` (every seat; the default budget of
``gamelib worth``: 20,000 deals, δ = 0.01, α = β = 0.05 split over the 16 values) on all
cores, from an empty study cache, and reports the seconds, the deals the last row needed and
how many rows each decision took.  ``search_row(minutes)`` plays the table with a searching
holder (``ismcts:100`` against ``greedy`` opponents, δ = 0.03) on one core for ``minutes``
and reports the deals it reached, the seconds a deal of all 16 arms took, the decisions, and
— from those, for each undecided row — the deals its verdict says would decide it; what
2 cores and 30 or 60 minutes buy follows from the seconds a deal.  ``make bench`` runs the
heuristic row and shows the stored search row (``bench/results/worth.json``; ``python -m
bench.worth_cost --search`` re-makes it, half an hour).  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
SEARCH_LINEUP = ["ismcts:100", "greedy", "greedy", "greedy"]


def _summary(table: Any, seconds: float, cores: int) -> dict[str, Any]:
    decided = table[table["decision"] != "undecided"]
    more = table.loc[table["decision"] == "undecided", "more_deals"].dropna()
    deals = int(table["deals"].max())
    return {
        "seconds": round(seconds, 1),
        "cores": cores,
        "deals": deals,
        "seconds_per_deal": round(seconds / max(deals, 1), 4),
        "holds": int((table["decision"] == "holds").sum()),
        "fails": int((table["decision"] == "fails").sum()),
        "undecided": int((table["decision"] == "undecided").sum()),
        "decided_at_most": int(decided["deals"].max()) if len(decided) else 0,
        "undecided_need_more": [int(x) for x in more],
    }


def heuristic_row(max_deals: int = 20_000, seed: int = 1) -> dict[str, Any]:
    """The greedy table, timed on every core into an empty cache."""
    from gamelib.gargon import GARGON
    from gamelib.sim import default_workers
    from gamelib.verdict.worth import worth

    with tempfile.TemporaryDirectory() as cache:
        os.environ["GAMELIB_STORED"] = "none"
        t0 = time.perf_counter()
        table = worth(
            GARGON.config("4p"), "greedy", "value", margin=0.01, max_deals=max_deals,
            seed=seed, cache=cache, progress=False,
        )  # fmt: skip
        seconds = time.perf_counter() - t0
    row = {
        "what": "gargon 4p value table, greedy, δ 0.01",
        **_summary(table, seconds, default_workers()),
    }
    print(
        f"\ncard worth, {row['what']}: {row['seconds']} s on {row['cores']} cores, "
        f"{row['holds']} in line, {row['fails']} out of line, {row['undecided']} undecided at "
        f"{row['deals']:,} deals (decided rows by {row['decided_at_most']:,})"
    )
    return row


def search_row(minutes: float = 30.0, seed: int = 47) -> dict[str, Any]:
    """The search-level table on one core for ``minutes`` (see the module docstring)."""
    from gamelib.gargon import GARGON
    from gamelib.verdict.worth import worth

    with tempfile.TemporaryDirectory() as cache:
        os.environ["GAMELIB_STORED"] = "none"
        t0 = time.perf_counter()
        table = worth(
            GARGON.config("4p"), SEARCH_LINEUP, "value", margin=0.03, max_deals=4000,
            seed=seed, cache=cache, max_minutes=minutes, workers=1, progress=False,
        )  # fmt: skip
        seconds = time.perf_counter() - t0
    return {
        "what": "gargon 4p value table, ismcts:100 + greedy×3, δ 0.03",
        **_summary(table, seconds, 1),
    }


def calibration(
    deals: int = 6000,
    budget: int = 3000,
    margin: float = 0.02,
    draws: int = 200,
    seed: int = 5,
    workers: int | None = None,
) -> dict[str, Any]:
    """Power and false flags at notebook 07's budget, by resampling played deals.

    Plays the value table of a planted truth (value 10 with three more amulets) and the colour
    null at ``greedy`` on ``deals`` deals each (no early stop: a margin no row reaches), then
    draws ``draws`` resamples of ``budget`` deals (with replacement: the bootstrap) and decides
    each through the verdicts' own sequential rule (:func:`decide_many`, Bonferroni α/K, β/K,
    the looks a table of ``budget`` deals takes).  Power: the share of resamples in which the
    planted value comes out out of line above; false flags: the share in which any colour comes
    out out of line (the colours are alike in the rules: the family's false flag rate, to be
    at most β).  The resamples' true means are the played ones: the null's are near 0, not
    exactly."""
    import dataclasses

    import numpy as np

    from gamelib.gargon import GARGON
    from gamelib.verdict.sequential import Band, decide_many, look_schedule
    from gamelib.verdict.worth import arm_shares, worth

    config = GARGON.config("4p")
    amulets = list(config.amulets)
    amulets[10] += 3
    planted = dataclasses.replace(config, amulets=tuple(amulets))
    out: dict[str, Any] = {"deals": deals, "budget": budget, "margin": margin, "draws": draws}
    rng = np.random.default_rng(seed)
    looks = look_schedule(budget, 50)
    for name, cfg, kind, target in (
        ("planted", planted, "value", 10),
        ("null", config, "colour", None),
    ):
        got: dict[str, list[Any]] = {}
        t0 = time.perf_counter()
        worth(cfg, "greedy", kind, margin=1e-6, max_deals=deals, seed=seed, progress=False,
              tables=got, workers=workers)  # fmt: skip
        shares = arm_shares(got["worth"])
        w = (shares - shares.mean(axis=0) + 1) / 2  # (arm, deal) in [0, 1]
        k = len(w)
        pick = rng.integers(0, w.shape[1], size=(draws, budget))
        x = w[:, pick]  # (arm, draw, deal)
        bands = [Band(0.5 - margin / 2, 0.5 + margin / 2)]
        flags = np.zeros(draws, bool)
        rows = range(k) if target is None else [target]
        for a in rows:
            res = decide_many(x[a : a + 1], bands, 0.05 / k, 0.05 / k, looks)
            above = (res["decision"] == "fails") & (res["mean"][0] > 0.5)
            flags |= above if target is not None else res["decision"] == "fails"
        out[name] = {
            "share": round(float(flags.mean()), 3),
            "seconds": round(time.perf_counter() - t0, 1),
        }
    print(
        f"card worth calibration at {budget:,} deals, δ {margin:g} ({draws} resamples of "
        f"{deals:,} played deals): power on the planted value {out['planted']['share']:.0%}, "
        f"false flags on the colour null {out['null']['share']:.1%} (β 5%)"
    )
    return out


def show_search(row: dict[str, Any]) -> None:
    per = row["seconds_per_deal"]
    print(
        f"card worth, {row['what']}: {row['deals']:,} deals in {row['seconds']:.0f} s on one "
        f"core ({per:.1f} s a deal of 16 arms × 4 seats); {row['holds']} in line, "
        f"{row['fails']} out of line, {row['undecided']} undecided; 2 cores would play about "
        f"{int(2 * 1800 / per):,} deals in 30 min and {int(2 * 3600 / per):,} in 60"
    )


def show_stored(path: Path = RESULTS / "worth.json") -> dict[str, Any] | None:
    """The stored search row (``make bench`` shows it; ``--search`` re-makes it)."""
    if not path.exists():
        print(
            "card worth at a search level: none stored yet "
            f"(python -m bench.worth_cost --search writes {path})"
        )
        return None
    row: dict[str, Any] = json.loads(path.read_text())
    print(f"as stored in {path.name} (python -m bench.worth_cost --search re-makes it):")
    show_search(row)
    for c in row.get("calibration", {}).get("rows", []):
        print(
            f"card worth calibration at {c['budget']:,} deals, δ {c['margin']:g}: power on a "
            f"planted value {c['planted']['share']:.0%}, false flags on the colour null "
            f"{c['null']['share']:.1%} (β 5%)"
        )
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.worth_cost", description=__doc__)
    parser.add_argument("--search", action="store_true", help="re-make the stored search row")
    parser.add_argument("--minutes", type=float, default=30.0, help="the search row's clock")
    parser.add_argument(
        "--calibration", action="store_true", help="re-make the stored calibration row"
    )
    args = parser.parse_args(argv)
    if args.calibration:
        path = RESULTS / "worth.json"
        stored = json.loads(path.read_text()) if path.exists() else {}
        rows = [calibration(budget=3000, margin=m) for m in (0.02, 0.015, 0.01)]
        stored["calibration"] = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), "rows": rows}
        path.write_text(json.dumps(stored, indent=2) + "\n")
        return 0
    if args.search:
        row = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), **search_row(args.minutes)}
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / "worth.json"
        stored = json.loads(path.read_text()) if path.exists() else {}
        calibration_kept = {k: v for k, v in stored.items() if k == "calibration"}
        path.write_text(json.dumps({**row, **calibration_kept}, indent=2) + "\n")
        show_search(row)
        return 0
    heuristic_row()
    show_stored()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
